"""The chat desk end to end: fixed replies, the tool loop, handoffs, guardrail and memory.

Recipes: fixed response, tool workflow.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from agents import InputGuardrailTripwireTriggered, RunConfig
from agents.testing import (
    ModelCall,
    assistant_message,
    final_output,
    function_call,
    handoff_call,
)
from travel_desk import (
    Booking,
    BookingReply,
    TravelDesk,
    TravelDeskContext,
    booking_agent,
    support_agent,
)

from ._types import OpenDesk, ScriptModel


def outputs_of(call: ModelCall | None) -> list[str]:
    """The tool outputs in a model call's input, in order."""
    assert call is not None
    return [str(output) for output in call.tool_outputs().values()]


@pytest.mark.asyncio
async def test_triage_answers_small_talk_itself(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    model = scripted_model([[assistant_message("Hello! Where would you like to fly?")]])
    desk = open_desk(model)

    result = await desk.ask("Hi there")

    assert result.final_output == "Hello! Where would you like to fly?"
    assert result.last_agent.name == "Triage agent"
    assert len(model.calls) == 1


@pytest.mark.asyncio
async def test_booking_hands_off_searches_books_and_returns_a_structured_reply(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    booked = Booking(
        reference="BK0001",
        flight_number="TD101",
        passenger="Ada Lovelace",
        departure_date=date(2026, 12, 24),
    )
    model = scripted_model(
        [
            [handoff_call(booking_agent())],
            [
                function_call(
                    "search_flights",
                    {"origin": "LHR", "destination": "NRT", "departure_date": "2026-12-24"},
                )
            ],
            [function_call("book_flight", {"flight_number": "TD101", "passenger": "Ada Lovelace"})],
            [final_output(BookingReply(message="You are on TD101.", booking=booked))],
        ]
    )
    desk = open_desk(model)

    result = await desk.ask("Book Ada Lovelace from London to Tokyo on Christmas Eve")

    assert result.last_agent.name == "Booking agent"
    assert result.final_output == BookingReply(message="You are on TD101.", booking=booked)
    # The real tools ran between the model turns and changed the desk's state.
    assert desk.context.ledger.bookings == {"BK0001": booked}
    assert desk.context.catalog.get("TD101").seats_left == 2
    search_results = outputs_of(model.calls[2])[-1]
    assert '"number":"TD101"' in search_results
    assert '"number":"TD205"' in search_results
    assert outputs_of(model.calls[3])[-1] == booked.model_dump_json()


@pytest.mark.asyncio
async def test_a_refused_cancellation_is_explained_to_the_model_not_raised(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    model = scripted_model(
        [
            [handoff_call(support_agent())],
            [function_call("cancel_booking", {"reference": "BK9999"})],
            [assistant_message("I could not find booking BK9999. Could you check it?")],
        ]
    )
    desk = open_desk(model)

    result = await desk.ask("Cancel BK9999 please")

    assert result.final_output == "I could not find booking BK9999. Could you check it?"
    assert model.last_call is not None
    assert outputs_of(model.last_call)[-1] == (
        "The booking system refused: There is no booking with reference BK9999."
    )


@pytest.mark.asyncio
async def test_a_card_number_in_the_chat_never_reaches_a_model(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    # No step at all: any model call would fail the run with UnexpectedModelCall.
    model = scripted_model([])
    desk = open_desk(model)

    with pytest.raises(InputGuardrailTripwireTriggered) as tripped:
        await desk.ask("Charge it to 4111 1111 1111 1111")

    assert tripped.value.guardrail_result.guardrail.get_name() == "no_card_numbers"
    assert len(model.calls) == 0


@pytest.mark.asyncio
async def test_the_conversation_continues_with_the_agent_that_answered_last(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    model = scripted_model(
        [
            [function_call("transfer_to_support_agent", {}, call_id="handoff")],
            [assistant_message("Which booking is it about?")],
            [assistant_message("Thanks, looking at BK0001 now.")],
        ]
    )
    desk = open_desk(model)

    await desk.ask("I have a question about my booking")
    second = await desk.ask("BK0001")

    assert second.final_output == "Thanks, looking at BK0001 now."
    # The second turn went straight to support, with the first turn in its input.
    third_call = model.calls[2]
    assert [tool.name for tool in third_call.tools] == ["booking_status", "cancel_booking"]
    said = [item.get("content") for item in third_call.input if isinstance(item, dict)]
    assert said[0] == "I have a question about my booking"
    assert said[-1] == "BK0001"


@pytest.mark.asyncio
async def test_a_reopened_conversation_remembers_what_was_said(
    scripted_model: ScriptModel, run_config: RunConfig, db_path: Path
) -> None:
    model = scripted_model(
        [
            [assistant_message("Nice to meet you, Ada.")],
            [assistant_message("You are Ada.")],
        ]
    )
    first = TravelDesk("ada", db_path=db_path, model=model, run_config=run_config)
    await first.ask("My name is Ada")
    first.close()

    again = TravelDesk(
        "ada",
        db_path=db_path,
        model=model,
        context=TravelDeskContext(),
        run_config=run_config,
    )
    try:
        result = await again.ask("What is my name?")
        history = await again.history()
    finally:
        again.close()

    assert result.final_output == "You are Ada."
    assert model.last_call is not None
    assert model.last_call.input[0] == {"content": "My name is Ada", "role": "user"}
    assert len(history) == 4
