"""Scripted incoming events: with ``extra_checks=True`` their field types are checked against
the SDK's annotations when the model is built (and by ``emit()``); a bare model takes them
as they are."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from agents.realtime import (
    RealtimeAgent,
    RealtimeModelSendInterrupt,
    RealtimeModelSendUserInput,
    RealtimeModelToolCallEvent,
    RealtimeModelTranscriptDeltaEvent,
    RealtimeRawModelEvent,
    RealtimeRunConfig,
    RealtimeRunner,
)

from agents_testing.core import compat
from agents_testing.realtime import InvalidRealtimeStep, RealtimeStep, ScriptedRealtimeModel

REPLY = RealtimeModelTranscriptDeltaEvent(item_id="item_1", delta="Hi!", response_id="resp_1")
HELLO = RealtimeModelSendUserInput(user_input="Hello")


def runner_for(model: ScriptedRealtimeModel) -> RealtimeRunner:
    config: RealtimeRunConfig = {"tracing_disabled": True}
    return RealtimeRunner(RealtimeAgent(name="Assistant"), model=model, config=config)


@pytest.mark.parametrize(
    ("event", "event_field"),
    [
        pytest.param(
            RealtimeModelTranscriptDeltaEvent(item_id="i", delta=[1], response_id="r"),  # type: ignore[arg-type]
            "delta",
            id="list-delta",
        ),
        pytest.param(
            RealtimeModelTranscriptDeltaEvent(item_id=True, delta="x", response_id="r"),  # type: ignore[arg-type]
            "item_id",
            id="bool-item-id",
        ),
        pytest.param(
            RealtimeModelToolCallEvent(name="t", call_id="c", arguments={"a": 1}),  # type: ignore[arg-type]
            "arguments",
            id="dict-arguments",
        ),
        pytest.param(
            RealtimeModelToolCallEvent(name="t", call_id="c", arguments="{}", id=5),  # type: ignore[arg-type]
            "id",
            id="int-optional-id",
        ),
        pytest.param(
            RealtimeModelTranscriptDeltaEvent(
                item_id="i",
                delta="x",
                response_id="r",
                type="audio",  # type: ignore[arg-type]
            ),
            "type",
            id="wrong-type-tag",
        ),
    ],
)
def test_event_with_a_field_of_the_wrong_type_is_rejected_naming_the_field(
    event: Any, event_field: str
) -> None:
    steps = [
        RealtimeStep(expect=HELLO),
        RealtimeStep(expect=RealtimeModelSendInterrupt, emit=[REPLY, event]),
    ]
    with pytest.raises(InvalidRealtimeStep, match=r"in 'emit': step 2: item 2 \(") as caught:
        ScriptedRealtimeModel(steps, extra_checks=True)

    error = caught.value
    assert (error.reason, error.field, error.input_index) == ("invalid_event", "emit", 1)
    assert error.event_field == event_field
    assert repr(event_field) in str(error)
    # The values themselves stay out of the message.
    assert repr(getattr(event, event_field)) not in str(error)


@pytest.mark.asyncio
async def test_a_bare_model_emits_events_as_they_are_like_the_builtin() -> None:
    from agents.realtime.model_events import RealtimeModelItemDeletedEvent

    odd = RealtimeModelItemDeletedEvent(item_id=5)  # type: ignore[arg-type]
    model = ScriptedRealtimeModel([RealtimeStep(expect=RealtimeModelSendInterrupt, emit=[odd])])
    received: list[Any] = []

    async with await runner_for(model).run() as session:
        await session.interrupt()

        async def scan() -> None:
            async for event in session:
                if isinstance(event, RealtimeRawModelEvent):
                    received.append(event.data)
                    return

        await asyncio.wait_for(scan(), 10)

    assert received == [odd]
    model.assert_complete()


def test_connect_events_and_emit_check_field_types_too() -> None:
    bad = RealtimeModelTranscriptDeltaEvent(item_id="i", delta=b"x", response_id="r")  # type: ignore[arg-type]

    with pytest.raises(InvalidRealtimeStep) as caught:
        ScriptedRealtimeModel(connect_events=[bad], extra_checks=True)
    assert (caught.value.field, caught.value.event_field) == ("connect_events", "delta")
    assert ScriptedRealtimeModel(connect_events=[bad]).remaining_steps == 0


@pytest.mark.asyncio
async def test_emit_checks_every_event_before_delivering_any() -> None:
    model = ScriptedRealtimeModel(extra_checks=True)
    bad = RealtimeModelTranscriptDeltaEvent(item_id="i", delta=None, response_id="r")  # type: ignore[arg-type]
    received: list[Any] = []

    async with await runner_for(model).run() as session:
        with pytest.raises(InvalidRealtimeStep) as caught:
            await model.emit(REPLY, bad)
        await model.emit(REPLY)

        async def scan() -> None:
            async for event in session:
                if isinstance(event, RealtimeRawModelEvent):
                    received.append(event.data)
                    return

        await asyncio.wait_for(scan(), 10)

    assert (caught.value.input_index, caught.value.event_field) == (1, "delta")
    assert received == [REPLY]


def test_item_event_holding_a_plain_dict_is_rejected() -> None:
    from agents.realtime.model_events import RealtimeModelItemUpdatedEvent

    event = RealtimeModelItemUpdatedEvent(item={"type": "message"})  # type: ignore[arg-type]
    with pytest.raises(InvalidRealtimeStep) as caught:
        ScriptedRealtimeModel(connect_events=[event], extra_checks=True)
    assert caught.value.event_field == "item"
    assert "UserMessageItem" in str(caught.value)


@pytest.mark.skipif(not compat.sdk_at_least(0, 24), reason="written against the 0.24 usage event")
def test_usage_event_with_a_mistyped_nested_count_is_rejected() -> None:
    from agents.realtime.model_events import RealtimeModelUsageEvent
    from agents.usage import Usage

    usage = Usage(requests=1, input_tokens=2)
    usage.input_tokens = [1]  # type: ignore[assignment]
    step = RealtimeStep(
        expect=RealtimeModelSendInterrupt, emit=[RealtimeModelUsageEvent(usage=usage)]
    )
    with pytest.raises(InvalidRealtimeStep) as caught:
        ScriptedRealtimeModel([step], extra_checks=True)
    assert caught.value.event_field == "usage.input_tokens"


@pytest.mark.asyncio
async def test_well_typed_events_of_every_kind_pass_and_reach_the_session() -> None:
    from agents.realtime.items import InputText, UserMessageItem
    from agents.realtime.model_events import (
        RealtimeModelAudioDoneEvent,
        RealtimeModelAudioEvent,
        RealtimeModelConnectionStatusEvent,
        RealtimeModelErrorEvent,
        RealtimeModelInputAudioTimeoutTriggeredEvent,
        RealtimeModelItemUpdatedEvent,
        RealtimeModelOtherEvent,
        RealtimeModelRawServerEvent,
        RealtimeModelTurnStartedEvent,
    )

    events: list[Any] = [
        RealtimeModelConnectionStatusEvent(status="connected"),
        RealtimeModelTurnStartedEvent(),
        RealtimeModelAudioEvent(data=b"\x00", response_id="r", item_id="i", content_index=0),
        RealtimeModelAudioDoneEvent(item_id="i", content_index=0),
        RealtimeModelInputAudioTimeoutTriggeredEvent(item_id="i", audio_start_ms=0, audio_end_ms=5),
        RealtimeModelItemUpdatedEvent(
            item=UserMessageItem(item_id="u1", content=[InputText(text="Hi")])
        ),
        RealtimeModelErrorEvent(error={"message": "server hiccup"}),
        RealtimeModelOtherEvent(data=object()),
        RealtimeModelRawServerEvent(data={"type": "session.updated"}),
    ]
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=RealtimeModelSendInterrupt, emit=events)], extra_checks=True
    )

    seen: list[Any] = []
    async with await runner_for(model).run() as session:
        await session.interrupt()

        async def scan() -> None:
            async for event in session:
                if isinstance(event, RealtimeRawModelEvent):
                    seen.append(event.data)
                    if len(seen) == len(events):
                        return

        await asyncio.wait_for(scan(), 10)

    assert [type(event) for event in seen] == [type(event) for event in events]
    model.assert_complete()
