"""The SDK's tool filters, applied to a scripted listing as real servers apply them.

``tool_filter`` is a static ``{"allowed_tool_names": [...], "blocked_tool_names": [...]}``
(``agents.mcp.create_static_tool_filter`` makes one) or a function of a
``ToolFilterContext`` and a tool, sync or async. A dynamic filter needs the run context
and the agent, which the runner passes; a filter that raises drops that tool, as the
SDK's servers do (0.14 to 0.24).
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .._errors import InvalidMCPArgument

if TYPE_CHECKING:
    from mcp.types import Tool

__all__ = ["apply_tool_filter", "check_tool_filter"]

_LOG = logging.getLogger("agents_testing.mcp")


def check_tool_filter(tool_filter: object) -> None:
    """Refuse a ``tool_filter`` that is neither None, a static filter nor a function."""
    if tool_filter is None or callable(tool_filter):
        return
    if isinstance(tool_filter, Mapping):
        for key, names in tool_filter.items():
            if key not in ("allowed_tool_names", "blocked_tool_names"):
                raise InvalidMCPArgument(
                    f"tool_filter has the unknown key {key!r}; a static filter takes "
                    "'allowed_tool_names' and 'blocked_tool_names'.",
                    argument="tool_filter",
                    expected="allowed_tool_names and blocked_tool_names",
                    got=repr(key),
                )
            if isinstance(names, (str, bytes)) or not hasattr(names, "__contains__"):
                raise InvalidMCPArgument(
                    f"tool_filter[{key!r}] must be a list of tool names, got "
                    f"{type(names).__name__}.",
                    argument=f"tool_filter[{key!r}]",
                    expected="a list of tool names",
                    got=type(names).__name__,
                )
        return
    got = type(tool_filter).__name__
    raise InvalidMCPArgument(
        f"tool_filter must be None, a static filter dict or a function, got {got}.",
        argument="tool_filter",
        expected="None, a static filter dict or a function",
        got=got,
    )


async def apply_tool_filter(
    tool_filter: Any,
    tools: list[Tool],
    run_context: Any,
    agent: Any,
    server_name: str,
    copy: Callable[[Tool], Tool],
) -> list[Tool]:
    """``tools`` less those ``tool_filter`` leaves out; a dynamic filter sees copies."""
    if tool_filter is None:
        return tools
    if isinstance(tool_filter, Mapping):
        kept = tools
        if "allowed_tool_names" in tool_filter:
            allowed = tool_filter["allowed_tool_names"]
            kept = [tool for tool in kept if tool.name in allowed]
        if "blocked_tool_names" in tool_filter:
            blocked = tool_filter["blocked_tool_names"]
            kept = [tool for tool in kept if tool.name not in blocked]
        return kept
    from agents.exceptions import UserError
    from agents.mcp import ToolFilterContext

    if run_context is None or agent is None:
        raise UserError("run_context and agent are required for dynamic tool filtering")
    context = ToolFilterContext(run_context=run_context, agent=agent, server_name=server_name)
    kept = []
    for tool in tools:
        try:
            verdict = tool_filter(context, copy(tool))
            if inspect.isawaitable(verdict):
                verdict = await verdict
        except Exception:
            # As the SDK's servers do: a filter that fails leaves the tool out, for safety.
            _LOG.exception("The MCP tool filter failed for a tool of server %r", server_name)
            continue
        if verdict:
            kept.append(tool)
    return kept
