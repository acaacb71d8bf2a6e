"""A small real MCP server that answers late or dies in the middle of a call, over stdio.

``slow`` takes a minute to answer; ``die`` ends the server's process before it answers;
``convert`` answers at once. Run as ``python _dying_server.py``. Written against the
``mcp`` package's server API, which ``mcp`` 2 calls ``MCPServer`` and ``mcp`` 1 ``FastMCP``.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any


def build() -> Any:
    try:
        from mcp.server.mcpserver import MCPServer as Server
    except ImportError:  # mcp 1
        from mcp.server.fastmcp import FastMCP as Server  # type: ignore[no-redef,attr-defined]

    server = Server("dying")

    @server.tool()
    async def slow(amount: float) -> str:
        """Answer after a minute."""
        await asyncio.sleep(60)
        return f"{amount} late"

    @server.tool()
    def die(amount: float) -> str:
        """End the server's process in the middle of the call."""
        os._exit(1)

    @server.tool()
    def convert(amount: float) -> str:
        """Answer at once."""
        return f"{amount * 0.92} EUR"

    return server


if __name__ == "__main__":
    build().run()
