"""MCP faults: a server that answers late, dies mid-call, or outlasts the client's timeout.

A step may wait before its outcome (``"delay"``: seconds on the event loop's clock) and
may end with the server dying (``"crash": True``). The errors are those the installed
``mcp`` client raises, checked against real stdio servers:

- a request whose server dies before answering: the protocol error with code -32000
  (``CONNECTION_CLOSED``) and message ``"Connection closed"`` (``McpError`` on mcp 1,
  ``MCPError`` on mcp 2);
- every later request on that session: mcp 1 raises ``anyio.ClosedResourceError`` (the
  session's write stream is closed), mcp 2 the same ``"Connection closed"`` error;
- a request that outlasts ``client_session_timeout_seconds``: on mcp 1 code 408 and
  ``"Timed out while waiting for response to ClientRequest. Waited 5.0 seconds."``, on
  mcp 2 code -32001 and ``"Request 'tools/call' timed out"``.
"""

from __future__ import annotations

from ._wire import protocol_error, protocol_error_class

__all__ = [
    "closed_session_error",
    "connection_closed",
    "request_timeout",
]

CONNECTION_CLOSED = -32000
_V1_REQUEST_TIMEOUT = 408  # mcp 1 reports the HTTP status (httpx.codes.REQUEST_TIMEOUT)
_V2_REQUEST_TIMEOUT = -32001


def _mcp_1() -> bool:
    return protocol_error_class().__name__ == "McpError"


def connection_closed() -> Exception:
    """The error of a request whose server died before it answered."""
    return protocol_error(CONNECTION_CLOSED, "Connection closed")


def closed_session_error() -> Exception:
    """The error of a request made on a session whose server had died."""
    if _mcp_1():
        from anyio import ClosedResourceError

        return ClosedResourceError()
    return connection_closed()


def request_timeout(seconds: float, method: str = "tools/call") -> Exception:
    """The error of a request that outlasted the client session's read timeout."""
    if _mcp_1():
        return protocol_error(
            _V1_REQUEST_TIMEOUT,
            f"Timed out while waiting for response to ClientRequest. Waited {float(seconds)} "
            "seconds.",
        )
    return protocol_error(_V2_REQUEST_TIMEOUT, f"Request {method!r} timed out")


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
