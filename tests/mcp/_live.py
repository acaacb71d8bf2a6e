"""Real MCP servers for the recording tests: the rates server over stdio or streamable HTTP.

Every wait is bounded, and the HTTP server listens on 127.0.0.1 only and is stopped when
the test ends.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from agents.mcp import MCPServerStdio, MCPServerStreamableHttp

from agents_testing.mcp import ScriptedMCPServer

SERVER = Path(__file__).with_name("_rates_server.py")

# A real client, or a replay of what one recorded: each connects with ``async with``.
AnyServer = MCPServerStdio | MCPServerStreamableHttp | ScriptedMCPServer
# Every wait on a server is bounded; a busy machine may need most of a minute.
TIMEOUT = 60.0
# Starting a server imports the mcp server stack, which is slow on a busy machine.
STARTUP = 60.0


def copy_server(folder: Path) -> Path:
    """A copy of the server module in ``folder``: delete it to show a replay needs no server."""
    target = folder / "rates_server.py"
    shutil.copy(SERVER, target)
    return target


def stdio_server(module: Path) -> MCPServerStdio:
    """The SDK's stdio client for the server module ``module``, started on connect."""
    return MCPServerStdio(
        params={"command": sys.executable, "args": [str(module)]},
        name="rates",
        client_session_timeout_seconds=TIMEOUT,
    )


def http_server(url: str) -> MCPServerStreamableHttp:
    """The SDK's streamable HTTP client for a server at ``url``."""
    return MCPServerStreamableHttp(
        params={"url": url, "timeout": TIMEOUT},
        name="rates",
        client_session_timeout_seconds=TIMEOUT,
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving_http(module: Path = SERVER) -> Iterator[str]:
    """Run the server module over streamable HTTP on 127.0.0.1; yields its URL."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, str(module), "http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + STARTUP
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    process.kill()
                    _, errors = process.communicate(timeout=TIMEOUT)
                    raise RuntimeError(
                        f"the MCP server did not listen within {STARTUP:.0f} s: "
                        f"{errors.decode(errors='replace')}"
                    ) from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=TIMEOUT)
        if process.stderr is not None:
            process.stderr.close()
