"""Smoke test of an installed agents-testing-mcp: an agent whose tool comes from a scripted
MCP server, run and streamed, with no server process."""

from __future__ import annotations

import asyncio

from agents import Agent, RunConfig, Runner
from agents.mcp.testing import ScriptedMCPServer, json_result, mcp_tool
from agents.testing import ScriptedModel, assistant_message, function_call

CONVERT = mcp_tool(
    "convert",
    input_schema={"type": "object", "properties": {"currency": {"type": "string"}}},
    output_schema={"type": "object", "properties": {"amount": {"type": "number"}}},
)


async def main() -> None:
    for streamed in (False, True):
        server = ScriptedMCPServer(
            [{"tool": "convert", "result": json_result({"amount": 92.0})}],
            tools=[CONVERT],
            extra_checks=True,
        )
        model = ScriptedModel(
            [
                [function_call("convert", {"currency": "EUR"}, call_id="call_1")],
                [assistant_message("100 USD is 92 EUR.")],
            ]
        )
        agent = Agent(name="Rates", model=model, mcp_servers=[server])
        config = RunConfig(tracing_disabled=True)
        async with server:
            if streamed:
                result = Runner.run_streamed(agent, "100 USD in EUR?", run_config=config)
                async for _ in result.stream_events():
                    pass
            else:
                result = await Runner.run(agent, "100 USD in EUR?", run_config=config)  # type: ignore[assignment]

        assert result.final_output == "100 USD is 92 EUR.", result.final_output
        assert [call.tool for call in server.calls] == ["convert"], server.calls
        server.assert_complete()
        model.assert_complete()

    import agents_testing.mcp

    print(f"mcp smoke passed from {agents_testing.mcp.__file__}")


asyncio.run(main())
