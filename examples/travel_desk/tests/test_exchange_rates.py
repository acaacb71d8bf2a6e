"""The booking agent's exchange-rate tool, which comes from an MCP server.

Recipes: MCP-backed tools with a scripted server (``scripted_mcp_server``), and a real MCP
server recorded once and replayed in CI (``mcp_cassette``; the cassette is in
``cassettes/test_exchange_rates/``). Record it again, starting the desk's own rates service,
with ``pytest examples/travel_desk/tests/test_exchange_rates.py --agents-record-mode=all``.
"""

from __future__ import annotations

from typing import Any

import pytest
from agents.mcp.testing import (
    MCPSchemaViolation,
    ScriptedMCPServer,
    error_result,
    json_result,
    mcp_tool,
)
from agents.testing import final_output, function_call, handoff_call
from travel_desk import BookingReply, booking_agent, rates_server

from ._types import OpenDesk, ScriptMCP, ScriptModel

# The tool as the rates service lists it (see rates_service.py).
EXCHANGE_RATE = mcp_tool(
    "exchange_rate",
    description="What one US dollar buys in a currency (an ISO code such as EUR).",
    input_schema={
        "type": "object",
        "properties": {"currency": {"type": "string"}},
        "required": ["currency"],
    },
    output_schema={
        "type": "object",
        "properties": {"currency": {"type": "string"}, "per_usd": {"type": "number"}},
        "required": ["currency", "per_usd"],
    },
)

QUOTE = BookingReply(message="One US dollar buys 0.92 euros today.", booking=None)


def _script(model_calls: list[Any]) -> list[Any]:
    """Triage hands the customer to booking, which asks for the rate, then answers."""
    return [[handoff_call(booking_agent())], *model_calls, [final_output(QUOTE)]]


@pytest.mark.asyncio
async def test_the_booking_agent_quotes_the_rate_the_rates_server_gives(
    scripted_model: ScriptModel, scripted_mcp_server: ScriptMCP, open_desk: OpenDesk
) -> None:
    rates = scripted_mcp_server(
        [
            {
                "tool": "exchange_rate",
                "match": {"currency": "EUR"},
                "result": json_result({"currency": "EUR", "per_usd": 0.92}),
            }
        ],
        tools=[EXCHANGE_RATE],
        name="travel-rates",
    )
    model = scripted_model(
        _script([[function_call("exchange_rate", {"currency": "EUR"}, call_id="rate")]])
    )

    async with rates:
        result = await open_desk(model, mcp_servers=[rates]).ask("How many euros for a dollar?")

    assert result.final_output == QUOTE
    assert result.last_agent.name == "Booking agent"
    # The server's tools come first, then the agent's own.
    assert [tool.name for tool in model.calls[1].tools] == [
        "exchange_rate",
        "search_flights",
        "book_flight",
    ]
    assert model.calls[2].tool_output("rate") == [
        {"type": "input_text", "text": '{\n  "currency": "EUR",\n  "per_usd": 0.92\n}'}
    ]


@pytest.mark.asyncio
async def test_a_streamed_turn_tells_the_model_when_the_server_has_no_rate(
    scripted_model: ScriptModel, scripted_mcp_server: ScriptMCP, open_desk: OpenDesk
) -> None:
    rates = scripted_mcp_server(
        [{"tool": "exchange_rate", "result": error_result("No rate for XYZ.")}],
        tools=[EXCHANGE_RATE],
    )
    model = scripted_model(
        _script([[function_call("exchange_rate", {"currency": "XYZ"}, call_id="rate")]])
    )

    async with rates:
        chunks = [chunk async for chunk in open_desk(model, mcp_servers=[rates]).stream("XYZ?")]

    assert "".join(chunks) == QUOTE.model_dump_json()
    assert model.calls[2].tool_output("rate") == [
        {"type": "input_text", "text": "No rate for XYZ."}
    ]


@pytest.mark.asyncio
async def test_a_scripted_rate_that_breaks_the_tool_output_schema_is_caught(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    # Made directly (not through the fixture), since this test expects its violation.
    rates = ScriptedMCPServer(
        [{"tool": "exchange_rate", "result": json_result({"currency": "EUR", "rate": 0.92})}],
        tools=[EXCHANGE_RATE],
        extra_checks=True,
    )
    model = scripted_model(_script([[function_call("exchange_rate", {"currency": "EUR"})]]))

    async with rates:
        await open_desk(model, mcp_servers=[rates]).ask("Euros?")

    # The SDK handed the failure to the model as the tool's output; the server kept it.
    with pytest.raises(
        MCPSchemaViolation,
        match=r"breaks the tool's outputSchema at \$\.per_usd \(rule: required\)",
    ):
        rates.assert_complete()


@pytest.mark.asyncio
async def test_a_recorded_rates_server_replays_without_starting_it(
    scripted_model: ScriptModel, mcp_cassette: Any, open_desk: OpenDesk
) -> None:
    rates = mcp_cassette.server(rates_server, cache_tools_list=True)
    model = scripted_model(
        _script(
            [
                [
                    function_call("exchange_rate", {"currency": "EUR"}, call_id="eur"),
                    function_call("exchange_rate", {"currency": "CHF"}, call_id="chf"),
                ]
            ]
        )
    )

    async with rates:
        result = await open_desk(model, mcp_servers=[rates]).ask("Euros and francs?")

    assert result.final_output == QUOTE
    assert '"per_usd": 0.92' in str(model.calls[2].tool_output("eur"))
    assert "No rate for CHF" in str(model.calls[2].tool_output("chf"))
