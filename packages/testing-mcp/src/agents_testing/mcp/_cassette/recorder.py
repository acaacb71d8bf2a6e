"""Recording a live MCP server: its public requests wrapped on that one object.

Every listing that differs from the one before it, and every call with its arguments and
result (or error), in the protocol's wire form; nothing about how the server is reached.
"""

from __future__ import annotations

import contextvars
import functools
from typing import Any

from .._wire import dump, error_data

__all__ = ["LISTINGS", "Recorder", "jsonable"]

_INSIDE: contextvars.ContextVar[bool] = contextvars.ContextVar("_agents_mcp_cassette_inside")
LISTINGS = {
    "list_tools": "tools",
    "list_prompts": "prompts",
    "list_resources": "resources",
    "list_resource_templates": "resourceTemplates",
}


def _error_entry(error: BaseException) -> dict[str, Any]:
    kind = type(error)
    entry: dict[str, Any] = {
        "type": f"{kind.__module__}.{kind.__qualname__}",
        "message": str(error),
    }
    data = error_data(error)
    if data is not None:
        entry["protocol"] = data
    return entry


class Recorder:
    def __init__(self, server: Any) -> None:
        self.server = server
        self.calls: list[dict[str, Any]] = []
        self._last: dict[str, Any] = {}

    def header(self) -> dict[str, Any]:
        return {
            "method": "server",
            "name": str(self.server.name),
            "use_structured_content": bool(getattr(self.server, "use_structured_content", False)),
        }

    def listing(self, method: str, items: list[Any]) -> None:
        dumped = [dump(item) for item in items]
        if self._last.get(method) != dumped:
            self._last[method] = dumped
            self.calls.append({"method": method, "result": dumped})

    def wrap(self, method: str) -> None:
        original = getattr(self.server, method)

        @functools.wraps(original)
        async def recorded(*args: Any, **kwargs: Any) -> Any:
            if _INSIDE.get(False):
                # A request the server makes of itself belongs to the outer one.
                return await original(*args, **kwargs)
            token = _INSIDE.set(True)
            try:
                return await self._record(method, original, args, kwargs)
            finally:
                _INSIDE.reset(token)

        setattr(self.server, method, recorded)

    async def _record(self, method: str, original: Any, args: Any, kwargs: Any) -> Any:
        if method == "list_tools":
            tools = await original(*args, **kwargs)
            self.listing(method, list(tools))
            return tools
        if method in LISTINGS:
            result = await original(*args, **kwargs)
            items = dump(result).get(LISTINGS[method], [])
            if self._last.get(method) != items:
                self._last[method] = items
                self.calls.append({"method": method, "result": items})
            return result
        entry = _request_entry(method, args, kwargs)
        self.calls.append(entry)
        try:
            result = await original(*args, **kwargs)
        except Exception as error:
            entry["error"] = _error_entry(error)
            raise
        entry["result"] = dump(result)
        return result


def _request_entry(method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    """What a call asked for, by name whether it was passed by position or keyword."""
    names = {
        "call_tool": ("tool", "arguments", "meta"),
        "get_prompt": ("name", "arguments"),
        "read_resource": ("uri",),
    }[method]
    given = dict(zip(names, args, strict=False))
    given.update({("tool" if key == "tool_name" else key): value for key, value in kwargs.items()})
    entry: dict[str, Any] = {"method": method}
    for name in names:
        value = given.get(name)
        if name == "meta" and value is None:
            continue
        entry[name] = str(value) if name == "uri" else jsonable(value)
    return entry


def jsonable(value: Any) -> Any:
    from pydantic_core import to_jsonable_python

    return to_jsonable_python(value, fallback=repr)
