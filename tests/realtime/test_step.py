"""RealtimeStep: the three kinds of expectation and the checks made at construction."""

from __future__ import annotations

import asyncio
import pickle
from typing import Any

import pytest
from agents.realtime import (
    RealtimeAgent,
    RealtimeModelSendAudio,
    RealtimeModelSendEvent,
    RealtimeModelSendInterrupt,
    RealtimeModelSendUserInput,
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
HELLO = RealtimeModelSendUserInput(user_input="Hello")


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


# -- construction ----------------------------------------------------------------------


def test_step_with_both_emit_and_error_is_a_value_error_before_anything_else() -> None:
    """Shows RT-4."""
    with pytest.raises(ValueError, match="both emit events and an error") as caught:
        RealtimeStep(expect=RealtimeModelSendInterrupt, emit=[REPLY], error=RuntimeError("x"))

    error = caught.value
    assert isinstance(error, InvalidRealtimeStep)
    assert isinstance(error, InvalidStepError)
    assert isinstance(error, RealtimeScriptError)
    assert (error.reason, error.input_index, error.field) == ("conflicting_outcomes", 0, "emit")
    assert str(error) == (
        "A RealtimeStep cannot define both emit events and an error. Split it into two "
        "steps or drop one outcome."
    )


def test_step_with_an_error_and_no_events_is_accepted() -> None:
    step = RealtimeStep(expect=RealtimeModelSendInterrupt, emit=[], error=RuntimeError("x"))
    assert step.emit == ()
    assert isinstance(step.error, RuntimeError)


@pytest.mark.parametrize(
    "emit",
    [
        pytest.param(REPLY, id="single-event"),
        pytest.param("events", id="string"),
        pytest.param({"type": "transcript_delta"}, id="mapping"),
        pytest.param(42, id="int"),
    ],
)
def test_emit_that_is_not_a_sequence_of_events_is_rejected(emit: Any) -> None:
    with pytest.raises(InvalidRealtimeStep) as caught:
        RealtimeStep(expect=RealtimeModelSendInterrupt, emit=emit)
    assert (caught.value.reason, caught.value.field) == ("invalid_event", "emit")
    assert type(emit).__name__ in str(caught.value)


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


# -- steps are values -----------------------------------------------------------------


def test_steps_built_alike_compare_equal_and_hash_alike() -> None:
    failure = ConnectionResetError("dropped")

    def matcher(event: RealtimeModelSendEvent) -> bool:
        return True

    pairs = [
        (RealtimeStep(expect=HELLO, emit=[REPLY]), RealtimeStep(expect=HELLO, emit=(REPLY,))),
        (RealtimeStep(expect=RealtimeModelSendAudio), RealtimeStep(expect=RealtimeModelSendAudio)),
        (RealtimeStep(expect=matcher, error=failure), RealtimeStep(expect=matcher, error=failure)),
    ]
    for first, second in pairs:
        assert first == second
        assert first is not second
        assert hash(first) == hash(second)
    assert len({*pairs[0]}) == 1


@pytest.mark.parametrize(
    "other",
    [
        pytest.param(
            RealtimeStep(expect=RealtimeModelSendUserInput(user_input="Bye")), id="expect"
        ),
        pytest.param(RealtimeStep(expect=HELLO, emit=[REPLY, REPLY]), id="emit"),
        pytest.param(RealtimeStep(expect=HELLO, error=RuntimeError("x")), id="error"),
        pytest.param(RealtimeStep(expect=RealtimeModelSendUserInput), id="class-not-value"),
    ],
)
def test_steps_that_differ_in_any_part_are_not_equal(other: RealtimeStep) -> None:
    assert RealtimeStep(expect=HELLO, emit=[REPLY]) != other
    assert RealtimeStep(expect=HELLO, emit=[REPLY]) != "a step"


def test_a_model_holds_the_steps_it_was_given_and_compares_them_by_value() -> None:
    step = RealtimeStep(expect=HELLO, emit=[REPLY])
    model = ScriptedRealtimeModel([step])

    assert model.pending_steps[0] is step
    assert model.pending_steps == (RealtimeStep(expect=HELLO, emit=[REPLY]),)


def test_a_step_survives_pickling_as_an_equal_step() -> None:
    step = RealtimeStep(expect=HELLO, emit=[REPLY])
    assert pickle.loads(pickle.dumps(step)) == step


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


# -- predicates ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("result", "matched"),
    [
        pytest.param(1, True, id="one"),
        pytest.param("yes", True, id="string"),
        pytest.param(None, False, id="none"),
        pytest.param([], False, id="empty-list"),
    ],
)
@pytest.mark.asyncio
async def test_a_predicate_result_counts_by_its_truth_value(result: Any, matched: bool) -> None:
    model = ScriptedRealtimeModel([RealtimeStep(expect=lambda event: result)], strict=False)

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")

    assert model.remaining_steps == (0 if matched else 1)
    assert model.sent_events == (HELLO,)


@pytest.mark.asyncio
async def test_an_exception_from_comparing_values_propagates_from_the_send() -> None:
    class Incomparable:
        def __eq__(self, other: object) -> bool:
            raise LookupError("cannot compare")

        __hash__ = object.__hash__

    expected = RealtimeModelSendUserInput(user_input={"k": Incomparable()})  # type: ignore[arg-type]
    model = ScriptedRealtimeModel([RealtimeStep(expect=expected)])

    async with await runner_for(model).run():
        with pytest.raises(LookupError, match="cannot compare"):
            await model.send_event(RealtimeModelSendUserInput(user_input={"k": Incomparable()}))  # type: ignore[arg-type]

    assert (model.sent_events, model.remaining_steps) == ((), 1)


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
