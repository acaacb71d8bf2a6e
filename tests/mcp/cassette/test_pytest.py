"""The ``mcp_cassette`` fixture: record a real server once, replay it with the guard on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .._live import copy_server, serving_http

INI = """
[pytest]
asyncio_mode = strict
asyncio_default_fixture_loop_scope = function
"""

TEST = """
import sys

import pytest
from agents import Agent, RunConfig, Runner
from agents.mcp import MCPServerStdio, MCPServerStreamableHttp
from agents.testing import ScriptedModel, assistant_message, function_call


def real():
    if {url!r}:
        return MCPServerStreamableHttp(params={{"url": {url!r}, "timeout": 60}}, name="rates")
    return MCPServerStdio(
        params={{"command": sys.executable, "args": [{module!r}]}},
        name="rates",
        client_session_timeout_seconds=60,
    )


@pytest.mark.asyncio
async def test_rates(mcp_cassette):
    server = mcp_cassette.server(real, cache_tools_list=True)
    model = ScriptedModel(
        [
            [function_call("convert", {{"amount": 100, "currency": "{currency}"}}, call_id="c1")],
            [assistant_message("Converted.")],
        ]
    )
    async with server:
        result = await Runner.run(
            Agent(name="Desk", model=model, mcp_servers=[server]),
            "Convert 100 USD.",
            run_config=RunConfig(tracing_disabled=True),
        )
    assert result.final_output == "Converted."
    assert "92" in str(model.last_call.input)
"""


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.delenv("CI", raising=False)
    pytester.makeini(INI)
    return pytester


def _cassette(project: pytest.Pytester) -> Path:
    return project.path / "cassettes" / "test_rates" / "test_rates.mcp.json"


def test_once_records_a_stdio_server_and_replay_needs_no_server(project: pytest.Pytester) -> None:
    module = copy_server(project.path)
    project.makepyfile(test_rates=TEST.format(url="", module=str(module), currency="EUR"))

    missing = project.runpytest()
    missing.assert_outcomes(failed=1)
    missing.stdout.fnmatch_lines(["*No mcp cassette at *test_rates.mcp.json*"])
    project.runpytest("--agents-record-mode=once").assert_outcomes(passed=1)

    calls = json.loads(_cassette(project).read_text())["calls"]
    assert [call["method"] for call in calls] == ["server", "list_tools", "call_tool"]
    module.unlink()
    project.runpytest("--agents-block-model-requests").assert_outcomes(passed=1)

    project.makepyfile(test_rates=TEST.format(url="", module=str(module), currency="JPY"))
    changed = project.runpytest("--agents-block-model-requests")
    # The SDK gave the model the mismatch as a tool error, so the test's own assertion
    # failed; the report says why.
    changed.assert_outcomes(failed=1)
    changed.stdout.fnmatch_lines(
        [
            "*mcp cassette replay*",
            "MCPCallMismatch: The mcp call 1 differs from the recorded one:",
            "  call_tool('convert').arguments.currency: recorded 'EUR', now 'JPY'",
        ]
    )


def test_once_records_a_streamable_http_server_and_replays_it_after_it_stopped(
    project: pytest.Pytester,
) -> None:
    with serving_http() as url:
        project.makepyfile(test_rates=TEST.format(url=url, module="", currency="EUR"))
        project.runpytest("--agents-record-mode=once").assert_outcomes(passed=1)

    assert url.rsplit(":", 1)[-1].split("/")[0] not in _cassette(project).read_text()
    project.runpytest("--agents-block-model-requests").assert_outcomes(passed=1)
