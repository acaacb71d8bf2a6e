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
        step.emit = ()
    assert "RealtimeModelSendInterrupt" in repr(step)
    assert "Hi!" in repr(step)


def test_model_given_a_single_step_instead_of_a_sequence_says_so() -> None:
    step = RealtimeStep(expect=RealtimeModelSendInterrupt)
    with pytest.raises(InvalidRealtimeStep) as caught:
        ScriptedRealtimeModel(step)  # type: ignore[arg-type]
    assert (caught.value.reason, caught.value.field) == ("invalid_input", "steps")
    assert "sequence of RealtimeStep" in str(caught.value)
