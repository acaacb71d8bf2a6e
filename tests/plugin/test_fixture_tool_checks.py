"""The ``scripted_model`` fixture checks scripted tool calls unless the test opts out."""

from __future__ import annotations

import pytest
from agents import RunConfig, Runner
from agents.run_config import SandboxRunConfig
from agents.sandbox import ExecResult, SandboxAgent
from agents.sandbox.capabilities import Shell
from agents.testing import (
    ScriptedModelFactory,
    ScriptedSandboxFactory,
    assistant_message,
    function_call,
)

from agents_testing.model import InvalidScriptedToolCall

TOOL_CALL_TESTS = """
import pytest
from agents import Agent, Runner, function_tool
from agents.testing import assistant_message, function_call


@function_tool
def get_weather(city: str) -> str:
    '''Return the weather for a city.'''
    return f"{city}: sunny"


def steps():
    return [
        [function_call("get_weather", {"town": "Tokyo"}, call_id="call_1")],
        [assistant_message("Done.")],
    ]


async def run_bad_call(model):
    agent = Agent(name="Weather", model=model, tools=[get_weather])
    result = Runner.run_streamed(agent, "Weather?")
    async for _ in result.stream_events():
        pass
    output = model.last_call.tool_output("call_1")
    assert output.startswith("An error occurred while running the tool.")


@pytest.mark.asyncio
async def test_checked_by_default(scripted_model):
    await run_bad_call(scripted_model(steps()))


@pytest.mark.asyncio
@pytest.mark.agents_testing(check_tool_calls=False)
async def test_marker_opts_out(scripted_model):
    await run_bad_call(scripted_model(steps()))


@pytest.mark.asyncio
async def test_keyword_opts_out(scripted_model):
    await run_bad_call(scripted_model(steps(), check_tool_calls=False))


@pytest.mark.asyncio
@pytest.mark.agents_testing(check_tool_calls=False)
async def test_keyword_wins_over_the_marker(scripted_model):
    await run_bad_call(scripted_model(steps(), check_tool_calls=True))


@pytest.mark.agents_testing(check_tool_calls="no")
def test_marker_value_is_checked(scripted_model):
    pass
"""


def test_the_fixture_checks_tool_calls_and_the_marker_or_keyword_turns_it_off(
    project: pytest.Pytester,
) -> None:
    project.makepyfile(test_tool_calls=TOOL_CALL_TESTS)

    reprec = project.inline_run("--strict-markers")

    passed, _, failed = reprec.listoutcomes()
    assert sorted(str(report.head_line) for report in passed) == [
        "test_keyword_opts_out",
        "test_marker_opts_out",
    ]
    calls = [report for report in failed if report.when == "call"]
    assert sorted(str(report.head_line) for report in calls) == [
        "test_checked_by_default",
        "test_keyword_wins_over_the_marker",
    ]
    errors = [
        call.excinfo.value
        for call in (hook.call for hook in reprec.getcalls("pytest_exception_interact"))
        if call.when == "call"
    ]
    assert len(errors) == 2
    assert all(isinstance(error, InvalidScriptedToolCall) for error in errors)
    assert {error.path for error in errors if isinstance(error, InvalidScriptedToolCall)} == {
        "$.town"
    }
    [setup] = [report for report in failed if report.when == "setup"]
    assert setup.head_line == "test_marker_value_is_checked"
    assert str(setup.longrepr).endswith(
        "@pytest.mark.agents_testing: check_tool_calls='no' is not a bool. It takes "
        "assert_complete=<bool>, disable_tracing=<bool>, check_tool_calls=<bool> and "
        "extra_checks=<bool>."
    )


@pytest.mark.asyncio
@pytest.mark.agents_testing(assert_complete=False)
async def test_a_sandbox_capability_tool_is_checked_like_any_function_tool(
    scripted_model: ScriptedModelFactory, scripted_sandbox: ScriptedSandboxFactory
) -> None:
    sandbox = scripted_sandbox(
        [{"method": "exec", "result": ExecResult(stdout=b"/workspace\n", stderr=b"", exit_code=0)}]
    )
    model = scripted_model(
        [
            [function_call("exec_command", {"command": "pwd"}, call_id="call_1")],
            [assistant_message("The workspace is /workspace.")],
        ]
    )
    agent = SandboxAgent(name="Workspace", model=model, capabilities=[Shell()])

    async with sandbox:
        with pytest.raises(InvalidScriptedToolCall) as raised:
            await Runner.run(
                agent, "Where?", run_config=RunConfig(sandbox=SandboxRunConfig(session=sandbox))
            )

    assert "exec_command" in raised.value.known_tools
    assert (raised.value.tool_name, raised.value.path, raised.value.rule) == (
        "exec_command",
        "$.cmd",
        "required",
    )
    assert sandbox.calls == ()
