"""``any_order`` groups: parallel MCP tool calls answered in whatever order they come."""

from __future__ import annotations

import pytest

from agents_testing.core import any_order
from agents_testing.mcp import (
    MCPCallMatcherError,
    ScriptedMCPServer,
    UnconsumedMCPSteps,
    UnexpectedMCPCall,
)
from agents_testing.model import ScriptedModel, assistant_message, function_call

from .conftest import CONVERT, RATES, RunAgent, tool_outputs

pytestmark = pytest.mark.asyncio


async def test_parallel_calls_take_the_member_that_accepts_them(run_agent: RunAgent) -> None:
    server = ScriptedMCPServer(
        [
            any_order(
                {"tool": "convert", "match": {"amount": 1, "currency": "JPY"}, "result": "151 JPY"},
                {
                    "tool": "convert",
                    "match": {"amount": 1, "currency": "EUR"},
                    "result": "0.92 EUR",
                },
                {"tool": "rates", "result": "EUR 0.92, JPY 151"},
            )
        ],
        tools=[CONVERT, RATES],
    )
    model = ScriptedModel(
        [
            [
                function_call("rates", {}, call_id="a"),
                function_call("convert", {"amount": 1, "currency": "EUR"}, call_id="b"),
                function_call("convert", {"amount": 1, "currency": "JPY"}, call_id="c"),
            ],
            [assistant_message("Done.")],
        ]
    )

    async with server:
        await run_agent(model, [server])

    assert [output[0]["text"] for output in tool_outputs(model)] == [
        "EUR 0.92, JPY 151",
        "0.92 EUR",
        "151 JPY",
    ]
    server.assert_complete()


async def test_a_group_names_its_pending_tools_when_a_call_fits_none() -> None:
    server = ScriptedMCPServer(
        [
            any_order(
                {"tool": "convert", "match": {"currency": "EUR"}, "result": "x"},
                {"tool": "convert", "match": {"currency": "JPY"}, "result": "y"},
            )
        ],
        tools=[CONVERT, RATES],
    )
    async with server:
        with pytest.raises(
            UnexpectedMCPCall,
            match=r"call #1 to tool 'rates'; the next position is an any_order\(\) group whose "
            r"pending members expect 'convert', 'convert'\. 2 step\(s\) pending",
        ) as unexpected:
            await server.call_tool("rates", {})
        with pytest.raises(
            MCPCallMatcherError,
            match=r"MCP matchers of the any_order\(\) group \(step #1\) rejected call #2 to tool "
            r"'convert' \(2 pending member\(s\) for it\)",
        ) as rejected:
            await server.call_tool("convert", {"currency": "USD"})
        await server.call_tool("convert", {"currency": "JPY"})

    assert unexpected.value.group_tools == ("convert", "convert")
    assert rejected.value.group_members == 2
    with pytest.raises(UnconsumedMCPSteps, match=r"1 MCP step\(s\) were never used: 'convert'"):
        server.assert_complete()
