"""An MCP server that answers late or dies mid-call, through ``Runner.run`` / ``run_streamed``.

The errors are those the installed ``mcp`` client raised when a real stdio server
(``MCPServerStdio``, SDK 0.14.8 with mcp 1.30 and 0.24.0 with mcp 2.3) outlasted
``client_session_timeout_seconds`` or exited in the middle of a call, and for every
request after that. Every wait runs on the virtual clock.
"""

from __future__ import annotations

from importlib.metadata import version
from typing import Any

import pytest
from anyio import ClosedResourceError
from mcp.shared import exceptions

from agents_testing.core import ClockWait, VirtualClock
from agents_testing.mcp import (
    InvalidMCPArgument,
    InvalidMCPStep,
    ScriptedMCPServer,
    json_result,
)
from agents_testing.model import ScriptedModel, assistant_message, function_call

from .conftest import CONVERT, RunAgent, tool_outputs

MCP_1 = version("mcp").startswith("1.")
# What the mcp client raises for an error response: McpError on mcp 1, MCPError on mcp 2.
PROTOCOL_ERROR: type[Exception] = getattr(exceptions, "McpError", None) or exceptions.MCPError
# What it raises for a request on a session whose server died.
DEAD_SESSION: type[Exception] = ClosedResourceError if MCP_1 else PROTOCOL_ERROR
QUOTE = json_result({"amount": 92.0, "currency": "EUR"})
ASK = {"amount": 100, "currency": "EUR"}


def converting(*replies: str) -> ScriptedModel:
    """A model that calls ``convert`` once per reply but the last, which is its answer."""
    steps: list[Any] = [[function_call("convert", ASK)] for _ in replies[:-1]]
    return ScriptedModel([*steps, [assistant_message(replies[-1])]])


def protocol_error(error: BaseException) -> tuple[int, str]:
    data = error.error  # type: ignore[attr-defined]
    return data.code, data.message


class FailureRecorder:
    """A ``failure_error_function`` that keeps each tool failure the runner reports."""

    def __init__(self) -> None:
        self.errors: list[BaseException] = []

    def __call__(self, context: Any, error: BaseException) -> str:
        self.errors.append(error)
        return "The rates service failed."

    def roots(self) -> list[BaseException]:
        """Each failure's innermost cause: the SDK may wrap what the server raised."""
        found = []
        for error in self.errors:
            while error.__cause__ is not None:
                error = error.__cause__
            found.append(error)
        return found


# -- answering late ----------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_reply_later_than_the_timeout_fails_the_call_and_the_retry_gets_the_next_step(
    run_agent: RunAgent, virtual_clock: VirtualClock
) -> None:
    server = ScriptedMCPServer(
        [
            {"tool": "convert", "delay": 30, "result": "too late"},
            {"tool": "convert", "result": QUOTE},
        ],
        tools=[CONVERT],
        client_session_timeout_seconds=5,
        max_retry_attempts=1,
        retry_backoff_seconds_base=1.0,
    )
    model = converting("convert", "92 EUR.")

    async with server:
        await run_agent(model, [server])

    (output,) = tool_outputs(model)
    assert '"amount": 92.0' in str(output)
    assert len(server.calls) == 2
    assert [
        wait for wait in virtual_clock.waits if wait.kind != "timeout" or wait.seconds == 5
    ] == [
        ClockWait("timeout", 0.0, 5.0),
        ClockWait("scripted", 0.0, 30.0),
        ClockWait("sleep", 5.0, 1.0),
        ClockWait("timeout", 6.0, 5.0),
    ]
    assert virtual_clock.now == 6.0
    server.assert_complete()


@pytest.mark.asyncio
async def test_a_timed_out_call_gives_the_model_the_mcp_clients_timeout_error(
    run_agent: RunAgent, virtual_clock: VirtualClock
) -> None:
    failures = FailureRecorder()
    server = ScriptedMCPServer(
        [{"tool": "convert", "delay": 8.5, "result": QUOTE}],
        tools=[CONVERT],
        client_session_timeout_seconds=5,
        failure_error_function=failures,
    )
    model = converting("convert", "The rates service is slow.")

    async with server:
        result = await run_agent(model, [server])

    assert result.final_output == "The rates service is slow."
    assert tool_outputs(model) == ["The rates service failed."]
    (error,) = failures.roots()
    if MCP_1:
        assert protocol_error(error) == (
            408,
            "Timed out while waiting for response to ClientRequest. Waited 5.0 seconds.",
        )
    else:
        assert protocol_error(error) == (-32001, "Request 'tools/call' timed out")
    assert virtual_clock.now == 5.0


