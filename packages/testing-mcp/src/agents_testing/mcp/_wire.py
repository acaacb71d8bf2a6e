"""MCP types made and read through their wire names, the same on ``mcp`` 1 and 2.

``mcp`` 1 names the fields of its pydantic models as the protocol does (``inputSchema``,
``isError``); ``mcp`` 2 names them in snake case (``input_schema``, ``is_error``) and keeps
the protocol names as aliases. Validating from, and dumping to, the wire form works on
both, so the rest of the package never spells a field name in Python.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel

__all__ = ["attribute", "build", "dump", "protocol_error", "protocol_error_class", "error_data"]

M = TypeVar("M", bound=BaseModel)

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


def build(kind: type[M], data: Mapping[str, Any]) -> M:
    """A ``kind`` (an ``mcp.types`` model) from its wire form."""
    return kind.model_validate(dict(data))


def dump(model: BaseModel) -> dict[str, Any]:
    """The wire form of an ``mcp.types`` model as JSON data, unset fields left out.

    ``mcp`` 2 writes ``resultType: "complete"`` on every result, a field ``mcp`` 1 does
    not know; the default is left out so that the same data reads on both.
    """
    data = model.model_dump(mode="json", by_alias=True, exclude_none=True)
    if data.get("resultType") == "complete":
        del data["resultType"]
    return data


def attribute(model: object, wire_name: str) -> Any:
    """The field of ``model`` that the protocol calls ``wire_name`` (``inputSchema``)."""
    if hasattr(model, wire_name):
        return getattr(model, wire_name)
    return getattr(model, _CAMEL.sub("_", wire_name).lower(), None)


def protocol_error_class() -> type[Exception]:
    """The exception the installed ``mcp`` raises for a JSON-RPC error from a server."""
    from mcp.shared import exceptions

    found = vars(exceptions).get("MCPError") or vars(exceptions)["McpError"]
    if not (isinstance(found, type) and issubclass(found, Exception)):
        raise TypeError(f"mcp's protocol error is not an exception class: {found!r}")
    return found


def protocol_error(code: int, message: str, data: Any = None) -> Exception:
    """A protocol error as the installed ``mcp`` client raises it for an error response."""
    kind = protocol_error_class()
    if kind.__name__ == "McpError":  # mcp 1: the error data is one argument
        from mcp.types import ErrorData

        payload: dict[str, Any] = {"code": code, "message": message}
        if data is not None:
            payload["data"] = data
        return kind(ErrorData.model_validate(payload))
    return kind(code, message, data)


def error_data(error: BaseException) -> dict[str, Any] | None:
    """``{"code", "message"[, "data"]}`` of a protocol error, or None for another error."""
    if not isinstance(error, protocol_error_class()):
        return None
    payload = getattr(error, "error", None)
    if not isinstance(payload, BaseModel):
        return None
    return payload.model_dump(mode="json", exclude_none=True)
