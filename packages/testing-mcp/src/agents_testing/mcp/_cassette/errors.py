"""Errors of MCP cassettes: a replayed request that differs, a recorded error rebuilt."""

from __future__ import annotations

from collections.abc import Sequence

from agents_testing.core.cassette import CassetteMismatch, ReplayedError

from .._errors import MCPScriptError

__all__ = ["MCPCallMismatch", "ReplayedMCPError"]

BOUNDARY = "mcp"


class MCPCallMismatch(MCPScriptError, CassetteMismatch):
    """A replayed request differs from the recorded one.

    Raised at the call (by the replay step's matcher for ``call_tool``, by the prompt or
    resource lookup otherwise), and again by the server's ``assert_complete()``.
    ``call_index`` is the 0-based position of the call among the server's tool calls (or
    among its prompt or resource reads); ``differences`` names each differing field.
    """

    def __init__(self, call_index: int, differences: Sequence[str]) -> None:
        CassetteMismatch.__init__(self, BOUNDARY, call_index, differences)

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.call_index, self.differences))


class ReplayedMCPError(ReplayedError):
    """A recorded server error whose original type cannot be rebuilt on replay."""


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