@pytest.mark.asyncio
async def test_the_timeout_error_is_the_installed_mcp_clients_own(
    virtual_clock: VirtualClock,
) -> None:
    server = ScriptedMCPServer(
        [{"tool": "convert", "delay": 1, "result": QUOTE}],
        tools=[CONVERT],
        client_session_timeout_seconds=0.5,
    )

    async with server:
        with pytest.raises(PROTOCOL_ERROR, match=r"[Tt]imed out") as raised:
            await server.call_tool("convert", ASK)

    if MCP_1:
        assert protocol_error(raised.value) == (
            408,
            "Timed out while waiting for response to ClientRequest. Waited 0.5 seconds.",
        )
    else:
        assert protocol_error(raised.value) == (-32001, "Request 'tools/call' timed out")


@pytest.mark.asyncio
async def test_a_delay_within_the_timeout_only_takes_its_time(
    run_agent: RunAgent, virtual_clock: VirtualClock
) -> None:
    server = ScriptedMCPServer(
        [{"tool": "convert", "delay": 2.5, "result": QUOTE}],
        tools=[CONVERT],
        client_session_timeout_seconds=5,
    )
    model = converting("convert", "92 EUR.")

    async with server:
        await run_agent(model, [server])

    assert '"amount": 92.0' in str(tool_outputs(model)[0])
    assert virtual_clock.now == 2.5


@pytest.mark.asyncio
async def test_a_bare_server_has_no_timeout_and_waits_as_long_as_the_step_says(
    virtual_clock: VirtualClock,
) -> None:
    server = ScriptedMCPServer(
        [{"tool": "convert", "delay": 600, "result": QUOTE}], tools=[CONVERT]
    )

    async with server:
        await server.call_tool("convert", ASK)

    assert virtual_clock.now == 600.0
    assert virtual_clock.waits == [ClockWait("scripted", 0.0, 600.0)]


@pytest.mark.asyncio
async def test_a_scripted_timeout_error_is_not_taken_for_the_clients_timeout() -> None:
    server = ScriptedMCPServer(
        [{"tool": "convert", "error": TimeoutError("upstream")}],
        tools=[CONVERT],
        client_session_timeout_seconds=5,
    )

    async with server:
        with pytest.raises(TimeoutError, match="upstream"):
            await server.call_tool("convert", ASK)


# -- dying mid-call ----------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_server_that_dies_mid_call_fails_that_call_and_then_the_next_turns_listing(
    run_agent: RunAgent,
) -> None:
    failures = FailureRecorder()
    server = ScriptedMCPServer(
        [{"tool": "convert", "crash": True}], tools=[CONVERT], failure_error_function=failures
    )
    model = converting("convert", "never reached")

    async with server:
        with pytest.raises(DEAD_SESSION) as raised:
            await run_agent(model, [server])

    # The call itself failed as the mcp client reports a server that exited...
    (error,) = failures.roots()
    assert protocol_error(error) == (-32000, "Connection closed")
    # ...and the next turn's tool listing fails on the dead session.
    if not MCP_1:
        assert protocol_error(raised.value) == (-32000, "Connection closed")
    assert server.crashed is True
    assert len(server.calls) == 1
    assert model.remaining_steps == 1


@pytest.mark.asyncio
async def test_with_a_cached_listing_the_run_goes_on_and_each_later_call_fails_after_its_retries(
    run_agent: RunAgent, virtual_clock: VirtualClock
) -> None:
    server = ScriptedMCPServer(
        [{"tool": "convert", "crash": True}],
        tools=[CONVERT],
        cache_tools_list=True,
        max_retry_attempts=2,
        retry_backoff_seconds_base=1.0,
    )
    model = converting("convert", "convert", "The rates server is down.")

    async with server:
        result = await run_agent(model, [server])

    assert result.final_output == "The rates server is down."
    # Only the call that reached the server is recorded: the others met a dead session.
    assert len(server.calls) == 1
    assert virtual_clock.sleeps == [1.0, 2.0, 1.0, 2.0]
    assert len(tool_outputs(model)) == 2
    server.assert_complete()


