"""The ``scripted_mcp_server`` fixture, driven through throw-away tests."""

from __future__ import annotations

import pytest

INI = """
[pytest]
asyncio_mode = strict
asyncio_default_fixture_loop_scope = function
"""

HEADER = """
import pytest
from agents import Agent, RunConfig, Runner
from agents.mcp.testing import ScriptedMCPServer, json_result, mcp_tool
from agents.testing import ScriptedModel, assistant_message, function_call

CONVERT = mcp_tool(
    "convert",
    input_schema={"type": "object", "properties": {"currency": {"type": "string"}}},
    output_schema={"type": "object", "properties": {"amount": {"type": "number"}}},
)


async def run(server, calls):
    model = ScriptedModel([[function_call("convert", {"currency": "EUR"})] for _ in range(calls)]
                          + [[assistant_message("Done.")]])
    async with server:
        return await Runner.run(
            Agent(name="Desk", model=model, mcp_servers=[server]), "Go.",
            run_config=RunConfig(tracing_disabled=True),
        )
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeini(INI)
    return pytester


def test_servers_are_checked_at_teardown_and_extra_checks_are_on(project: pytest.Pytester) -> None:
    project.makepyfile(
        HEADER
        + """
@pytest.mark.asyncio
async def test_complete(scripted_mcp_server):
    server = scripted_mcp_server(
        [{"tool": "convert", "result": json_result({"amount": 0.92})}], tools=[CONVERT]
    )
    await run(server, 1)
    assert isinstance(server, ScriptedMCPServer) and server.extra_checks


@pytest.mark.asyncio
async def test_steps_left(scripted_mcp_server):
    scripted_mcp_server([{"tool": "convert", "result": "x"}], tools=[CONVERT])


@pytest.mark.asyncio
async def test_swallowed_violation(scripted_mcp_server):
    result = await run(scripted_mcp_server(tools=[CONVERT]), 1)
    assert result.final_output == "Done."


@pytest.mark.asyncio
async def test_bad_result(scripted_mcp_server):
    await run(scripted_mcp_server([{"tool": "convert", "result": "0.92"}], tools=[CONVERT]), 1)


@pytest.mark.asyncio
@pytest.mark.agents_testing(extra_checks=False)
async def test_marker_off(scripted_mcp_server):
    server = scripted_mcp_server([{"tool": "convert", "result": "0.92"}], tools=[CONVERT])
    await run(server, 1)
    assert not server.extra_checks


@pytest.mark.asyncio
async def test_argument_wins(scripted_mcp_server):
    server = scripted_mcp_server(
        [{"tool": "convert", "result": "0.92"}], tools=[CONVERT], extra_checks=False
    )
    await run(server, 1)
"""
    )

    result = project.runpytest()

    # A teardown error is reported next to the passed call of the same test.
    result.assert_outcomes(passed=6, errors=3)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at teardown of test_steps_left*",
            "*UnconsumedMCPSteps: 1 MCP step(s) were never used: 'convert'*",
            "*ERROR at teardown of test_swallowed_violation*",
            "*UnexpectedMCPCall: Unexpected MCP call #1 to tool 'convert'; no MCP steps remain*",
            "*ERROR at teardown of test_bad_result*",
            "*MCPSchemaViolation: The result for MCP call #1 to tool 'convert' (step #1) breaks "
            "the tool's outputSchema at $ (rule: structuredContent)*",
        ]
    )


def test_a_failed_test_shows_what_the_server_saw(project: pytest.Pytester) -> None:
    project.makepyfile(
        HEADER
        + """
@pytest.mark.asyncio
async def test_fails(scripted_mcp_server):
    await run(scripted_mcp_server(tools=[CONVERT]), 1)
    assert False, "the test's own failure"
"""
    )

    result = project.runpytest()

    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*the test's own failure*",
            "*unconsumed scripted steps*",
            "*UnexpectedMCPCall: Unexpected MCP call #1 to tool 'convert'*",
        ]
    )
