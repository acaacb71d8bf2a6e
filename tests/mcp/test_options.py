"""The SDK's server options, working through a scripted server as through a real one."""

from __future__ import annotations

from typing import Any

import pytest
from agents import Agent, RunConfig, Runner
from agents.exceptions import UserError
from agents.mcp import ToolFilterContext, create_static_tool_filter

from agents_testing.core import compat
from agents_testing.mcp import (
    InvalidMCPArgument,
    MCPCall,
    ScriptedMCPServer,
    UnexpectedMCPCall,
    error_result,
    json_result,
    mcp_error,
)
from agents_testing.model import ScriptedModel, assistant_message, function_call

from .conftest import CONVERT, RATES, RunAgent, tool_outputs

pytestmark = pytest.mark.asyncio


def _offered(model: ScriptedModel) -> list[str]:
    return [tool.name for tool in model.calls[0].tools]


async def test_a_static_tool_filter_hides_tools_from_the_model(run_agent: RunAgent) -> None:
    server = ScriptedMCPServer(
        tools=[CONVERT, RATES], tool_filter=create_static_tool_filter(blocked_tool_names=["rates"])
    )
    model = ScriptedModel([[assistant_message("Hi.")]])

    async with server:
        await run_agent(model, [server])

    assert _offered(model) == ["convert"]


async def test_a_dynamic_tool_filter_decides_per_agent_and_a_failing_one_drops_the_tool(
    run_agent: RunAgent,
) -> None:
    seen: list[tuple[str, str, str]] = []

    async def only_rates(context: ToolFilterContext, tool: Any) -> bool:
        seen.append((context.agent.name, context.server_name, tool.name))
        if tool.name == "convert":
            raise RuntimeError("filter broke")
        return True

    server = ScriptedMCPServer(tools=[CONVERT, RATES], tool_filter=only_rates, name="rates-server")
    model = ScriptedModel([[assistant_message("Hi.")]])

    async with server:
        await run_agent(model, [server])
        with pytest.raises(UserError, match="run_context and agent are required for dynamic"):
            await server.list_tools()

    assert _offered(model) == ["rates"]
    assert seen == [("Desk", "rates-server", "convert"), ("Desk", "rates-server", "rates")]


@pytest.mark.parametrize("cache_tools_list", [False, True])
async def test_cache_tools_list_fetches_the_listing_once(
    run_agent: RunAgent, cache_tools_list: bool
) -> None:
    server = ScriptedMCPServer(
        [{"tool": "rates", "result": "EUR 0.92"}] * 2,
        tools=[RATES],
        cache_tools_list=cache_tools_list,
    )
    model = ScriptedModel(
        [
            [function_call("rates", {})],
            [function_call("rates", {})],
            [assistant_message("Done.")],
        ]
    )

    async with server:
        await run_agent(model, [server])

    listings = [request for request in server.requests if request.method == "list_tools"]
    assert len(listings) == (1 if cache_tools_list else 3)
    assert [tool.name for tool in server.cached_tools or []] == ["rates"]
    server.invalidate_tools_cache()
    async with server:
        await server.list_tools()
    assert len([r for r in server.requests if r.method == "list_tools"]) == len(listings) + 1


async def test_a_tool_that_needs_approval_is_called_only_once_approved(
    run_agent: RunAgent,
) -> None:
    server = ScriptedMCPServer(
        [{"tool": "convert", "result": "92 EUR"}],
        tools=[CONVERT, RATES],
        require_approval={"always": {"tool_names": ["convert"]}},
    )
    model = ScriptedModel(
        [
            [function_call("convert", {"amount": 100, "currency": "EUR"}, call_id="c1")],
            [assistant_message("100 USD is 92 EUR.")],
        ]
    )
    agent = Agent(name="Desk", model=model, mcp_servers=[server])

    async with server:
        paused = await run_agent(model, [server])
        assert [item.name for item in paused.interruptions] == ["convert"]
        assert server.calls == ()
        state = paused.to_state()
        state.approve(paused.interruptions[0])
        done = await Runner.run(agent, state, run_config=RunConfig(tracing_disabled=True))

    assert done.final_output == "100 USD is 92 EUR."
    calls: tuple[MCPCall, ...] = server.calls
    assert [recorded.tool for recorded in calls] == ["convert"]
    server.assert_complete()


async def test_a_rejected_approval_never_reaches_the_server() -> None:
    server = ScriptedMCPServer(tools=[CONVERT], require_approval="always", extra_checks=True)
    model = ScriptedModel(
        [
            [function_call("convert", {"amount": 1, "currency": "EUR"}, call_id="c1")],
            [assistant_message("Not converted.")],
        ]
    )
    agent = Agent(name="Desk", model=model, mcp_servers=[server])
    config = RunConfig(tracing_disabled=True)

    async with server:
        paused = await Runner.run(agent, "Go.", run_config=config)
        state = paused.to_state()
        state.reject(paused.interruptions[0])
        done = await Runner.run(agent, state, run_config=config)

    assert done.final_output == "Not converted."
    assert server.calls == ()
    server.assert_complete()


