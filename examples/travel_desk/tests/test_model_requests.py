"""What the desk sends to its model, and replies derived from that request.

Recipes: request-aware responder, inspecting model calls.
"""

from __future__ import annotations

import json
from datetime import date

import pytest
from agents import ModelSettings
from agents.items import TResponseOutputItem
from agents.testing import (
    ModelCall,
    ModelStep,
    assistant_message,
    function_call,
)
from travel_desk import RETRY, Flight, FlightCatalog, TravelDeskContext

from ._types import OpenDesk, ScriptModel


def book_first_flight_with_seats(call: ModelCall) -> list[TResponseOutputItem]:
    """Book whatever the search in this request found with seats left, like a model would."""
    last = call.input[-1]
    assert isinstance(last, dict)
    assert last["type"] == "function_call_output"
    flights = json.loads(str(last["output"]))
    chosen = next(flight for flight in flights if flight["seats_left"] > 0)
    return [
        function_call(
            "book_flight",
            {"flight_number": chosen["number"], "passenger": "Grace Hopper"},
            call_id="book",
        )
    ]


@pytest.mark.asyncio
async def test_the_first_request_carries_only_the_customer_message(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    def respond(call: ModelCall) -> list[TResponseOutputItem]:
        assert call.streamed is False
        assert call.input == [{"content": "Summarize my options", "role": "user"}]
        return [assistant_message("Handled the normalized request.")]

    model = scripted_model([ModelStep.respond(respond)])
    desk = open_desk(model)

    result = await desk.ask("Summarize my options")

    assert result.final_output == "Handled the normalized request."


@pytest.mark.asyncio
async def test_the_booking_agent_books_the_flight_its_search_found_with_seats(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    day = date(2026, 12, 26)
    catalog = FlightCatalog.of(
        Flight(number="TD300", origin="CDG", destination="JFK", departure_date=day, seats_left=0),
        Flight(number="TD310", origin="CDG", destination="JFK", departure_date=day, seats_left=9),
    )
    model = scripted_model(
        [
            [function_call("transfer_to_booking_agent", {}, call_id="handoff")],
            [
                function_call(
                    "search_flights",
                    {"origin": "cdg", "destination": "jfk", "departure_date": "2026-12-26"},
                    call_id="search",
                )
            ],
            ModelStep.respond(book_first_flight_with_seats),
            [assistant_message('{"message": "Booked.", "booking": null}')],
        ]
    )
    desk = open_desk(model, context=TravelDeskContext(catalog=catalog))

    await desk.ask("Get Grace Hopper from Paris to New York on the 26th")

    # The sold-out TD300 came first in the search; the responder skipped it.
    [booking] = desk.context.ledger.bookings.values()
    assert (booking.flight_number, booking.passenger) == ("TD310", "Grace Hopper")


@pytest.mark.asyncio
async def test_triage_offers_both_handoffs_and_the_desk_retry_policy(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    model = scripted_model(
        [
            [function_call("transfer_to_booking_agent", {}, call_id="handoff")],
            [assistant_message('{"message": "Where to?", "booking": null}')],
        ]
    )
    desk = open_desk(model)

    await desk.ask("I want to fly somewhere warm")

    triage, booking = model.calls
    assert model.first_call is triage
    assert model.last_call is booking
    assert [handoff.tool_name for handoff in triage.handoffs] == [
        "transfer_to_booking_agent",
        "transfer_to_support_agent",
    ]
    assert list(triage.tools) == []
    assert triage.output_schema is None
    assert triage.system_instructions is not None
    assert "Hand new trips to the booking agent" in triage.system_instructions
    assert isinstance(triage.model_settings, ModelSettings)
    assert triage.model_settings.retry == RETRY
    # After the handoff the booking agent's tools and structured output are offered.
    assert [tool.name for tool in booking.tools] == ["search_flights", "book_flight"]
    assert booking.output_schema is not None
    assert booking.output_schema.name() == "BookingReply"
    assert list(booking.handoffs) == []


@pytest.mark.asyncio
async def test_recorded_requests_are_snapshots_that_later_edits_cannot_change(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    model = scripted_model(
        [[assistant_message("Hello!")], [assistant_message("Still here.")]],
    )
    desk = open_desk(model)
    await desk.ask("Hi")

    first_input = model.calls[0].input
    assert isinstance(first_input, list)
    first_input.clear()
    await desk.ask("Are you there?")

    assert model.calls[0].input == [{"content": "Hi", "role": "user"}]
    assert len(model.calls[1].input) == 3
    assert model.remaining_steps == 0
