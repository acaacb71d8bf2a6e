"""``extra_checks=True``: the stricter checks a bare model leaves off, each shown on and off.

A bare ``ScriptedRealtimeModel`` accepts what the SDK's own scripted model accepts; with
``extra_checks=True`` (the ``scripted_realtime_model`` fixture's default) scripts that
would misbehave later are refused with an ``InvalidRealtimeStep`` naming the step.
"""

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
    RealtimeSession,
)

from agents_testing.realtime import (
    InvalidRealtimeStep,
    RealtimeStep,
    ScriptedRealtimeModel,
    UnexpectedRealtimeSend,
)

GUARD_SECONDS = 5
REPLY = RealtimeModelTranscriptDeltaEvent(item_id="item_1", delta="Hi!", response_id="resp_1")
HELLO = RealtimeModelSendUserInput(user_input="Hello")


def runner_for(model: ScriptedRealtimeModel) -> RealtimeRunner:
    config: RealtimeRunConfig = {"tracing_disabled": True}
    return RealtimeRunner(RealtimeAgent(name="Assistant"), model=model, config=config)


async def first_raw_event(session: RealtimeSession) -> Any:
    async def scan() -> Any:
        async for event in session:
            if isinstance(event, RealtimeRawModelEvent):
                return event.data
        raise AssertionError("the session ended without a raw model event")

    return await asyncio.wait_for(scan(), GUARD_SECONDS)


async def send_hello(model: ScriptedRealtimeModel) -> None:
    async with await runner_for(model).run() as session:
        await session.send_message("Hello")


def test_extra_checks_must_be_a_bool() -> None:
    with pytest.raises(InvalidRealtimeStep, match="extra_checks must be a bool") as caught:
        ScriptedRealtimeModel(extra_checks="yes")  # type: ignore[arg-type]
    assert (caught.value.reason, caught.value.field) == ("invalid_argument", "extra_checks")


# -- expectations ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "expect",
    [
        pytest.param("Hello", id="plain-string"),
        pytest.param({"type": "message"}, id="dict"),
        pytest.param(RealtimeModelToolCallEvent, id="incoming-event-class"),
        pytest.param(
            RealtimeModelToolCallEvent(name="x", call_id="c", arguments=""), id="incoming"
        ),
        pytest.param(RealtimeModelSendAudio | int, id="union-with-another-class"),
    ],
)
@pytest.mark.asyncio
async def test_an_expectation_no_send_can_meet_is_refused_with_extra_checks(expect: Any) -> None:
    with pytest.raises(InvalidRealtimeStep, match=r"in 'expect': step 2: ") as caught:
        ScriptedRealtimeModel(
            [RealtimeStep(expect=HELLO), RealtimeStep(expect=expect)], extra_checks=True
        )
    assert (caught.value.reason, caught.value.field) == ("invalid_expect", "expect")

    # A bare model takes it; the send then simply does not match.
    model = ScriptedRealtimeModel([RealtimeStep(expect=expect)])
    with pytest.raises(UnexpectedRealtimeSend):
        await send_hello(model)


def _two_arguments(event: Any, other: Any) -> bool:
    return True


async def _coroutine_predicate(event: RealtimeModelSendEvent) -> bool:
    return True


def _generator_predicate(event: RealtimeModelSendEvent) -> Any:
    yield True


class _AsyncMatcher:
    async def __call__(self, event: RealtimeModelSendEvent) -> bool:
        return True


@pytest.mark.parametrize(
    "expect",
    [
        pytest.param(list[int], id="parameterized-builtin"),
        pytest.param(tuple[RealtimeModelSendUserInput, ...], id="parameterized-tuple"),
        pytest.param(_two_arguments, id="two-arguments"),
        pytest.param(lambda: True, id="no-arguments"),
        pytest.param(lambda event, *, flag: True, id="required-keyword"),
        pytest.param(_coroutine_predicate, id="coroutine-function"),
        pytest.param(_generator_predicate, id="generator-function"),
        pytest.param(_AsyncMatcher(), id="async-call"),
    ],
)
def test_a_predicate_of_the_wrong_shape_is_refused_when_the_model_is_built(expect: Any) -> None:
    with pytest.raises(InvalidRealtimeStep, match=r"in 'expect': step 1: ") as caught:
        ScriptedRealtimeModel([RealtimeStep(expect=expect)], extra_checks=True)
    assert (caught.value.reason, caught.value.field) == ("invalid_expect", "expect")

    # The step itself and a bare model take it as given.
    step = RealtimeStep(expect=expect)
    assert ScriptedRealtimeModel([step]).pending_steps == (step,)