async def test_a_scripted_error_becomes_a_tool_error_for_the_model(run_agent: RunAgent) -> None:
    server = ScriptedMCPServer(
        [{"tool": "convert", "error": mcp_error("upstream rate service is down")}],
        tools=[CONVERT],
    )
    model = ScriptedModel(
        [
            [function_call("convert", {"amount": 1, "currency": "EUR"})],
            [assistant_message("Try later.")],
        ]
    )

    async with server:
        result = await run_agent(model, [server])

    assert result.final_output == "Try later."
    (output,) = tool_outputs(model)
    assert "An error occurred while running the tool" in str(output)


async def test_a_failure_error_function_words_the_error_for_the_model(
    run_agent: RunAgent,
) -> None:
    def explain(context: Any, error: Exception) -> str:
        return f"rates unavailable ({type(error).__name__})"

    server = ScriptedMCPServer(
        [{"tool": "convert", "error": TimeoutError}],
        tools=[CONVERT],
        failure_error_function=explain,
    )
    model = ScriptedModel(
        [
            [function_call("convert", {"amount": 1, "currency": "EUR"})],
            [assistant_message("Try later.")],
        ]
    )

    async with server:
        await run_agent(model, [server])

    (output,) = tool_outputs(model)
    assert "rates unavailable" in str(output)


async def test_retries_make_new_calls_that_consume_the_next_steps(run_agent: RunAgent) -> None:
    server = ScriptedMCPServer(
        [
            {"tool": "convert", "error": ConnectionResetError("dropped")},
            {"tool": "convert", "error": mcp_error("busy")},
            {"tool": "convert", "result": json_result({"amount": 92.0, "currency": "EUR"})},
        ],
        tools=[CONVERT],
        max_retry_attempts=2,
    )
    model = ScriptedModel(
        [
            [function_call("convert", {"amount": 100, "currency": "EUR"})],
            [assistant_message("92 EUR.")],
        ]
    )

    async with server:
        await run_agent(model, [server])

    assert len(server.calls) == 3
    (output,) = tool_outputs(model)
    assert '"amount": 92.0' in str(output)
    server.assert_complete()


async def test_retries_stop_after_max_retry_attempts_and_never_retry_violations() -> None:
    server = ScriptedMCPServer(
        [{"tool": "convert", "error": ConnectionResetError("dropped")}] * 2,
        tools=[CONVERT, RATES],
        max_retry_attempts=1,
    )
    async with server:
        with pytest.raises(ConnectionResetError, match="dropped"):
            await server.call_tool("convert", {})
        assert len(server.calls) == 2
        server_with_steps_left = ScriptedMCPServer(
            [{"tool": "rates", "result": "x"}], tools=[CONVERT, RATES], max_retry_attempts=3
        )
        async with server_with_steps_left:
            with pytest.raises(UnexpectedMCPCall, match="Unexpected MCP call #1 to tool 'convert'"):
                await server_with_steps_left.call_tool("convert", {})
        assert len(server_with_steps_left.calls) == 1


async def test_a_missing_required_argument_is_refused_once_the_tools_were_listed() -> None:
    server = ScriptedMCPServer([{"tool": "convert", "result": "x"}], tools=[CONVERT], name="rates")
    async with server:
        await server.list_tools()
        with pytest.raises(
            UserError,
            match=r"Failed to call tool 'convert' on MCP server 'rates': missing required "
            r"parameters: amount, currency",
        ):
            await server.call_tool("convert", {})
        assert server.calls == ()
        await server.call_tool("convert", {"amount": 1, "currency": "EUR"})


async def test_an_error_result_keeps_its_text_with_structured_content_on_newer_sdks(
    run_agent: RunAgent,
) -> None:
    server = ScriptedMCPServer(
        [{"tool": "convert", "result": error_result("no rate", structured={"code": 7})}],
        tools=[CONVERT],
        use_structured_content=True,
    )
    model = ScriptedModel(
        [[function_call("convert", {"amount": 1, "currency": "EUR"})], [assistant_message("x")]]
    )

    async with server:
        await run_agent(model, [server])

    (output,) = tool_outputs(model)
    if compat.mcp_error_results_keep_content():
        assert output == [{"type": "input_text", "text": "no rate"}]
    else:
        assert output == '{"code": 7}'


async def test_options_of_newer_sdks_are_refused_clearly_on_older_ones() -> None:
    options = compat.mcp_server_options()
    if "custom_data_extractor" in options:
        server = ScriptedMCPServer(custom_data_extractor=lambda context: {"x": 1})
        assert server.custom_data_extractor is not None
    else:
        with pytest.raises(
            InvalidMCPArgument,
            match=r"custom_data_extractor needs an openai-agents release whose MCP servers take "
            r"it; the installed 0\.\d+\.\d+ does not",
        ):
            ScriptedMCPServer(custom_data_extractor=lambda context: {"x": 1})
