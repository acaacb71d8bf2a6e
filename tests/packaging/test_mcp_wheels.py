"""The MCP package installed from its wheel with only core and the model package beside it:
an MCP-backed agent test runs with no server process and the request guard on."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from .conftest import make_venv, run_python, sdk_requirement

pytestmark = pytest.mark.slow

TEST = """
import pytest
from agents import Agent, RunConfig, Runner
from agents.mcp.testing import MCPSchemaViolation, ScriptedMCPServer, json_result, mcp_tool
from agents.testing import ScriptedModel, assistant_message, function_call

CONVERT = mcp_tool(
    "convert",
    input_schema={"type": "object", "properties": {"currency": {"enum": ["EUR", "JPY"]}}},
    output_schema={"type": "object", "properties": {"amount": {"type": "number"}}},
)


@pytest.mark.asyncio
@pytest.mark.parametrize("streamed", [False, True])
async def test_the_agent_converts_with_the_scripted_rates_server(scripted_mcp_server, streamed):
    server = scripted_mcp_server(
        [{"tool": "convert", "result": json_result({"amount": 92.0})}], tools=[CONVERT]
    )
    model = ScriptedModel(
        [[function_call("convert", {"currency": "EUR"})], [assistant_message("92 EUR.")]]
    )
    agent = Agent(name="Rates", model=model, mcp_servers=[server])
    async with server:
        if streamed:
            result = Runner.run_streamed(agent, "EUR?", run_config=RunConfig(tracing_disabled=True))
            async for _ in result.stream_events():
                pass
        else:
            result = await Runner.run(agent, "EUR?", run_config=RunConfig(tracing_disabled=True))
    assert result.final_output == "92 EUR."
    assert [call.tool for call in server.calls] == ["convert"]


@pytest.mark.asyncio
async def test_a_call_that_breaks_the_input_schema_fails_it():
    server = ScriptedMCPServer([{"tool": "convert", "result": "x"}], tools=[CONVERT],
                               extra_checks=True)
    async with server:
        with pytest.raises(MCPSchemaViolation, match=r"at \\$\\.currency \\(rule: enum\\)"):
            await server.call_tool("convert", {"currency": "GBP"})
    assert server.remaining_steps == 1
"""


def test_core_model_and_mcp_wheels_alone_run_an_mcp_backed_agent_test(
    wheels: dict[str, Path], tmp_path: Path
) -> None:
    python = make_venv(
        tmp_path / "venv",
        *sdk_requirement(extras=""),
        wheels["core"],
        wheels["model"],
        wheels["mcp"],
        "pytest",
        "pytest-asyncio",
    )
    installed = run_python(
        python,
        "import json, importlib.metadata as m\n"
        "print(json.dumps(sorted(d.metadata['Name'] for d in m.distributions()"
        " if d.metadata['Name'].startswith('agents-testing'))))",
    )
    assert installed == ["agents-testing-core", "agents-testing-mcp", "agents-testing-model"]
    (tmp_path / "test_rates.py").write_text(TEST)
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\nasyncio_mode = strict\nasyncio_default_fixture_loop_scope = function\n"
    )

    done = subprocess.run(
        [str(python), "-m", "pytest", "-p", "no:cacheprovider", "-q",
         "--agents-block-model-requests", "-W", "error::pytest.PytestUnraisableExceptionWarning"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )  # fmt: skip

    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 passed" in done.stdout