def test_predicates_with_optional_extra_parameters_pass_the_checks() -> None:
    def predicate(event: RealtimeModelSendEvent, *rest: Any, flag: bool = True) -> bool:
        return flag

    model = ScriptedRealtimeModel([RealtimeStep(expect=predicate)], extra_checks=True)
    assert model.pending_steps[0].expect is predicate


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
async def test_a_predicate_result_other_than_a_bool_is_refused_when_the_send_arrives(
    result: Any,
) -> None:
    model = ScriptedRealtimeModel([RealtimeStep(expect=lambda event: result)], extra_checks=True)

    with pytest.raises(InvalidRealtimeStep, match="the predicate returned a ") as caught:
        await send_hello(model)

    assert (caught.value.reason, caught.value.field) == ("invalid_expect", "expect")
    assert type(result).__name__ in str(caught.value)
    assert (model.remaining_steps, model.sent_events) == (1, ())


@pytest.mark.asyncio
async def test_a_predicate_returning_part_of_the_send_does_not_put_it_in_the_message() -> None:
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=lambda event: event.user_input)],  # type: ignore[arg-type,union-attr,return-value]
        extra_checks=True,
    )

    async with await runner_for(model).run():
        with pytest.raises(InvalidRealtimeStep) as caught:
            await model.send_event(RealtimeModelSendUserInput(user_input="my password is hunter2"))

    assert "hunter2" not in str(caught.value)
    assert "returned a str" in str(caught.value)


@pytest.mark.asyncio
async def test_an_awaitable_result_is_refused_with_extra_checks_and_truthy_when_bare() -> None:
    loop = asyncio.get_running_loop()
    pending: asyncio.Future[bool] = loop.create_future()

    checked = ScriptedRealtimeModel(
        [RealtimeStep(expect=lambda event: pending)],  # type: ignore[arg-type,return-value]
        extra_checks=True,
    )
    with pytest.raises(InvalidRealtimeStep, match="returned an awaitable"):
        await send_hello(checked)

    bare = ScriptedRealtimeModel([RealtimeStep(expect=lambda event: pending)])  # type: ignore[arg-type,return-value]
    await send_hello(bare)
    bare.assert_complete()


@pytest.mark.asyncio
async def test_a_numpy_array_result_is_our_error_with_extra_checks_and_numpys_when_bare() -> None:
    numpy = pytest.importorskip("numpy")

    def both(event: Any) -> Any:
        return numpy.array([True, False])

    with pytest.raises(InvalidRealtimeStep, match="ndarray"):
        await send_hello(ScriptedRealtimeModel([RealtimeStep(expect=both)], extra_checks=True))
    with pytest.raises(ValueError, match="ambiguous"):
        await send_hello(ScriptedRealtimeModel([RealtimeStep(expect=both)]))


@pytest.mark.parametrize("extra_checks", [False, True])
@pytest.mark.asyncio
async def test_a_numpy_bool_result_is_judged_by_its_value(extra_checks: bool) -> None:
    numpy = pytest.importorskip("numpy")
    rejecting = ScriptedRealtimeModel(
        [RealtimeStep(expect=lambda event: numpy.bool_(False))],
        strict=False,
        extra_checks=extra_checks,
    )
    matching = ScriptedRealtimeModel(
        [RealtimeStep(expect=lambda event: numpy.bool_(True), emit=[REPLY])],
        extra_checks=extra_checks,
    )

    await send_hello(rejecting)
    assert rejecting.remaining_steps == 1
    async with await runner_for(matching).run() as session:
        await session.send_message("Hello")
        assert await first_raw_event(session) == REPLY
    matching.assert_complete()


@pytest.mark.asyncio
async def test_a_builtin_that_cannot_take_the_event_is_our_error_with_extra_checks() -> None:
    # ``max`` has no inspectable signature, so its shape is only known when called.
    checked = ScriptedRealtimeModel([RealtimeStep(expect=max)], extra_checks=True)  # type: ignore[arg-type]
    with pytest.raises(InvalidRealtimeStep, match="calling the predicate max") as caught:
        await send_hello(checked)
    assert isinstance(caught.value.__cause__, TypeError)
    assert checked.remaining_steps == 1

    bare = ScriptedRealtimeModel([RealtimeStep(expect=max)])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        await send_hello(bare)
    assert bare.remaining_steps == 1


@pytest.mark.asyncio
async def test_a_predicates_own_type_error_propagates_with_extra_checks() -> None:
    def broken(event: Any) -> bool:
        raise TypeError("bug in the predicate")

    model = ScriptedRealtimeModel([RealtimeStep(expect=broken)], extra_checks=True)
    with pytest.raises(TypeError, match="bug in the predicate"):
        await send_hello(model)


