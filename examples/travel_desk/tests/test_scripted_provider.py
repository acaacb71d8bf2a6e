"""The desk as deployed: no model injected, no run config, each agent scripted by name.

``TravelDesk`` and its agents are built exactly as production builds them (the agents
name no model, the desk runs with a plain ``RunConfig()``); the
``scripted_model_provider`` fixture answers every agent from its own script.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from agents.testing import assistant_message, function_call
from travel_desk import BookingReply, TravelDesk

from agents_testing.model import ScriptedModelProviderFactory


@pytest.mark.asyncio
async def test_the_deployed_desk_hands_a_booking_to_the_booking_agent(
    scripted_model_provider: ScriptedModelProviderFactory, db_path: Path
) -> None:
    reply = BookingReply(message="TD101 has seats on Christmas Eve.", booking=None)
    provider = scripted_model_provider(
        by_agent={
            "Triage agent": [[function_call("transfer_to_booking_agent", {}, call_id="h")]],
            "Booking agent": [
                [
                    function_call(
                        "search_flights",
                        {"origin": "LHR", "destination": "NRT", "departure_date": "2026-12-24"},
                        call_id="search",
                    )
                ],
                [assistant_message(reply.model_dump_json())],
            ],
        }
    )
    desk = TravelDesk("customer-1", db_path=db_path)

    try:
        result = await desk.ask("Any flights from London to Tokyo on Christmas Eve?")
    finally:
        desk.close()

    assert result.final_output == reply
    assert [call.agent_name for call in provider.calls] == [
        "Triage agent",
        "Booking agent",
        "Booking agent",
    ]
    search_output = provider.by_agent["Booking agent"].calls[1].tool_output("search")
    assert '"number":"TD101"' in str(search_output)


@pytest.mark.asyncio
async def test_a_streamed_conversation_stays_with_the_support_agent(
    scripted_model_provider: ScriptedModelProviderFactory, db_path: Path
) -> None:
    provider = scripted_model_provider(
        by_agent={
            "Triage agent": [[function_call("transfer_to_support_agent", {}, call_id="h")]],
            "Support agent": [
                [assistant_message("Which booking is it about?")],
                [assistant_message("Thanks, looking at BK0001 now.")],
            ],
        }
    )
    desk = TravelDesk("customer-1", db_path=db_path)

    try:
        first = "".join([delta async for delta in desk.stream("A question about my booking")])
        second = "".join([delta async for delta in desk.stream("BK0001")])
    finally:
        desk.close()

    assert (first, second) == ("Which booking is it about?", "Thanks, looking at BK0001 now.")
    assert [call.agent_name for call in provider.calls] == [
        "Triage agent",
        "Support agent",
        "Support agent",
    ]
    assert all(call.call.streamed for call in provider.calls)
