"""The Realtime phone concierge, on a scripted Realtime model instead of a WebSocket.

Recipes: Realtime session (message), Realtime tool workflow (tool and handoff).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

import pytest
from agents.realtime import (
    RealtimeHandoffEvent,
    RealtimeModelSendEvent,
    RealtimeModelSendSessionUpdate,
    RealtimeModelSendToolOutput,
    RealtimeModelSendUserInput,
    RealtimeModelToolCallEvent,
    RealtimeModelTranscriptDeltaEvent,
    RealtimeRawModelEvent,
    RealtimeRunConfig,
    RealtimeToolEnd,
)
from agents.realtime.testing import RealtimeStep, ScriptedRealtimeModel
from travel_desk import Booking, TravelDeskContext, phone_runner

ScriptRealtime = Callable[..., ScriptedRealtimeModel]

# Calls are tested without uploading traces and with tool calls finished before the
# session goes on, so a call's outcome is decided by the time the session closes.
TEST_CALLS: RealtimeRunConfig = {"tracing_disabled": True, "async_tool_calls": False}


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

    observed_reply = False
    async with await runner.run(context=TravelDeskContext()) as session:
        await session.send_message("Hello")
        async for event in session:
            if isinstance(event, RealtimeRawModelEvent) and event.data == reply:
                observed_reply = True
                break

    assert observed_reply
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

    handoffs: list[tuple[str, str]] = []
    async with await phone_runner(model, config=TEST_CALLS).run(context=context) as session:
        async for event in session:
            if isinstance(event, RealtimeHandoffEvent):
                handoffs.append((event.from_agent.name, event.to_agent.name))
            if isinstance(event, RealtimeToolEnd) and event.tool.name == "cancel_booking":
                break

    assert handoffs == [("Phone concierge", "Cancellations")]
    assert [type(event) for event in model.sent_events] == [
        RealtimeModelSendSessionUpdate,
        RealtimeModelSendToolOutput,
        RealtimeModelSendToolOutput,
    ]
    assert context.ledger.bookings == {}
    assert context.catalog.get("TD101").seats_left == 3
