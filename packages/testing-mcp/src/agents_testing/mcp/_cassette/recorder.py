"""Recording a live MCP server: its public requests wrapped on that one object.

Every listing that differs from the one before it, and every call with its arguments and
result (or error), in the protocol's wire form; nothing about how the server is reached.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents_testing.core.cassette import CallRecorder, error_json

from .._wire import dump, error_data

__all__ = ["LISTINGS", "Recorder", "jsonable"]

LISTINGS = {
    "list_tools": "tools",
    "list_prompts": "prompts",
    "list_resources": "resources",
    "list_resource_templates": "resourceTemplates",
}


def _error_entry(error: BaseException) -> dict[str, Any]:
    entry = error_json(error)
    data = error_data(error)
    if data is not None:
        entry["protocol"] = data
    return entry


class Recorder(CallRecorder):
    def __init__(self, server: Any) -> None:
        super().__init__()
        self.server = server
        self.calls: list[dict[str, Any]] = []
        self._last: dict[str, Any] = {}

    def _dump(self, value: Any, where: str) -> Any:
        """The wire form of ``value``, or None when it contains itself (noted as unwritable)."""
        return self.json(value, where, dump)

    def header(self) -> dict[str, Any]:
        return {
            "method": "server",
            "name": str(self.server.name),
            "use_structured_content": bool(getattr(self.server, "use_structured_content", False)),
        }

    def listing(self, method: str, items: list[Any]) -> None:
        dumped = [self._dump(item, f"{method}()[{index}]") for index, item in enumerate(items)]
        if self._last.get(method) != dumped:
            self._last[method] = dumped
            self.calls.append({"method": method, "result": dumped})

    def wrap_method(self, method: str) -> None:
        async def record(original: Callable[..., Any], args: Any, kwargs: Any) -> Any:
            return await self._record(method, original, args, kwargs)

        self.wrap(self.server, method, record)

    async def _record(self, method: str, original: Any, args: Any, kwargs: Any) -> Any:
        if method == "list_tools":
            tools = await original(*args, **kwargs)
            self.listing(method, list(tools))
            return tools
        if method in LISTINGS:
            result = await original(*args, **kwargs)
            items = (self._dump(result, f"{method}()") or {}).get(LISTINGS[method], [])
            if self._last.get(method) != items:
                self._last[method] = items
                self.calls.append({"method": method, "result": items})
            return result
        if method == "call_tool" and _refused_before_sending(self.server, args, kwargs):
            # The SDK refuses it in the client: no request reached the server, and a
            # replayed server refuses it the same way before its script.
            return await original(*args, **kwargs)
        entry = _request_entry(method, args, kwargs)
        self.calls.append(entry)
        try:
            result = await original(*args, **kwargs)
        except Exception as error:
            entry["error"] = _error_entry(error)
            raise
        entry["result"] = self._dump(result, f"{method}() result")
        return result


def _refused_before_sending(server: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """Whether the SDK's server refuses this ``call_tool`` before sending a request.

    The SDK's servers refuse a call while not connected, and one that lacks a required
    argument of the tool listing they fetched (or whose arguments are no object), with
    their own ``UserError``; their own check says which calls those are.
    """
    from agents.exceptions import UserError

    if getattr(server, "session", True) is None:
        return True
    check = getattr(server, "_validate_required_parameters", None)
    if not callable(check):
        return False
    given = dict(zip(("tool_name", "arguments"), args, strict=False))
    given.update({key: value for key, value in kwargs.items() if key in ("tool_name", "arguments")})
    try:
        check(tool_name=given.get("tool_name"), arguments=given.get("arguments"))
    except UserError:
        return True
    except Exception:  # a check that cannot judge this call leaves it to the server
        return False
    return False


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
