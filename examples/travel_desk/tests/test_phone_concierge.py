"""The Realtime phone concierge, on a scripted Realtime model instead of a WebSocket.

Recipes: Realtime session (message), Realtime tool workflow (tool and handoff), a
dropped Realtime call (scripted connection faults).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import date

import pytest
from agents.realtime import (
    RealtimeHandoffEvent,
    RealtimeModelExceptionEvent,
    RealtimeModelSendEvent,
    RealtimeModelSendSessionUpdate,
    RealtimeModelSendToolOutput,
    RealtimeModelSendUserInput,
    RealtimeModelToolCallEvent,
    RealtimeModelTranscriptDeltaEvent,
    RealtimeModelTurnEndedEvent,
    RealtimeModelTurnStartedEvent,
    RealtimeRawModelEvent,
    RealtimeRunConfig,
    RealtimeSession,
    RealtimeSessionEvent,
    RealtimeToolEnd,
)
from agents.realtime.model_events import RealtimeModelEvent
from agents.realtime.testing import RealtimeFault, RealtimeStep
from travel_desk import Booking, TravelDeskContext, ask_concierge, phone_runner
from websockets.exceptions import ConnectionClosedError

from ._types import ScriptRealtime

# Calls are tested without uploading traces and with tool calls finished before the
# session goes on, so a call's outcome is decided by the time the session closes.
TEST_CALLS: RealtimeRunConfig = {"tracing_disabled": True, "async_tool_calls": False}


async def events_until(
    session: RealtimeSession, last: Callable[[RealtimeSessionEvent], bool]
) -> list[RealtimeSessionEvent]:
    """The session's events up to the first one ``last`` accepts.

    A session streams until it is closed, so a regression that never produces the
    awaited event would hang the test; the generous bound turns that into a failure.
    """

    async def collect() -> list[RealtimeSessionEvent]:
        seen: list[RealtimeSessionEvent] = []
        async for event in session:
            seen.append(event)
            if last(event):
                break
        return seen

    return await asyncio.wait_for(collect(), timeout=10)


def desk_with_booking() -> TravelDeskContext:
    context = TravelDeskContext()
    context.ledger.book(context.catalog.get("TD101"), "Ada Lovelace")
    return context


def tool_output_for(call_id: str, output: str) -> Callable[[RealtimeModelSendEvent], bool]:
    def matches(event: RealtimeModelSendEvent) -> bool:
        return (
            isinstance(event, RealtimeModelSendToolOutput)
            and event.tool_call.call_id == call_id
            and event.output == output
        )

    return matches


@pytest.mark.asyncio
async def test_the_concierge_passes_a_caller_message_on_and_streams_the_reply(
    scripted_realtime_model: ScriptRealtime,
) -> None:
    reply = RealtimeModelTranscriptDeltaEvent(
        item_id="item_1", delta="Travel desk, how can I help?", response_id="response_1"
    )
    model = scripted_realtime_model(
        [RealtimeStep(expect=RealtimeModelSendUserInput(user_input="Hello"), emit=[reply])]
    )
    runner = phone_runner(model, config=TEST_CALLS)

    def is_reply(event: RealtimeSessionEvent) -> bool:
        return isinstance(event, RealtimeRawModelEvent) and event.data == reply

    async with await runner.run(context=TravelDeskContext()) as session:
        await session.send_message("Hello")
        events = await events_until(session, is_reply)

    assert any(is_reply(event) for event in events)
    assert model.sent_events == (RealtimeModelSendUserInput(user_input="Hello"),)
    assert model.closed is True
    assert len(model.connect_calls) == 1


@pytest.mark.asyncio
async def test_the_concierge_reads_a_booking_with_its_tool(
    scripted_realtime_model: ScriptRealtime,
) -> None:
    context = desk_with_booking()
    booking = Booking(
        reference="BK0001",
        flight_number="TD101",
        passenger="Ada Lovelace",
        departure_date=date(2026, 12, 24),
    )
    lookup = RealtimeModelToolCallEvent(
        name="booking_status", call_id="call_1", arguments='{"reference": "BK0001"}'
    )
    model = scripted_realtime_model(
        [RealtimeStep(expect=tool_output_for("call_1", booking.model_dump_json()))],
        connect_events=[lookup],
    )

    async with await phone_runner(model, config=TEST_CALLS).run(context=context):
        pass

    assert model.closed is True


@pytest.mark.asyncio
async def test_a_caller_who_wants_to_cancel_is_transferred_and_can_cancel(
    scripted_realtime_model: ScriptRealtime,
) -> None:
    context = desk_with_booking()
    transfer = RealtimeModelToolCallEvent(
        name="transfer_to_cancellations", call_id="call_1", arguments="{}"
    )
    cancel = RealtimeModelToolCallEvent(
        name="cancel_booking", call_id="call_2", arguments='{"reference": "BK0001"}'
    )

    def cancellations_take_over(event: RealtimeModelSendEvent) -> bool:
        if not isinstance(event, RealtimeModelSendSessionUpdate):
            return False
        instructions = str(event.session_settings.get("instructions", ""))
        return instructions.startswith("Confirm the booking reference")

    model = scripted_realtime_model(
        [
            RealtimeStep(expect=cancellations_take_over),
            RealtimeStep(expect=RealtimeModelSendToolOutput, emit=[cancel]),
            RealtimeStep(
                expect=tool_output_for("call_2", "Cancelled BK0001 on TD101 for Ada Lovelace.")
            ),
        ],
        connect_events=[transfer],
    )

    def cancelled(event: RealtimeSessionEvent) -> bool:
        return isinstance(event, RealtimeToolEnd) and event.tool.name == "cancel_booking"

    async with await phone_runner(model, config=TEST_CALLS).run(context=context) as session:
        events = await events_until(session, cancelled)

    handoffs = [
        (event.from_agent.name, event.to_agent.name)
        for event in events
        if isinstance(event, RealtimeHandoffEvent)
    ]
    assert handoffs == [("Phone concierge", "Cancellations")]
    assert [type(event) for event in model.sent_events] == [
        RealtimeModelSendSessionUpdate,
        RealtimeModelSendToolOutput,
        RealtimeModelSendToolOutput,
    ]
    assert context.ledger.bookings == {}
    assert context.catalog.get("TD101").seats_left == 3


def spoken(*parts: str) -> list[RealtimeModelEvent]:
    """A reply the concierge speaks in ``parts``, framed as one turn."""
    deltas = [
        RealtimeModelTranscriptDeltaEvent(item_id="item_1", delta=part, response_id="response_1")
        for part in parts
    ]
    return [RealtimeModelTurnStartedEvent(), *deltas, RealtimeModelTurnEndedEvent()]


QUESTION = "Where is my booking BK0001?"
STATUS = RealtimeModelSendUserInput(user_input=QUESTION)


@pytest.mark.asyncio
async def test_a_call_dropped_mid_reply_is_redialled_and_the_caller_hears_the_whole_answer(
    scripted_realtime_model: ScriptRealtime,
) -> None:
    model = scripted_realtime_model(
        [
            # The line drops after the concierge's first words...
            RealtimeStep(
                expect=STATUS,
                emit=spoken("Booking BK0001 is", " confirmed for Ada Lovelace."),
                faults=[RealtimeFault.drop(after=2)],
            ),
            # ...so the desk dials again and asks once more.
            RealtimeStep(expect=STATUS, emit=spoken("BK0001: confirmed for Ada Lovelace.")),
        ]
    )

    reply = await ask_concierge(
        phone_runner(model, config=TEST_CALLS), QUESTION, context=desk_with_booking()
    )

    assert reply == "BK0001: confirmed for Ada Lovelace."
    assert len(model.connect_calls) == 2
    assert model.sent_events == (STATUS, STATUS)
    # What reached the first call before the line went, then the drop, then the redial.
    assert [(entry.source, entry.event.type) for entry in model.delivered_events] == [
        ("send", "turn_started"),
        ("send", "transcript_delta"),
        ("drop", "exception"),
        ("send", "turn_started"),
        ("send", "transcript_delta"),
        ("send", "turn_ended"),
    ]
    assert model.closed is True


@pytest.mark.asyncio
async def test_a_line_that_keeps_dropping_is_given_up_after_one_redial(
    scripted_realtime_model: ScriptRealtime,
) -> None:
    dropping = RealtimeStep(
        expect=STATUS, emit=spoken("Booking"), faults=[RealtimeFault.drop(after=1)]
    )
    model = scripted_realtime_model([dropping, dropping])

    with pytest.raises(ConnectionClosedError, match="no close frame received or sent"):
        await ask_concierge(
            phone_runner(model, config=TEST_CALLS), QUESTION, context=desk_with_booking()
        )

    drops = [entry.event for entry in model.delivered_events if entry.source == "drop"]
    assert len(drops) == 2
    assert all(isinstance(drop, RealtimeModelExceptionEvent) for drop in drops)
    assert len(model.connect_calls) == 2
