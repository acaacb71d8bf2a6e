"""Recording a real MCP server (stdio, streamable HTTP) and replaying it with none."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from agents import Agent, RunConfig, Runner

from agents_testing.core import CassetteFormatError, CassetteNotFound, CassetteSecretError
from agents_testing.mcp import MCPCallMismatch, MCPCassette, ScriptedMCPServer
from agents_testing.mcp._wire import protocol_error_class
from agents_testing.model import ScriptedModel, assistant_message, function_call

from .._live import AnyServer, copy_server, http_server, serving_http, stdio_server
from ..conftest import tool_outputs

pytestmark = pytest.mark.asyncio


def _model(currency: str = "EUR") -> ScriptedModel:
    return ScriptedModel(
        [
            [
                function_call("convert", {"amount": 100, "currency": currency}, call_id="a"),
                function_call("convert", {"amount": 1, "currency": "XXX"}, call_id="b"),
            ],
            [function_call("currencies", {}, call_id="c")],
            [assistant_message("100 USD is 92 EUR.")],
        ]
    )


async def _use(server: AnyServer, model: ScriptedModel) -> dict[str, Any]:
    """One run of an agent on ``server``, then prompts and a resource read."""
    async with server:
        result = await Runner.run(
            Agent(name="Desk", model=model, mcp_servers=[server]),
            "Convert 100 USD to EUR.",
            run_config=RunConfig(tracing_disabled=True),
        )
        prompt = await server.get_prompt("quote", {"currency": "EUR"})
        resource = await server.read_resource("rates://today")
        try:
            await server.get_prompt("nope")
        except protocol_error_class() as error:
            unknown = str(error)
    return {
        "final": result.final_output,
        "outputs": tool_outputs(model),
        "prompt": [message.content.text for message in prompt.messages],  # type: ignore[union-attr]
        "resource": [content.text for content in resource.contents],  # type: ignore[union-attr]
        "unknown prompt": unknown,
    }


@dataclass(frozen=True)
class Recorded:
    cassette: MCPCassette
    live: dict[str, Any]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    """The rates server recorded once over stdio, its module deleted afterwards."""
    folder = tmp_path_factory.mktemp("stdio")
    module = copy_server(folder)
    cassette = MCPCassette(folder / "rates.mcp.json")
    live = asyncio.run(_use(cassette.record(stdio_server(module)), _model()))
    cassette.save()
    module.unlink()  # the server is gone
    return Recorded(cassette, live)


async def test_a_stdio_recording_holds_the_listing_and_every_call(recorded: Recorded) -> None:
    text = recorded.cassette.path.read_text()
    calls = json.loads(text)["calls"]

    assert [call["method"] for call in calls] == [
        "server",
        "list_tools",
        "call_tool",
        "call_tool",
        "call_tool",
        "get_prompt",
        "read_resource",
        "get_prompt",
    ]
    assert calls[0] == {"method": "server", "name": "rates", "use_structured_content": False}
    assert [tool["name"] for tool in calls[1]["result"]] == ["convert", "currencies"]
    assert calls[1]["result"][0]["outputSchema"]["required"] == ["result"]
    assert calls[2]["arguments"] == {"amount": 100, "currency": "EUR"}
    assert calls[2]["result"]["structuredContent"] == {"result": 92.0}
    assert calls[3]["result"]["isError"] is True
    assert isinstance(calls[7]["error"]["protocol"]["code"], int)  # a protocol error
    # How the server was reached is not written down.
    assert "rates_server" not in text
    assert "command" not in text
    # Re-recording an unchanged workflow writes the same bytes.
    assert recorded.cassette.dumps() == text


async def test_a_stdio_recording_replays_with_the_server_gone(recorded: Recorded) -> None:
    replayed = recorded.cassette.replay()
    model = _model()

    assert isinstance(replayed, ScriptedMCPServer)
    assert await _use(replayed, model) == recorded.live
    assert [tool.name for tool in model.calls[0].tools] == ["convert", "currencies"]
    replayed.assert_complete()


async def test_a_streamable_http_server_is_recorded_and_replayed_after_it_stopped(
    tmp_path: Path,
) -> None:
    cassette = MCPCassette(tmp_path / "rates.mcp.json")
    with serving_http() as url:
        live = await _use(cassette.record(http_server(url)), _model())
        cassette.save()

    replayed = cassette.replay()
    assert await _use(replayed, _model()) == live
    assert "127.0.0.1" not in cassette.path.read_text()
    replayed.assert_complete()


async def test_a_changed_call_fails_replay_with_a_diff(recorded: Recorded) -> None:
    replayed = recorded.cassette.replay()
    model = _model(currency="JPY")
    async with replayed:
        await Runner.run(
            Agent(name="Desk", model=model, mcp_servers=[replayed]),
            "Convert.",
            run_config=RunConfig(tracing_disabled=True),
        )
        with pytest.raises(
            MCPCallMismatch,
            match=r"get_prompt\('quote'\)\.arguments\.currency: recorded 'EUR', now 'JPY'",
        ):
            await replayed.get_prompt("quote", {"currency": "JPY"})

    with pytest.raises(
        MCPCallMismatch,
        match=r"The mcp call 1 differs from the recorded one:\n  "
        r"call_tool\('convert'\)\.arguments\.currency: recorded 'EUR', now 'JPY'",
    ) as caught:
        replayed.assert_complete()
    assert caught.value.call_index == 0
    # The SDK gave the model the failure as the tool's output.
    assert "An error occurred while running the tool" in str(tool_outputs(model)[0])


async def test_a_secret_in_a_result_stops_the_write_unless_scrubbed(tmp_path: Path) -> None:
    scripted = ScriptedMCPServer(
        [{"tool": "currencies", "result": "token sk-abcdefghijklmnopqrstuvwx"}],
        tools=[{"name": "currencies", "inputSchema": {"type": "object"}}],
        name="rates",
    )
    cassette = MCPCassette(tmp_path / "rates.mcp.json")
    async with cassette.record(scripted):
        await scripted.call_tool("currencies", {})

    with pytest.raises(
        CassetteSecretError,
        match=r"calls\[1\]\.result\.content\[0\]\.text: an OpenAI-style API key",
    ):
        cassette.save()
    assert not cassette.exists

    scrubbed = MCPCassette(tmp_path / "rates.mcp.json", scrubbers=[r"sk-\w+"])
    scrubbed._recorder = cassette._recorder
    scrubbed.save()
    assert "<scrubbed>" in scrubbed.path.read_text()


async def test_missing_and_damaged_cassettes_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(CassetteNotFound, match=r"No mcp cassette at .*absent\.json"):
        MCPCassette(tmp_path / "absent.json").replay()
    damaged = tmp_path / "damaged.json"
    damaged.write_text(
        json.dumps({"agents_testing_cassette": 1, "boundary": "mcp", "calls": [{"method": "x"}]})
    )
    with pytest.raises(CassetteFormatError, match=r"call 1 has an unknown method 'x'"):
        MCPCassette(damaged).replay()
    with pytest.raises(CassetteFormatError, match="nothing was recorded; call record"):
        MCPCassette(damaged).dumps()


async def test_a_scripted_server_can_list_what_a_recorded_one_listed(recorded: Recorded) -> None:
    from agents_testing.mcp import json_result

    server = ScriptedMCPServer(
        [{"tool": "convert", "result": json_result({"result": 1.84})}],
        extra_checks=True,
        **recorded.cassette.definitions(),
    )
    async with server:
        tools = await server.list_tools()
        prompt = await server.get_prompt("quote", {"currency": "EUR"})
        result = await server.call_tool("convert", {"amount": 2, "currency": "EUR"})

    assert [tool.name for tool in tools] == ["convert", "currencies"]
    assert prompt.messages[0].content.text == "Quote 100 USD in EUR."  # type: ignore[union-attr]
    assert result.content[0].text == '{\n  "result": 1.84\n}'  # type: ignore[union-attr]
    server.assert_complete()


async def test_a_recorded_failure_replays_once_whatever_max_retry_attempts_says(
    tmp_path: Path,
) -> None:
    """A recorded call is what the runner saw after the server's own retries: replayed
    with ``max_retry_attempts`` it fails once, and the next call gets the next step."""
    from agents_testing.mcp import mcp_error, text_result

    tools = [{"name": name, "inputSchema": {"type": "object"}} for name in ("down", "rates")]
    source = ScriptedMCPServer(
        [
            {"tool": "down", "error": mcp_error("the rates service is down")},
            {"tool": "rates", "result": text_result("EUR 0.92")},
        ],
        tools=tools,
        name="rates",
    )
    cassette = MCPCassette(tmp_path / "rates.mcp.json")
    model = ScriptedModel(_conversation())
    async with cassette.record(source):
        await Runner.run(
            Agent(name="Desk", model=model, mcp_servers=[source]),
            "Rates?",
            run_config=RunConfig(tracing_disabled=True),
        )
    cassette.save()
    recorded = tool_outputs(model)

    for attempts in (2, -1):
        replayed = cassette.replay(max_retry_attempts=attempts)
        again = ScriptedModel(_conversation())
        async with replayed:
            result = await Runner.run(
                Agent(name="Desk", model=again, mcp_servers=[replayed]),
                "Rates?",
                run_config=RunConfig(tracing_disabled=True),
            )
        assert result.final_output == "EUR 0.92."
        assert tool_outputs(again) == recorded
        assert [call.tool for call in replayed.calls] == ["down", "rates"]
        replayed.assert_complete()


def _conversation() -> list[Any]:
    return [
        [function_call("down", {}, call_id="a")],
        [function_call("rates", {}, call_id="b")],
        [assistant_message("EUR 0.92.")],
    ]


async def test_a_call_the_sdk_refuses_before_connecting_is_not_recorded(tmp_path: Path) -> None:
    """The SDK's own server refuses a call before ``connect()`` without a request; the
    recording has nothing to replay for it."""
    from agents import UserError
    from agents.mcp import MCPServerStdio

    real = MCPServerStdio(params={"command": "no-such-server"}, name="rates")
    cassette = MCPCassette(tmp_path / "rates.mcp.json")
    cassette.record(real)

    with pytest.raises(UserError, match="Server not initialized"):
        await real.call_tool("convert", {"amount": 1})

    calls = json.loads(cassette.dumps())["calls"]
    assert [call["method"] for call in calls] == ["server"]


async def test_a_result_that_contains_itself_reaches_the_run_and_refuses_the_write(
    tmp_path: Path,
) -> None:
    """A recorded server may answer with structured content that refers back to itself:
    the run goes on as with the server alone (the model reads the text), and writing the
    cassette is refused naming the cycle."""
    from agents_testing.core.cassette import CassetteWriteError
    from agents_testing.mcp import json_result

    answer = json_result({"rate": 0.92})
    looped: dict[str, Any] = {"rate": 0.92}
    looped["self"] = looped
    setattr(answer, _structured_field(answer), looped)
    source = ScriptedMCPServer(
        [{"tool": "rates", "result": answer}],
        tools=[{"name": "rates", "inputSchema": {"type": "object"}}],
        name="rates",
    )
    cassette = MCPCassette(tmp_path / "rates.mcp.json")
    model = ScriptedModel([[function_call("rates", {}, call_id="a")], [assistant_message("Ok.")]])
    async with cassette.record(source):
        await Runner.run(
            Agent(name="Desk", model=model, mcp_servers=[source]),
            "Rates?",
            run_config=RunConfig(tracing_disabled=True),
        )

    assert tool_outputs(model) == [[{"type": "input_text", "text": '{\n  "rate": 0.92\n}'}]]
    with pytest.raises(CassetteWriteError, match=r"refers back to .*contains itself \(a cycle\)"):
        cassette.save()
    assert not cassette.exists


def _structured_field(result: Any) -> str:
    """``structuredContent`` on mcp 1, ``structured_content`` on mcp 2."""
    return (
        "structuredContent"
        if "structuredContent" in type(result).model_fields
        else ("structured_content")
    )
