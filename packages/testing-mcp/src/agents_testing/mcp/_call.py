"""The recorded forms of what the workflow asked a scripted MCP server."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, overload

from agents_testing.core import detach

__all__ = ["MCPCall", "MCPRequest", "copy_call", "readonly"]


@dataclass(frozen=True)
class MCPCall:
    """One ``call_tool`` call: its 0-based ``call_index``, the ``tool`` name, the read-only
    ``arguments`` (``None`` when the caller passed none) and the request ``meta`` the SDK
    sent (``None`` without any), all detached from what the caller holds."""

    call_index: int
    tool: str
    arguments: Mapping[str, Any] | None
    meta: Mapping[str, Any] | None = None

    def __agents_testing_snapshot__(self) -> object:
        """The call as plain data for ``to_snapshot``; its position is its index."""
        data: dict[str, Any] = {"tool": self.tool, "arguments": _plain(self.arguments)}
        if self.meta is not None:
            data["meta"] = _plain(self.meta)
        return data

    def __reduce__(self) -> tuple[object, ...]:
        # A mappingproxy cannot be pickled; rebuild it from plain dicts.
        return (
            _restore_call,
            (self.call_index, self.tool, _plain(self.arguments), _plain(self.meta)),
        )


@dataclass(frozen=True)
class MCPRequest:
    """One request that reached the server, in order: ``method`` is ``"list_tools"``,
    ``"call_tool"``, ``"list_prompts"``, ``"get_prompt"``, ``"list_resources"``,
    ``"list_resource_templates"`` or ``"read_resource"``; ``params`` holds what it asked
    for (read-only, detached): the tool name and arguments, the prompt name and arguments,
    the resource URI, the cursor. A tool listing served from the cache is no request."""

    index: int
    method: str
    params: Mapping[str, Any]

    def __reduce__(self) -> tuple[object, ...]:
        return (_restore_request, (self.index, self.method, dict(self.params)))


def _plain(value: Mapping[str, Any] | None) -> dict[str, Any] | None:
    return None if value is None else dict(value)


def _restore_call(
    call_index: int, tool: str, arguments: dict[str, Any] | None, meta: dict[str, Any] | None
) -> MCPCall:
    return MCPCall(
        call_index,
        tool,
        None if arguments is None else MappingProxyType(arguments),
        None if meta is None else MappingProxyType(meta),
    )


def _restore_request(index: int, method: str, params: dict[str, Any]) -> MCPRequest:
    return MCPRequest(index, method, MappingProxyType(params))


@overload
def readonly(value: dict[str, Any]) -> Mapping[str, Any]: ...
@overload
def readonly(value: dict[str, Any] | None) -> Mapping[str, Any] | None: ...
def readonly(value: dict[str, Any] | None) -> Mapping[str, Any] | None:
    """A read-only view of a detached dict (None stays None)."""
    return None if value is None else MappingProxyType(value)


def copy_call(call: MCPCall) -> MCPCall:
    """A copy of a recorded call that shares nothing mutable with it, to hand out."""
    arguments = None if call.arguments is None else detach(dict(call.arguments))
    meta = None if call.meta is None else detach(dict(call.meta))
    return MCPCall(call.call_index, call.tool, readonly(arguments), readonly(meta))


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
