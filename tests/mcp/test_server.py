"""A scripted MCP server behind ``Agent(mcp_servers=[...])``: listing, calls, results."""

from __future__ import annotations

import json

import pytest
from agents.mcp import MCPServer
from mcp.types import CallToolResult, Tool

from agents_testing.core import to_snapshot
from agents_testing.mcp import (
    ScriptedMCPServer,
    error_result,
    image_result,
    json_result,
    text_result,
)
from agents_testing.model import ScriptedModel, assistant_message, function_call

from .conftest import CONVERT, RATES, RunAgent, tool_outputs

pytestmark = pytest.mark.asyncio


async def test_the_model_sees_the_listed_tools_and_gets_the_scripted_results(
    run_agent: RunAgent,
) -> None:
    server = ScriptedMCPServer(
        [
            {"tool": "convert", "result": json_result({"amount": 92.0, "currency": "EUR"})},
            {"tool": "rates", "result": "EUR 0.92"},
        ],
        tools=[CONVERT, RATES],
        name="rates",
    )
    model = ScriptedModel(
        [
            [function_call("convert", {"amount": 100, "currency": "EUR"}, call_id="c1")],
            [function_call("rates", {}, call_id="c2")],
            [assistant_message("100 USD is 92 EUR.")],
        ]
    )

    async with server:
        result = await run_agent(model, [server])

    assert result.final_output == "100 USD is 92 EUR."
    offered = model.calls[0].tools
    assert [tool.name for tool in offered] == ["convert", "rates"]
    assert offered[0].description == "Convert US dollars to another currency."  # type: ignore[union-attr]
    assert tool_outputs(model) == [
        [{"type": "input_text", "text": '{\n  "amount": 92.0,\n  "currency": "EUR"\n}'}],
        [{"type": "input_text", "text": "EUR 0.92"}],
    ]
    assert [(call.tool, dict(call.arguments or {})) for call in server.calls] == [
        ("convert", {"amount": 100, "currency": "EUR"}),
        ("rates", {}),
    ]
    assert isinstance(server, MCPServer)
    server.assert_complete()


async def test_structured_content_reaches_the_model_only_with_use_structured_content(
    run_agent: RunAgent,
) -> None:
    answer = json_result({"amount": 92.0, "currency": "EUR"}, text="92 EUR")
    for structured, expected in ((False, "92 EUR"), (True, '{"amount": 92.0, "currency": "EUR"}')):
        server = ScriptedMCPServer(
            [{"tool": "convert", "result": answer}],
            tools=[CONVERT],
            use_structured_content=structured,
        )
        model = ScriptedModel(
            [
                [function_call("convert", {"amount": 100, "currency": "EUR"})],
                [assistant_message("Done.")],
            ]
        )
        async with server:
            await run_agent(model, [server])
        (output,) = tool_outputs(model)
        text = output if isinstance(output, str) else output[0]["text"]
        assert text == expected


async def test_an_error_result_reaches_the_model_as_the_tool_output(run_agent: RunAgent) -> None:
    server = ScriptedMCPServer(
        [{"tool": "convert", "result": error_result("No rate for XXX today.")}],
        tools=[CONVERT],
    )
    model = ScriptedModel(
        [
            [function_call("convert", {"amount": 1, "currency": "EUR"})],
            [assistant_message("Sorry.")],
        ]
    )

    async with server:
        result = await run_agent(model, [server])

    assert result.final_output == "Sorry."
    assert tool_outputs(model) == [[{"type": "input_text", "text": "No rate for XXX today."}]]


async def test_a_responder_answers_from_the_call_and_several_blocks_are_kept(
    run_agent: RunAgent,
) -> None:
    def convert(call: object) -> CallToolResult:
        from agents_testing.mcp import MCPCall

        assert isinstance(call, MCPCall)
        arguments = dict(call.arguments or {})
        return text_result(f"{round(arguments['amount'] * 0.92, 2)} EUR", "rate 0.92")

    async def picture(call: object) -> CallToolResult:
        return image_result(b"\x89PNG", "image/png", text="chart")

    chart = Tool.model_validate({"name": "chart", "inputSchema": {"type": "object"}})
    server = ScriptedMCPServer(
        [{"tool": "convert", "responder": convert}, {"tool": "chart", "responder": picture}],
        tools=[CONVERT, chart],
    )
    model = ScriptedModel(
        [
            [function_call("convert", {"amount": 10, "currency": "EUR"})],
            [function_call("chart", {})],
            [assistant_message("Done.")],
        ]
    )

    async with server:
        await run_agent(model, [server])

    converted, charted = tool_outputs(model)
    assert converted == [
        {"type": "input_text", "text": "9.2 EUR"},
        {"type": "input_text", "text": "rate 0.92"},
    ]
    assert charted[0]["type"] == "input_image"
    assert charted[0]["image_url"] == "data:image/png;base64,iVBORw=="
    assert charted[1] == {"type": "input_text", "text": "chart"}


async def test_calls_and_requests_are_recorded_detached() -> None:
    server = ScriptedMCPServer([{"tool": "convert", "result": "ok"}], tools=[CONVERT], name="rates")
    arguments = {"amount": 1, "currency": "EUR", "legs": [{"city": "Paris"}]}

    async with server:
        listed = await server.list_tools()
        listed[0].name = "changed"
        result = await server.call_tool("convert", arguments, meta={"trace": "t1"})
        result.content.clear()
    arguments["legs"][0]["city"] = "Rome"  # type: ignore[index]
    server.calls[0].arguments["legs"][0]["city"] = "Oslo"  # type: ignore[index]

    (call,) = server.calls
    assert call.arguments == {"amount": 1, "currency": "EUR", "legs": [{"city": "Paris"}]}
    assert call.meta == {"trace": "t1"}
    with pytest.raises(TypeError):
        call.arguments["amount"] = 2  # type: ignore[index]
    assert [request.method for request in server.requests] == ["list_tools", "call_tool"]
    assert server.requests[1].params["tool"] == "convert"
    assert (await _listed_names(server)) == ["convert"]
    assert to_snapshot(server) == [
        {
            "tool": "convert",
            "arguments": {"amount": 1, "currency": "EUR", "legs": [{"city": "Paris"}]},
            "meta": {"trace": "t1"},
        }
    ]
    assert server.pending_steps == ()
    assert server.remaining_steps == 0


async def _listed_names(server: ScriptedMCPServer) -> list[str]:
    async with server:
        return [tool.name for tool in await server.list_tools()]


async def test_a_static_result_is_handed_out_fresh_to_every_call() -> None:
    shared = json_result({"amount": 1.0, "currency": "EUR"})
    server = ScriptedMCPServer(
        [{"tool": "convert", "result": shared}, {"tool": "convert", "result": shared}],
        tools=[CONVERT],
    )
    async with server:
        first = await server.call_tool("convert", {"amount": 1, "currency": "EUR"})
        first.content[0].text = "changed"  # type: ignore[union-attr]
        first.content.append(first.content[0])
        second = await server.call_tool("convert", {"amount": 1, "currency": "EUR"})

    assert json.loads(second.content[0].text) == {"amount": 1.0, "currency": "EUR"}  # type: ignore[union-attr]
    assert server.pending_steps == ()
