"""Connecting and cleaning up, as the SDK's own servers do it."""

from __future__ import annotations

import pytest
from agents import Agent, RunConfig, Runner
from agents.exceptions import UserError

from agents_testing.mcp import InvalidMCPArgument, ScriptedMCPServer, mcp_prompt, mcp_resource
from agents_testing.model import ScriptedModel, function_call

from .conftest import CONVERT

pytestmark = pytest.mark.asyncio

NOT_CONNECTED = r"Server not initialized\. Make sure you call `connect\(\)` first\."


async def test_every_request_before_connect_fails_as_on_a_real_server() -> None:
    server = ScriptedMCPServer(
        [{"tool": "convert", "result": "x"}],
        tools=[CONVERT],
        prompts=[mcp_prompt("quote", "Quote it.")],
        resources=[mcp_resource("rates://today", "EUR 0.92")],
    )
    requests = [
        server.list_tools(),
        server.call_tool("convert", {}),
        server.list_prompts(),
        server.get_prompt("quote"),
        server.list_resources(),
        server.list_resource_templates(),
        server.read_resource("rates://today"),
    ]
    for request in requests:
        with pytest.raises(UserError, match=NOT_CONNECTED):
            await request

    assert server.calls == ()
    assert server.requests == ()
    assert server.remaining_steps == 1


async def test_an_agent_run_with_an_unconnected_server_fails_with_the_sdk_error() -> None:
    server = ScriptedMCPServer(tools=[CONVERT])
    model = ScriptedModel([[function_call("convert", {})]])

    with pytest.raises(UserError, match=NOT_CONNECTED):
        await Runner.run(
            Agent(name="Desk", model=model, mcp_servers=[server]),
            "Go.",
            run_config=RunConfig(tracing_disabled=True),
        )


async def test_connect_twice_cleanup_and_connect_again_are_accepted() -> None:
    server = ScriptedMCPServer(tools=[CONVERT])

    await server.connect()
    await server.connect()
    assert server.connected
    await server.cleanup()
    assert not server.connected
    await server.cleanup()  # a second cleanup does nothing
    with pytest.raises(UserError, match=NOT_CONNECTED):
        await server.list_tools()
    async with server:
        assert [tool.name for tool in await server.list_tools()] == ["convert"]
    assert server.connect_calls == 3
    assert not server.connected


async def test_a_connect_error_is_raised_by_every_connect() -> None:
    server = ScriptedMCPServer(connect_error=ConnectionRefusedError("no server"))
    for _ in range(2):
        with pytest.raises(ConnectionRefusedError, match="no server"):
            await server.connect()
    assert server.connect_calls == 2
    assert not server.connected


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"name": ""}, r"ScriptedMCPServer\(\) argument 'name' must be a non-empty str, got str"),
        ({"cache_tools_list": "yes"}, r"argument 'cache_tools_list' must be a bool, got str"),
        ({"extra_checks": 1}, r"argument 'extra_checks' must be a bool, got int"),
        ({"max_retry_attempts": 1.5}, r"argument 'max_retry_attempts' must be an int"),
        ({"retry_backoff_seconds_base": "1"}, r"'retry_backoff_seconds_base' must be a number"),
        ({"connect_error": "boom"}, r"argument 'connect_error' must be an exception"),
        ({"tool_filter": 3}, r"tool_filter must be None, a static filter dict or a function"),
        ({"tool_filter": {"allowed": ["x"]}}, r"tool_filter has the unknown key 'allowed'"),
        ({"tool_filter": {"allowed_tool_names": "x"}}, r"must be a list of tool names, got str"),
        ({"tools": CONVERT}, r"tools must be a sequence, got Tool"),
        ({"tools": [CONVERT, CONVERT]}, r"tools\[1\] lists 'convert' again"),
        (
            {"tools": [{"name": "x"}]},
            r"tools\[0\] is not a valid tool: inputSchema: Field required",
        ),
        ({"tools": [3]}, r"tools\[0\] must be an mcp\.types\.Tool or its wire dict, got int"),
    ],
)
async def test_bad_server_arguments_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidMCPArgument, match=message) as caught:
        ScriptedMCPServer(**options)  # type: ignore[arg-type]
    assert isinstance(caught.value, TypeError)


async def test_bad_call_arguments_are_refused_before_anything_is_recorded() -> None:
    server = ScriptedMCPServer([{"tool": "convert", "result": "x"}], tools=[CONVERT])
    async with server:
        with pytest.raises(
            InvalidMCPArgument, match=r"call_tool\(arguments\) must be a dict or None, got list"
        ):
            await server.call_tool("convert", ["EUR"])  # type: ignore[arg-type]
    assert server.calls == ()
    assert server.remaining_steps == 1
