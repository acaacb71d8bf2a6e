"""Beyond the built-in: smoke-test the desk's tools, script a supervisor's approvals, and
hold a recorded booking to a token and cost budget.

Recipes: a smoke run of every tool from its schema (``SmokeModel``), approvals decided by a
script with a resume from the run state's JSON (``run_with_approvals``), and usage budgets
on a cassette replay (``assert_usage``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from agents import RunConfig
from agents.mcp.testing import json_result
from agents.testing import (
    ModelCassette,
    ModelPrice,
    ScriptedModel,
    SmokeModel,
    UsageBudgetExceeded,
    approve,
    assert_usage,
    assistant_message,
    function_call,
    reject,
    run_with_approvals,
)
from travel_desk import BookingReply, TravelDeskContext, support_agent

from ._types import OpenDesk, ScriptMCP
from .test_exchange_rates import EXCHANGE_RATE

RECORDED_BOOKING = (
    Path(__file__).parent
    / "cassettes"
    / "test_recorded"
    / "test_a_recorded_booking_replays_the_handoff_tools_and_structured_reply.json"
)
# What the desk pays its provider, per million tokens.
PRICES = {"gpt-4.1": ModelPrice(input=2.00, output=8.00, cached_input=0.50)}


@pytest.mark.asyncio
async def test_every_booking_tool_survives_any_schema_valid_request(
    open_desk: OpenDesk, scripted_mcp_server: ScriptMCP
) -> None:
    rate = {"currency": "EUR", "per_usd": 0.9}
    rates = scripted_mcp_server(
        [{"tool": "exchange_rate", "result": json_result(rate)}] * 3,
        tools=[EXCHANGE_RATE],
        name="travel-rates",
    )
    # Triage hands off to the booking agent, whose tools (its own and the rates
    # server's) are each called three times with arguments made from their schemas.
    smoke = SmokeModel(handoffs=["Booking agent"], calls_per_tool=3)

    async with rates:
        result = await open_desk(smoke, mcp_servers=[rates]).ask("Book me a trip")

    assert isinstance(result.final_output, BookingReply)
    assert sorted(smoke.report) == ["book_flight", "exchange_rate", "search_flights"]
    assert all(len(report.calls) == 3 for report in smoke.report.values())
    # Unknown flights are refused as the desk explains them, never with a crash.
    assert smoke.failed_tools == []
    assert all(
        call.output.startswith("The booking system refused")
        for call in smoke.report["book_flight"].calls
    )


@pytest.mark.asyncio
async def test_a_cancellation_the_supervisor_rejects_never_runs_even_after_a_restart() -> None:
    desk = TravelDeskContext()
    booking = desk.ledger.book(desk.catalog.get("TD101"), "Ada Lovelace")
    model = ScriptedModel(
        [
            [
                function_call("booking_status", {"reference": booking.reference}, call_id="look"),
                function_call("cancel_booking", {"reference": booking.reference}, call_id="cancel"),
            ],
            [assistant_message("Your booking stays: a supervisor must approve cancellations.")],
        ]
    )

    run = await run_with_approvals(
        support_agent(model, supervised=True),
        f"Cancel {booking.reference}",
        decide=[
            reject("cancel_booking", message="A supervisor declined this cancellation."),
            approve("booking_status"),
        ],
        round_trip=True,  # the desk stores the state and resumes it after a restart
        context=desk,
        run_config=RunConfig(tracing_disabled=True),
    )

    run.assert_not_run("cancel_booking")
    assert run.rejection_message("cancel_booking") == "A supervisor declined this cancellation."
    assert desk.ledger.get(booking.reference) == booking  # still booked
    assert model.last_call is not None
    assert model.last_call.tool_output("look") == booking.model_dump_json()
    model.assert_complete()


@pytest.mark.asyncio
async def test_the_recorded_booking_stays_within_its_token_and_cost_budget(
    open_desk: OpenDesk,
) -> None:
    # test_recorded.py's booking, replayed with the usage the provider reported.
    replay = ModelCassette(RECORDED_BOOKING).replay()

    result = await open_desk(replay).ask("Book Ada Lovelace from London to Tokyo on Christmas Eve")

    report = assert_usage(
        result, max_requests=4, max_total_tokens=200, max_cost=0.001, prices=PRICES, model="gpt-4.1"
    )
    assert list(report.by_agent) == ["Triage agent", "Booking agent"]
    with pytest.raises(UsageBudgetExceeded, match="max_total_tokens=50") as caught:
        assert_usage(result, max_total_tokens=50)
    assert "agent Booking agent" in str(caught.value)
    replay.assert_complete()
