"""How the desk reaches its exchange-rate service (``rates_service.py``), an MCP server.

The booking agent takes its ``exchange_rate`` tool from it through ``mcp_servers=[...]``;
:func:`rates_server` starts the service as a subprocess when the desk connects.
"""

from __future__ import annotations

import sys
from pathlib import Path

from agents.mcp import MCPServerStdio


def rates_server(*, timeout: float = 20.0) -> MCPServerStdio:
    """The desk's client for the rates server, started as a subprocess on connect.

    The tool list never changes while the desk runs, so it is fetched once.
    """
    return MCPServerStdio(
        params={
            "command": sys.executable,
            "args": ["-m", "travel_desk.rates_service"],
            "cwd": str(Path(__file__).resolve().parent.parent),
        },
        name="travel-rates",
        cache_tools_list=True,
        client_session_timeout_seconds=timeout,
    )
