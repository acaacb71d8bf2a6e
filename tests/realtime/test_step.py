"""RealtimeStep: the three kinds of expectation and the checks made at construction."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from agents.realtime import (
    RealtimeAgent,
    RealtimeModelSendAudio,
    RealtimeModelSendEvent,
    RealtimeModelSendInterrupt,
    RealtimeModelSendUserInput,
    RealtimeModelToolCallEvent,
    RealtimeModelTranscriptDeltaEvent,
    RealtimeRawModelEvent,
    RealtimeRunConfig,
    RealtimeRunner,
)

from agents_testing.core import InvalidStepError
from agents_testing.realtime import (
    InvalidRealtimeStep,
    RealtimeScriptError,
    RealtimeStep,
    ScriptedRealtimeModel,
    UnexpectedRealtimeSend,
)

REPLY = RealtimeModelTranscriptDeltaEvent(item_id="item_1", delta="Hi!", response_id="resp_1")


def runner_for(model: ScriptedRealtimeModel) -> RealtimeRunner:
    config: RealtimeRunConfig = {"tracing_disabled": True}
    return RealtimeRunner(RealtimeAgent(name="Assistant"), model=model, config=config)


async def drive(model: ScriptedRealtimeModel, message: str) -> list[Any]:
    """Send ``message`` through a real session and collect the raw events it caused."""
    seen: list[Any] = []
    async with await runner_for(model).run() as session:
        await session.send_message(message)

        async def scan() -> None:
            async for event in session:
                if isinstance(event, RealtimeRawModelEvent):
                    seen.append(event.data)
                    return

        await asyncio.wait_for(scan(), 10)
    return seen


# -- expectation kinds ---------------------------------------------------------------


@pytest.mark.asyncio
async def test_exact_event_expectation_matches_an_equal_send() -> None:
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=RealtimeModelSendUserInput(user_input="Hello"), emit=[REPLY])]
    )
    assert await drive(model, "Hello") == [REPLY]
    model.assert_complete()


@pytest.mark.asyncio
async def test_exact_event_expectation_rejects_a_different_value() -> None:
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=RealtimeModelSendUserInput(user_input="Hello"), emit=[REPLY])]
    )
    with pytest.raises(UnexpectedRealtimeSend):
        await drive(model, "Hello!")


@pytest.mark.asyncio
async def test_class_expectation_matches_by_isinstance() -> None:
    model = ScriptedRealtimeModel([RealtimeStep(expect=RealtimeModelSendUserInput, emit=[REPLY])])
    assert await drive(model, "anything at all") == [REPLY]
    model.assert_complete()


@pytest.mark.asyncio
async def test_class_expectation_rejects_another_event_class() -> None:
    model = ScriptedRealtimeModel([RealtimeStep(expect=RealtimeModelSendAudio)])
    with pytest.raises(UnexpectedRealtimeSend) as caught:
        await drive(model, "Hello")
    assert caught.value.expected is RealtimeModelSendAudio


@pytest.mark.asyncio
async def test_predicate_expectation_receives_the_sent_event() -> None:
    received: list[RealtimeModelSendEvent] = []

    def polite(event: RealtimeModelSendEvent) -> bool:
        received.append(event)
        return isinstance(event, RealtimeModelSendUserInput) and "please" in str(event.user_input)

    model = ScriptedRealtimeModel([RealtimeStep(expect=polite, emit=[REPLY])])
    assert await drive(model, "Help me, please") == [REPLY]
    assert received == [RealtimeModelSendUserInput(user_input="Help me, please")]
    model.assert_complete()


@pytest.mark.asyncio
async def test_predicate_returning_false_is_a_mismatch() -> None:
    model = ScriptedRealtimeModel([RealtimeStep(expect=lambda event: False)])
    with pytest.raises(UnexpectedRealtimeSend):
        await drive(model, "Hello")
    assert model.remaining_steps == 1


@pytest.mark.asyncio
async def test_predicate_exception_propagates_and_leaves_the_step_pending() -> None:
    def broken(event: RealtimeModelSendEvent) -> bool:
        raise KeyError("bug in the test's predicate")

    model = ScriptedRealtimeModel([RealtimeStep(expect=broken)])
    with pytest.raises(KeyError, match="bug in the test's predicate"):
        await drive(model, "Hello")
    assert model.remaining_steps == 1


@pytest.mark.asyncio
async def test_predicate_returning_an_awaitable_is_rejected() -> None:
    async def later() -> bool:
        return True

    model = ScriptedRealtimeModel([RealtimeStep(expect=lambda event: later())])  # type: ignore[arg-type,return-value]
    with pytest.raises(InvalidRealtimeStep) as caught:
        await drive(model, "Hello")
    assert (caught.value.reason, caught.value.field) == ("invalid_expect", "expect")


# -- construction checks ---------------------------------------------------------------


def test_step_with_both_emit_and_error_is_rejected() -> None:
    with pytest.raises(InvalidRealtimeStep) as caught:
        RealtimeStep(expect=RealtimeModelSendInterrupt, emit=[REPLY], error=RuntimeError("x"))

    error = caught.value
    assert isinstance(error, InvalidStepError)
    assert isinstance(error, RealtimeScriptError)
    assert isinstance(error, ValueError)
    assert (error.reason, error.input_index, error.field) == ("conflicting_outcomes", 0, "emit")
    assert "not both" in str(error)


def test_step_with_an_error_and_no_events_is_accepted() -> None:
    step = RealtimeStep(expect=RealtimeModelSendInterrupt, emit=[], error=RuntimeError("x"))
    assert step.emit == ()
    assert isinstance(step.error, RuntimeError)


@pytest.mark.parametrize(
    "expect",
    [
        pytest.param("Hello", id="plain-string"),
        pytest.param({"type": "message"}, id="dict"),
        pytest.param(RealtimeModelToolCallEvent, id="incoming-event-class"),
        pytest.param(
            RealtimeModelToolCallEvent(name="x", call_id="c", arguments=""), id="incoming"
        ),
    ],
)
def test_expectation_that_can_never_match_a_send_is_rejected(expect: Any) -> None:
    with pytest.raises(InvalidRealtimeStep) as caught:
        RealtimeStep(expect=expect)
    assert (caught.value.reason, caught.value.field) == ("invalid_expect", "expect")


def test_coroutine_function_expectation_is_rejected() -> None:
    async def predicate(event: RealtimeModelSendEvent) -> bool:
        return True

    with pytest.raises(InvalidRealtimeStep) as caught:
        RealtimeStep(expect=predicate)  # type: ignore[arg-type]
    assert caught.value.reason == "invalid_expect"


def test_emit_item_that_is_not_an_incoming_event_is_rejected_with_its_index() -> None:
    with pytest.raises(InvalidRealtimeStep) as caught:
        RealtimeStep(
            expect=RealtimeModelSendInterrupt,
            emit=[REPLY, REPLY, RealtimeModelSendInterrupt()],  # type: ignore[list-item]
        )
    assert (caught.value.reason, caught.value.input_index, caught.value.field) == (
        "invalid_event",
        2,
        "emit",
    )
    assert "item 3" in str(caught.value)


def test_emit_that_is_not_a_sequence_is_rejected() -> None:
    with pytest.raises(InvalidRealtimeStep) as caught:
        RealtimeStep(expect=RealtimeModelSendInterrupt, emit=REPLY)  # type: ignore[arg-type]
    assert caught.value.reason == "invalid_event"


def test_error_that_is_not_an_exception_is_rejected() -> None:
    with pytest.raises(InvalidRealtimeStep) as caught:
        RealtimeStep(expect=RealtimeModelSendInterrupt, error="boom")  # type: ignore[arg-type]
    assert (caught.value.reason, caught.value.field) == ("invalid_error", "error")


def test_model_rejects_steps_that_are_not_realtime_steps_with_their_index() -> None:
    good = RealtimeStep(expect=RealtimeModelSendInterrupt)
    with pytest.raises(InvalidRealtimeStep) as caught:
        ScriptedRealtimeModel([good, {"expect": RealtimeModelSendInterrupt}])  # type: ignore[list-item]
    assert (caught.value.reason, caught.value.input_index, caught.value.field) == (
        "invalid_input",
        1,
        "steps",
    )
    assert "item 2" in str(caught.value)


@pytest.mark.parametrize(
    ("arguments", "field", "reason"),
    [
        pytest.param(
            {"connect_events": [RealtimeModelSendInterrupt()]}, "connect_events", "invalid_event"
        ),
        pytest.param({"connect_error": "refused"}, "connect_error", "invalid_error"),
        pytest.param({"close_error": 42}, "close_error", "invalid_error"),
    ],
)
def test_model_rejects_malformed_lifecycle_arguments(
    arguments: dict[str, Any], field: str, reason: str
) -> None:
    with pytest.raises(InvalidRealtimeStep) as caught:
        ScriptedRealtimeModel(**arguments)
    assert (caught.value.reason, caught.value.field) == (reason, field)


def test_step_is_immutable_and_its_repr_names_its_parts() -> None:
    step = RealtimeStep(expect=RealtimeModelSendInterrupt, emit=[REPLY])
    with pytest.raises(AttributeError):
        step.emit = ()  # type: ignore[misc]
    assert "RealtimeModelSendInterrupt" in repr(step)
    assert "Hi!" in repr(step)


def test_model_given_a_single_step_instead_of_a_sequence_says_so() -> None:
    step = RealtimeStep(expect=RealtimeModelSendInterrupt)
    with pytest.raises(InvalidRealtimeStep) as caught:
        ScriptedRealtimeModel(step)  # type: ignore[arg-type]
    assert (caught.value.reason, caught.value.field) == ("invalid_input", "steps")
    assert "sequence of RealtimeStep" in str(caught.value)


# -- shapes checked when the step is built -------------------------------------------


@pytest.mark.parametrize(
    "expect",
    [
        pytest.param(list[int], id="parameterized-builtin"),
        pytest.param(tuple[RealtimeModelSendUserInput, ...], id="parameterized-tuple"),
        pytest.param(lambda event, other: True, id="two-arguments"),
        pytest.param(lambda: True, id="no-arguments"),
        pytest.param(lambda event, *, flag: True, id="required-keyword"),
    ],
)
def test_expectation_of_the_wrong_shape_is_rejected_when_built(expect: Any) -> None:
    with pytest.raises(InvalidRealtimeStep) as caught:
        RealtimeStep(expect=expect)
    assert (caught.value.reason, caught.value.field) == ("invalid_expect", "expect")


def test_generator_function_expectation_is_rejected() -> None:
    def predicate(event: RealtimeModelSendEvent) -> Any:
        yield True

    with pytest.raises(InvalidRealtimeStep) as caught:
        RealtimeStep(expect=predicate)
    assert caught.value.reason == "invalid_expect"


def test_callable_object_with_an_async_call_is_rejected() -> None:
    class Matcher:
        async def __call__(self, event: RealtimeModelSendEvent) -> bool:
            return True

    with pytest.raises(InvalidRealtimeStep) as caught:
        RealtimeStep(expect=Matcher())  # type: ignore[arg-type]
    assert caught.value.reason == "invalid_expect"


def test_predicates_with_optional_extra_parameters_are_accepted() -> None:
    def predicate(event: RealtimeModelSendEvent, *rest: Any, flag: bool = True) -> bool:
        return flag

    assert RealtimeStep(expect=predicate).expect is predicate


class NeedsArguments(Exception):
    def __init__(self, code: int, detail: str) -> None:
        super().__init__(code, detail)


class Interrupted(BaseException):
    pass


@pytest.mark.parametrize(
    "error",
    [
        pytest.param(NeedsArguments, id="class-needing-arguments"),
        pytest.param(KeyboardInterrupt, id="keyboard-interrupt-class"),
        pytest.param(SystemExit(1), id="system-exit"),
        pytest.param(asyncio.CancelledError(), id="cancelled"),
        pytest.param(GeneratorExit, id="generator-exit"),
        pytest.param(Interrupted(), id="base-exception-subclass"),
        pytest.param(StopIteration, id="stop-iteration"),
        pytest.param(StopAsyncIteration(), id="stop-async-iteration"),
        pytest.param(int, id="not-an-exception-class"),
    ],
)
def test_step_error_that_cannot_be_raised_from_a_send_is_rejected_when_built(error: Any) -> None:
    with pytest.raises(InvalidRealtimeStep) as caught:
        RealtimeStep(expect=RealtimeModelSendInterrupt, error=error)
    assert (caught.value.reason, caught.value.field) == ("invalid_error", "error")


@pytest.mark.parametrize("field", ["connect_error", "close_error"])
@pytest.mark.parametrize(
    "error",
    [
        pytest.param(NeedsArguments, id="class-needing-arguments"),
        pytest.param(asyncio.CancelledError, id="cancelled"),
        pytest.param(KeyboardInterrupt(), id="keyboard-interrupt"),
    ],
)
def test_lifecycle_error_that_cannot_be_raised_is_rejected_when_built(
    field: str, error: Any
) -> None:
    with pytest.raises(InvalidRealtimeStep) as caught:
        ScriptedRealtimeModel(**{field: error})
    assert (caught.value.reason, caught.value.field) == ("invalid_error", field)
    assert "NeedsArguments" in str(caught.value) or "not an Exception" in str(caught.value)


@pytest.mark.asyncio
async def test_exception_class_with_a_default_constructor_is_raised_as_a_fresh_instance() -> None:
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=RealtimeModelSendUserInput, error=ConnectionResetError)],
        close_error=BrokenPipeError,
    )

    session = await runner_for(model).run()
    await session.enter()
    with pytest.raises(ConnectionResetError):
        await session.send_message("Hello")
    with pytest.raises(BrokenPipeError):
        await session.close()
    model.assert_complete()


# -- predicates judged at call time ----------------------------------------------------


@pytest.mark.parametrize(
    "result",
    [
        pytest.param(1, id="one"),
        pytest.param("yes", id="string"),
        pytest.param(None, id="none"),
        pytest.param([True], id="list"),
    ],
)
@pytest.mark.asyncio
async def test_predicate_result_other_than_a_bool_is_a_structured_error(result: Any) -> None:
    model = ScriptedRealtimeModel([RealtimeStep(expect=lambda event: result)])

    with pytest.raises(InvalidRealtimeStep) as caught:
        await drive(model, "Hello")

    assert (caught.value.reason, caught.value.field) == ("invalid_expect", "expect")
    assert type(result).__name__ in str(caught.value)
    assert model.remaining_steps == 1
    assert model.sent_events == (RealtimeModelSendUserInput(user_input="Hello"),)


@pytest.mark.asyncio
async def test_predicate_returning_a_numpy_array_is_a_structured_error_not_value_error() -> None:
    numpy = pytest.importorskip("numpy")
    model = ScriptedRealtimeModel([RealtimeStep(expect=lambda event: numpy.array([True, False]))])

    with pytest.raises(InvalidRealtimeStep) as caught:
        await drive(model, "Hello")
    assert "ndarray" in str(caught.value)


@pytest.mark.asyncio
async def test_predicate_returning_a_numpy_bool_is_judged_by_its_value() -> None:
    numpy = pytest.importorskip("numpy")
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(expect=lambda event: numpy.bool_(False)),
        ],
        strict=False,
    )
    matching = ScriptedRealtimeModel(
        [RealtimeStep(expect=lambda event: numpy.bool_(True), emit=[REPLY])]
    )

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")
    assert model.remaining_steps == 1
    assert await drive(matching, "Hello") == [REPLY]


@pytest.mark.asyncio
async def test_builtin_predicate_that_cannot_take_the_event_fails_with_the_cause() -> None:
    # ``max`` has no inspectable signature, so its shape is only known when called.
    model = ScriptedRealtimeModel([RealtimeStep(expect=max)])  # type: ignore[arg-type]

    with pytest.raises(InvalidRealtimeStep) as caught:
        await drive(model, "Hello")

    assert (caught.value.reason, caught.value.field) == ("invalid_expect", "expect")
    assert isinstance(caught.value.__cause__, TypeError)
    assert model.remaining_steps == 1


@pytest.mark.asyncio
async def test_predicate_gets_a_copy_so_mutating_it_changes_nothing_recorded() -> None:
    message: Any = {"type": "message", "role": "user", "content": [{"type": "input_text"}]}
    seen: list[Any] = []

    def vandal(event: RealtimeModelSendEvent) -> bool:
        assert isinstance(event, RealtimeModelSendUserInput)
        seen.append(event)
        assert not isinstance(event.user_input, str)
        event.user_input["content"].clear()
        event.user_input = "rewritten by the matcher"
        return True

    model = ScriptedRealtimeModel([RealtimeStep(expect=vandal, emit=[REPLY])])
    async with await runner_for(model).run() as session:
        await session.send_message(message)

    assert message["content"] == [{"type": "input_text"}]
    (sent,) = model.sent_events
    assert isinstance(sent, RealtimeModelSendUserInput)
    assert sent.user_input == message
    assert seen[0] is not sent
    model.assert_complete()


@pytest.mark.asyncio
async def test_union_of_event_classes_matches_any_of_them() -> None:
    either_kind = RealtimeModelSendAudio | RealtimeModelSendUserInput
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=either_kind), RealtimeStep(expect=either_kind)]
    )

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")
        await session.send_audio(b"\x01")
        with pytest.raises(UnexpectedRealtimeSend):
            await model.send_event(RealtimeModelSendInterrupt())

    model.assert_complete()


def test_union_with_a_class_that_is_not_an_outgoing_event_is_rejected() -> None:
    with pytest.raises(InvalidRealtimeStep) as caught:
        RealtimeStep(expect=RealtimeModelSendAudio | int)
    assert caught.value.reason == "invalid_expect"