@pytest.mark.asyncio
async def test_values_that_cannot_be_compared_are_a_mismatch_with_extra_checks() -> None:
    class Incomparable:
        def __eq__(self, other: object) -> bool:
            raise LookupError("cannot compare")

        __hash__ = object.__hash__

    expected = RealtimeModelSendUserInput(user_input={"k": Incomparable()})  # type: ignore[arg-type]
    model = ScriptedRealtimeModel([RealtimeStep(expect=expected)], extra_checks=True)

    async with await runner_for(model).run():
        with pytest.raises(UnexpectedRealtimeSend):
            await model.send_event(RealtimeModelSendUserInput(user_input={"k": Incomparable()}))  # type: ignore[arg-type]


# -- events ----------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_an_emitted_item_that_is_not_an_incoming_event_is_refused_with_its_index() -> None:
    outgoing = RealtimeModelSendInterrupt()
    step = RealtimeStep(expect=HELLO, emit=[REPLY, REPLY, outgoing])  # type: ignore[list-item]

    with pytest.raises(
        InvalidRealtimeStep, match=r"step 1: item 3 is a RealtimeModelSendInterrupt"
    ) as caught:
        ScriptedRealtimeModel([step], extra_checks=True)
    error = caught.value
    assert (error.reason, error.input_index, error.field) == ("invalid_event", 2, "emit")

    # A bare model hands it to the listeners like any other event.
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO, emit=[outgoing])])  # type: ignore[list-item]
    received: list[Any] = []

    class Recorder:
        async def on_event(self, event: Any) -> None:
            received.append(event)

    model.add_listener(Recorder())  # type: ignore[arg-type]
    await model.connect({})
    await model.send_event(HELLO)
    assert received == [outgoing]


def _looped() -> dict[str, Any]:
    looped: dict[str, Any] = {"type": "custom.event"}
    looped["self"] = looped
    return looped


@pytest.mark.asyncio
async def test_an_event_that_contains_itself_reaches_the_session_bare_and_is_refused_checked() -> (
    None
):
    """As the SDK's own double, a bare model delivers an emitted event whose data refers
    back to itself (copied with its cycle); with ``extra_checks`` it is refused where it was
    scripted, naming the cycle, and never ends in ``RecursionError``."""
    from agents.realtime.model_events import RealtimeModelRawServerEvent

    def step() -> RealtimeStep:
        return RealtimeStep(expect=HELLO, emit=[RealtimeModelRawServerEvent(data=_looped())])

    with pytest.raises(InvalidRealtimeStep) as caught:
        ScriptedRealtimeModel([step()], extra_checks=True)
    error = caught.value
    assert (error.reason, error.input_index, error.field) == ("invalid_event", 0, "emit")
    assert str(error) == (
        "Invalid realtime script (invalid_event) in 'emit': step 1: item 1.data['self'] "
        "refers back to item 1.data, so the value contains itself (a cycle); the session "
        "hands events on as data, so script a tree"
    )
    with pytest.raises(InvalidRealtimeStep, match=r"in 'connect_events': item 1\.data\['self'\]"):
        ScriptedRealtimeModel(
            connect_events=[RealtimeModelRawServerEvent(data=_looped())], extra_checks=True
        )

    model = ScriptedRealtimeModel([step()])
    async with await runner_for(model).run() as session:
        await session.send_message("Hello")
        raw = await first_raw_event(session)
    assert isinstance(raw, RealtimeModelRawServerEvent)
    assert raw.data["type"] == "custom.event"
    assert raw.data["self"] is raw.data
    model.assert_complete()


def test_an_any_order_member_is_checked_and_named_too() -> None:
    from agents_testing.realtime import any_order

    with pytest.raises(InvalidRealtimeStep, match=r"step 1, any_order\(\) member 2: "):
        ScriptedRealtimeModel(
            [any_order(RealtimeStep(expect=HELLO), RealtimeStep(expect="Hello"))],  # type: ignore[arg-type]
            extra_checks=True,
        )


