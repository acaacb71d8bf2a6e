"""A small real MCP server for the recording tests: exchange rates, a prompt, a resource.

Run as ``python _rates_server.py`` (stdio) or ``python _rates_server.py http PORT``
(streamable HTTP on 127.0.0.1). Written against the ``mcp`` package's server API, which
``mcp`` 2 calls ``MCPServer`` and ``mcp`` 1 ``FastMCP``.
"""

from __future__ import annotations

import sys
from typing import Any

RATES = {"EUR": 0.92, "JPY": 151.0}


def build() -> Any:
    try:
        from mcp.server.mcpserver import MCPServer as Server
    except ImportError:  # mcp 1
        from mcp.server.fastmcp import FastMCP as Server  # type: ignore[no-redef,attr-defined]

    server = Server("rates")

    @server.tool()
    def convert(amount: float, currency: str) -> float:
        """Convert an amount of US dollars to another currency."""
        if currency not in RATES:
            raise ValueError(f"no rate for {currency}")
        return round(amount * RATES[currency], 2)

    @server.tool()
    def currencies() -> str:
        """List the currencies with a rate."""
        return ", ".join(sorted(RATES))

    @server.prompt()
    def quote(currency: str) -> str:
        """Ask for a quote in a currency."""
        return f"Quote 100 USD in {currency}."

    @server.resource("rates://today")
    def today() -> str:
        """Today's rates, one per line."""
        return "\n".join(f"{code} {rate}" for code, rate in sorted(RATES.items()))

    return server


def main(argv: list[str]) -> None:
    server = build()
    if argv[1:2] != ["http"]:
        server.run()
        return
    port = int(argv[2])
    try:
        server.run("streamable-http", host="127.0.0.1", port=port)
    except TypeError:  # mcp 1 takes the address as settings
        server.settings.host = "127.0.0.1"
        server.settings.port = port
        server.run("streamable-http")


if __name__ == "__main__":
    main(sys.argv)
