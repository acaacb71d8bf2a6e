"""The desk's exchange-rate service: a small MCP server, run on its own.

``python -m travel_desk.rates_service`` serves it over stdio; the desk starts it that way
(:func:`travel_desk.rates.rates_server`) and its booking agent takes the
``exchange_rate`` tool from it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

# US dollars buy this much of each currency today.
RATES = {"EUR": 0.92, "GBP": 0.79, "JPY": 151.0}


class Rate(BaseModel):
    """What one US dollar buys in a currency."""

    currency: str
    per_usd: float


def build_server() -> Any:
    """The MCP server: ``exchange_rate(currency)`` answers with a :class:`Rate`."""
    try:
        from mcp.server.mcpserver import MCPServer as Server
        from mcp.server.mcpserver.exceptions import ToolError
    except ImportError:  # mcp 1 calls it FastMCP
        from mcp.server.fastmcp import FastMCP as Server  # type: ignore[no-redef,attr-defined]
        from mcp.server.fastmcp.exceptions import (  # type: ignore[no-redef,import-not-found]
            ToolError,
        )

    server = Server("travel-rates", log_level="ERROR")

    @server.tool()
    def exchange_rate(currency: str) -> Rate:
        """What one US dollar buys in a currency (an ISO code such as EUR)."""
        code = currency.strip().upper()
        if code not in RATES:
            # A ToolError's text reaches the caller as an error result.
            raise ToolError(f"No rate for {code}; the desk quotes {', '.join(sorted(RATES))}.")
        return Rate(currency=code, per_usd=RATES[code])

    return server


if __name__ == "__main__":
    build_server().run()