@pytest.mark.asyncio
async def test_the_crash_error_is_the_installed_mcp_clients_connection_closed_error() -> None:
    server = ScriptedMCPServer(
        [{"tool": "convert", "crash": True}, {"tool": "convert", "result": QUOTE}],
        tools=[CONVERT],
    )

    async with server:
        with pytest.raises(PROTOCOL_ERROR, match="Connection closed") as crashed:
            await server.call_tool("convert", ASK)
        with pytest.raises(DEAD_SESSION) as after:
            await server.list_tools()

    assert type(crashed.value) is PROTOCOL_ERROR
    assert protocol_error(crashed.value) == (-32000, "Connection closed")
    assert type(after.value) is DEAD_SESSION
    if not MCP_1:
        assert protocol_error(after.value) == (-32000, "Connection closed")
    assert server.remaining_steps == 1


@pytest.mark.asyncio
async def test_connecting_a_crashed_server_again_brings_it_back(
    virtual_clock: VirtualClock,
) -> None:
    server = ScriptedMCPServer(
        [{"tool": "convert", "delay": 1, "crash": True}, {"tool": "convert", "result": QUOTE}],
        tools=[CONVERT],
    )

    async with server:
        with pytest.raises(PROTOCOL_ERROR, match="Connection closed"):
            await server.call_tool("convert", ASK)
    async with server:
        assert server.crashed is False
        result = await server.call_tool("convert", ASK)

    assert '"amount": 92.0' in result.content[0].text  # type: ignore[union-attr]
    assert virtual_clock.now == 1.0  # it died a second into the first call
    server.assert_complete()


# -- building -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("step", "reason", "message"),
    [
        ({"tool": "convert", "delay": -1, "result": QUOTE}, "invalid_fault", ">= 0"),
        ({"tool": "convert", "delay": "1", "result": QUOTE}, "invalid_fault", "got str"),
        ({"tool": "convert", "delay": float("inf"), "result": QUOTE}, "invalid_fault", "finite"),
        ({"tool": "convert", "crash": "yes"}, "invalid_fault", "'crash' is True"),
        ({"tool": "convert", "crash": True, "result": QUOTE}, "invalid_outcome", "exactly one"),
        ({"tool": "convert", "delay": 1}, "invalid_outcome", "found: none"),
    ],
)
def test_a_bad_fault_is_refused_when_the_server_is_made(
    step: Any, reason: str, message: str
) -> None:
    with pytest.raises(InvalidMCPStep, match=message) as raised:
        ScriptedMCPServer([step], tools=[CONVERT])

    assert (raised.value.reason, raised.value.input_index, raised.value.tool) == (
        reason,
        0,
        "convert",
    )


@pytest.mark.parametrize("timeout", [-1, float("nan"), float("inf"), "5", True])
def test_a_bad_client_session_timeout_is_refused(timeout: Any) -> None:
    with pytest.raises(InvalidMCPArgument, match="client_session_timeout_seconds") as raised:
        ScriptedMCPServer(tools=[CONVERT], client_session_timeout_seconds=timeout)

    assert raised.value.argument == "client_session_timeout_seconds"


@pytest.mark.asyncio
async def test_a_zero_timeout_means_none_as_on_the_sdks_servers(
    virtual_clock: VirtualClock,
) -> None:
    server = ScriptedMCPServer(
        [{"tool": "convert", "delay": 50, "result": QUOTE}],
        tools=[CONVERT],
        client_session_timeout_seconds=0,
    )

    async with server:
        await server.call_tool("convert", ASK)

    assert virtual_clock.now == 50.0


def test_pending_steps_show_their_delay_and_crash() -> None:
    server = ScriptedMCPServer(
        [{"tool": "convert", "delay": 2, "result": "x"}, {"tool": "convert", "crash": True}],
        tools=[CONVERT],
    )

    assert [
        {key: value for key, value in step.items() if key != "result"}
        for step in server.pending_steps
    ] == [{"tool": "convert", "delay": 2.0}, {"tool": "convert", "crash": True}]