@pytest.mark.asyncio
async def test_emit_refuses_an_outgoing_event_with_extra_checks_and_delivers_it_bare() -> None:
    checked = ScriptedRealtimeModel(extra_checks=True)
    bare = ScriptedRealtimeModel()
    received: list[Any] = []

    class Recorder:
        async def on_event(self, event: Any) -> None:
            received.append(event)

    for model in (checked, bare):
        model.add_listener(Recorder())  # type: ignore[arg-type]
        await model.connect({})
    with pytest.raises(InvalidRealtimeStep) as caught:
        await checked.emit(REPLY, HELLO)  # type: ignore[arg-type]
    assert (caught.value.reason, caught.value.input_index, caught.value.field) == (
        "invalid_event",
        1,
        "emit",
    )
    assert received == []

    await bare.emit(REPLY, HELLO)  # type: ignore[arg-type]
    assert received == [REPLY, HELLO]


# -- errors and arguments -----------------------------------------------------------------


class NeedsArguments(Exception):
    def __init__(self, code: int, detail: str) -> None:
        super().__init__(code, detail)


class Interrupted(BaseException):
    pass


UNRAISABLE = [
    pytest.param(NeedsArguments, id="class-needing-arguments"),
    pytest.param(KeyboardInterrupt, id="keyboard-interrupt-class"),
    pytest.param(SystemExit(1), id="system-exit"),
    pytest.param(asyncio.CancelledError(), id="cancelled"),
    pytest.param(GeneratorExit, id="generator-exit"),
    pytest.param(Interrupted(), id="base-exception-subclass"),
    pytest.param(StopIteration, id="stop-iteration"),
    pytest.param(StopAsyncIteration(), id="stop-async-iteration"),
    pytest.param(int, id="not-an-exception-class"),
    pytest.param("boom", id="string"),
]


@pytest.mark.parametrize("error", UNRAISABLE)
def test_a_step_error_that_cannot_be_raised_through_a_session_is_refused(error: Any) -> None:
    step = RealtimeStep(expect=RealtimeModelSendInterrupt, error=error)

    with pytest.raises(InvalidRealtimeStep, match=r"in 'error': step 1: ") as caught:
        ScriptedRealtimeModel([step], extra_checks=True)
    assert (caught.value.reason, caught.value.field) == ("invalid_error", "error")

    assert ScriptedRealtimeModel([step]).pending_steps == (step,)


@pytest.mark.parametrize("field", ["connect_error", "close_error"])
@pytest.mark.parametrize(
    "error",
    [
        pytest.param(NeedsArguments, id="class-needing-arguments"),
        pytest.param(asyncio.CancelledError, id="cancelled"),
        pytest.param(KeyboardInterrupt(), id="keyboard-interrupt"),
        pytest.param("refused", id="string"),
    ],
)
def test_a_lifecycle_error_that_cannot_be_raised_is_refused(field: str, error: Any) -> None:
    with pytest.raises(InvalidRealtimeStep) as caught:
        ScriptedRealtimeModel(**{field: error}, extra_checks=True)
    assert (caught.value.reason, caught.value.field) == ("invalid_error", field)

    assert ScriptedRealtimeModel(**{field: error}).remaining_steps == 0


@pytest.mark.asyncio
async def test_a_bare_model_raises_a_base_exception_scripted_as_a_step_error() -> None:
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO, error=Interrupted("stop"))])

    await model.connect({})
    with pytest.raises(Interrupted, match="stop"):
        await asyncio.wait_for(model.send_event(HELLO), GUARD_SECONDS)
    model.assert_complete()


@pytest.mark.parametrize("strict", [0, 1, "yes", None, [True]])
def test_a_strict_that_is_not_a_bool_is_refused_naming_the_argument(strict: Any) -> None:
    with pytest.raises(InvalidRealtimeStep, match="strict must be a bool") as caught:
        ScriptedRealtimeModel(strict=strict, extra_checks=True)
    assert (caught.value.reason, caught.value.field) == ("invalid_argument", "strict")
    assert type(strict).__name__ in str(caught.value)


@pytest.mark.asyncio
async def test_a_bare_model_takes_a_strict_that_is_not_a_bool_by_its_truth_value() -> None:
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO)], strict=0)  # type: ignore[arg-type]

    async with await runner_for(model).run() as session:
        await session.interrupt()
        await session.send_message("Hello")

    assert model.sent_events == (RealtimeModelSendInterrupt(), HELLO)
    model.assert_complete()


def test_connect_events_that_are_not_incoming_events_are_refused() -> None:
    with pytest.raises(InvalidRealtimeStep) as caught:
        ScriptedRealtimeModel(connect_events=[RealtimeModelSendInterrupt()], extra_checks=True)  # type: ignore[list-item]
    assert (caught.value.reason, caught.value.field) == ("invalid_event", "connect_events")

    assert ScriptedRealtimeModel(connect_events=[RealtimeModelSendInterrupt()]).connected is False  # type: ignore[list-item]
