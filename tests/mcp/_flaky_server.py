"""A small real MCP server whose tools fail the way retries are for, over stdio.

``quote`` returns a structured result (the server declares an output schema) and needs
both its arguments; ``flaky`` answers its first call for each ``key`` with a protocol
error and every later one with text; ``down`` answers every call with a protocol error.
Run as ``python _flaky_server.py``. Written against the ``mcp`` package's server API,
which ``mcp`` 2 calls ``MCPServer`` and ``mcp`` 1 ``FastMCP``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

INTERNAL_ERROR = -32603

QUOTE = {
    "amount": 92.0,
    "currency": "EUR",
    "desk": "東京 / Zürich",
    "rates": [0.92, 151.0],
    "open": True,
    "note": None,
}

Refusal = Callable[[str, dict[str, Any]], "str | None"]


def build() -> Any:
    try:
        from mcp.server.mcpserver import MCPServer as Server
    except ImportError:  # mcp 1
        from mcp.server.fastmcp import FastMCP as Server  # type: ignore[no-redef,attr-defined]

    server = Server("flaky")
    seen: set[str] = set()

    def refusal(name: str, arguments: dict[str, Any]) -> str | None:
        """The protocol error a call gets, or None when it is answered."""
        if name == "down":
            return "the rates service is down"
        key = str(arguments.get("key"))
        if name == "flaky" and key not in seen:
            seen.add(key)
            return f"{key} is warming up"
        return None

    check = _tool_check(refusal)

    @server.tool()
    def quote(amount: float, currency: str) -> dict[str, Any]:
        """Quote an amount of US dollars in another currency."""
        return {**QUOTE, "amount": round(amount * 0.92, 2), "currency": currency}

    @server.tool()
    def flaky(key: str) -> str:
        """Fail the first call for a key, answer every later one."""
        check("flaky", {"key": key})
        return f"ok {key}"

    @server.tool()
    def down() -> str:
        """Never answer."""
        check("down", {})
        return "unreachable"

    if check is _unchecked:
        _refuse_before_tools(server, refusal)
    return server


def _unchecked(name: str, arguments: dict[str, Any]) -> None:
    """mcp 1: the calls were refused before they reached a tool."""


def _tool_check(refusal: Refusal) -> Callable[[str, dict[str, Any]], None]:
    """mcp 2 sends an ``MCPError`` a tool raises as the error response of the call."""
    try:
        from mcp.shared.exceptions import MCPError
    except ImportError:
        return _unchecked

    def check(name: str, arguments: dict[str, Any]) -> None:
        message = refusal(name, arguments)
        if message is not None:
            raise MCPError(INTERNAL_ERROR, message)

    return check


def _refuse_before_tools(server: Any, refusal: Refusal) -> None:
    """mcp 1 turns a tool's own exception into an ``isError`` result, so the error
    response is sent before the call reaches the tool."""
    from mcp.shared import exceptions
    from mcp.types import CallToolRequest, ErrorData

    protocol_error: Any = vars(exceptions)["McpError"]  # mcp 1's name

    lowlevel = server._mcp_server
    answer = lowlevel.request_handlers[CallToolRequest]

    async def handler(request: Any) -> Any:
        message = refusal(request.params.name, request.params.arguments or {})
        if message is not None:
            raise protocol_error(ErrorData(code=INTERNAL_ERROR, message=message))
        return await answer(request)

    lowlevel.request_handlers[CallToolRequest] = handler


if __name__ == "__main__":
    build().run()
