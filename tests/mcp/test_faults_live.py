"""A scripted MCP fault fails the way a real server's does, error for error.

The SDK's own ``MCPServerStdio`` talks to a real server process that answers too late and
then exits in the middle of a call; a ``ScriptedMCPServer`` scripted to do the same must
raise the same errors (class, code and message), for the late call, the call the server
died in, and the requests after it. Slow: a real process and real time.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from agents.mcp import MCPServerStdio

from agents_testing.mcp import ScriptedMCPServer, mcp_tool

pytestmark = [pytest.mark.asyncio, pytest.mark.slow]

SERVER = Path(__file__).with_name("_dying_server.py")
TIMEOUT = 3.0  # seconds the client waits for an answer; starting the server fits in it
NUMBER = {"type": "object", "properties": {"amount": {"type": "number"}}}


def outcome(error: BaseException) -> tuple[str, Any, Any]:
    """An error as it can be compared across servers: class, protocol code and message."""
    data = getattr(error, "error", None)
    return (type(error).__name__, getattr(data, "code", None), getattr(data, "message", None))


async def scenario(server: MCPServerStdio | ScriptedMCPServer) -> list[tuple[str, Any, Any]]:
    """A late call, a call the server dies in, then a call and a listing after that."""
    seen = []
    async with server:
        for tool in ("slow", "die", "convert"):
            try:
                await server.call_tool(tool, {"amount": 1})
                seen.append(("answered", None, None))
            except Exception as error:
                seen.append(outcome(error))
        try:
            await server.list_tools()
            seen.append(("listed", None, None))
        except Exception as error:
            seen.append(outcome(error))
    return seen


async def test_a_scripted_late_answer_and_crash_fail_as_a_real_servers_do() -> None:
    real = await scenario(
        MCPServerStdio(
            params={"command": sys.executable, "args": [str(SERVER)]},
            client_session_timeout_seconds=TIMEOUT,
        )
    )
    scripted = await scenario(
        ScriptedMCPServer(
            [
                {"tool": "slow", "delay": 60, "result": "1 late"},
                {"tool": "die", "crash": True},
                {"tool": "convert", "result": "0.92 EUR"},
            ],
            tools=[mcp_tool(name, input_schema=NUMBER) for name in ("slow", "die", "convert")],
            client_session_timeout_seconds=TIMEOUT,
        )
    )

    assert scripted == real
    assert real[1][1:] == (-32000, "Connection closed")  # the real server did die mid-call
