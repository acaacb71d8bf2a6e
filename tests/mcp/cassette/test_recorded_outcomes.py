"""A recording holds the calls as the runner saw them, and its replay ends the same way.

Recorded from a real stdio server (``_flaky_server.py``) through the SDK's own
``MCPServerStdio`` with ``max_retry_attempts``: a call the SDK refuses before sending it
is no server call, a call the server retried is one outcome, and a structured result is
the text a real server writes. Starting the server takes a subprocess, so these run with
the slow tests (on the locked and on the lowest SDK, with mcp 2 and mcp 1).
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from agents import Agent, RunConfig, Runner
from agents.mcp import MCPServerStdio

from agents_testing.mcp import MCPCassette, ScriptedMCPServer, json_result
from agents_testing.mcp._wire import dump
from agents_testing.model import ScriptedModel, assistant_message, function_call

from .._flaky_server import QUOTE
from .._live import TIMEOUT, AnyServer
from ..conftest import tool_outputs

pytestmark = [pytest.mark.asyncio, pytest.mark.slow]

SERVER = Path(__file__).parent.parent / "_flaky_server.py"
RETRIES: dict[str, Any] = {"max_retry_attempts": 2, "retry_backoff_seconds_base": 0.0}


def _model() -> ScriptedModel:
    return ScriptedModel(
        [
            # The SDK refuses this call itself: the listing says currency is required.
            [function_call("quote", {"amount": 100}, call_id="refused")],
            [function_call("quote", {"amount": 100, "currency": "EUR"}, call_id="quote")],
            # Fails once on the server, then answers: the SDK's retry hides the failure.
            [function_call("flaky", {"key": "eur"}, call_id="flaky")],
            # Fails on every attempt: the runner sees the last failure.
            [function_call("down", {}, call_id="down")],
            [assistant_message("Done.")],
        ]
    )


@dataclass(frozen=True)
class Run:
    final: Any
    outputs: list[Any]
    calls: int


async def _use(server: AnyServer) -> Run:
    model = _model()
    async with server:
        result = await Runner.run(
            Agent(name="Desk", model=model, mcp_servers=[server]),
            "Quote 100 USD in EUR.",
            run_config=RunConfig(tracing_disabled=True),
        )
    calls = len(server.calls) if isinstance(server, ScriptedMCPServer) else -1
    return Run(result.final_output, tool_outputs(model), calls)


@dataclass(frozen=True)
class Recorded:
    cassette: MCPCassette
    live: Run


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    """The flaky server recorded once through the SDK's stdio client, with retries."""
    cassette = MCPCassette(tmp_path_factory.mktemp("flaky") / "flaky.mcp.json")
    real = MCPServerStdio(
        params={"command": sys.executable, "args": [str(SERVER)]},
        name="flaky",
        client_session_timeout_seconds=TIMEOUT,
        **RETRIES,
    )
    live = asyncio.run(_use(cassette.record(real)))
    cassette.save()
    return Recorded(cassette, live)


def _calls(recorded: Recorded) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = json.loads(recorded.cassette.path.read_text())["calls"]
    return [call for call in calls if call["method"] == "call_tool"]


async def test_a_call_the_sdk_refuses_before_sending_is_not_recorded(recorded: Recorded) -> None:
    """A call missing a required argument never reached the server: the recording leaves
    it out, and the replayed server refuses it the same way before its script."""
    assert [(call["tool"], call["arguments"]) for call in _calls(recorded)] == [
        ("quote", {"amount": 100, "currency": "EUR"}),
        ("flaky", {"key": "eur"}),
        ("down", {}),
    ]
    assert "An error occurred while running the tool" in str(recorded.live.outputs[0])

    replayed = recorded.cassette.replay(**RETRIES)
    assert await _use(replayed) == Run(recorded.live.final, recorded.live.outputs, 3)
    replayed.assert_complete()


async def test_a_call_the_server_retried_is_one_outcome_and_replays_as_it(
    recorded: Recorded,
) -> None:
    """With ``max_retry_attempts`` the real server retries inside its own ``call_tool``: one
    recorded call each, the success after a failure and the last failure of a tool that
    always fails; replayed with the same option, each call takes one step."""
    flaky, down = _calls(recorded)[1:]
    assert flaky["result"]["content"] == [{"type": "text", "text": "ok eur"}]
    assert down["error"]["protocol"]["message"] == "the rates service is down"
    assert "ok eur" in str(recorded.live.outputs[2])
    assert "An error occurred while running the tool" in str(recorded.live.outputs[3])

    options: dict[str, Any]
    for options in (RETRIES, {"max_retry_attempts": -1}, {}):
        replayed = recorded.cassette.replay(**options)
        assert await _use(replayed) == Run(recorded.live.final, recorded.live.outputs, 3)
        replayed.assert_complete()


async def test_json_result_writes_the_text_a_real_server_sends(recorded: Recorded) -> None:
    """A tool with an output schema: the real server's text block is its structured
    result as indented JSON; ``json_result`` writes the same bytes."""
    quote = _calls(recorded)[0]["result"]
    value = {**QUOTE, "amount": 92.0, "currency": "EUR"}
    assert quote["structuredContent"] == value

    scripted = dump(json_result(value))
    assert scripted["content"] == quote["content"]
    assert scripted["structuredContent"] == quote["structuredContent"]
    assert recorded.live.outputs[1] == [{"type": "input_text", "text": quote["content"][0]["text"]}]
