"""Builders for what a tool call returns: ``CallToolResult``s and protocol errors.

Each returns the installed ``mcp``'s own types, the very objects a real server's answer
becomes in the SDK, so a step's ``result`` (or a responder) can use them directly.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from agents_testing.core import cycle_problem, safe_repr

from .._errors import InvalidMCPArgument
from .._wire import build, dump, protocol_error

if TYPE_CHECKING:
    from mcp.types import CallToolResult

__all__ = [
    "error_result",
    "image_result",
    "json_result",
    "mcp_error",
    "text_result",
    "tool_result",
]

INTERNAL_ERROR = -32603
_UNSET: Any = object()


def _refuse(argument: str, expected: str, value: object) -> InvalidMCPArgument:
    got = type(value).__name__
    return InvalidMCPArgument(
        f"{argument} must be {expected}, got {got}.", argument=argument, expected=expected, got=got
    )


def _content_item(argument: str, item: object) -> dict[str, Any]:
    if isinstance(item, str):
        return {"type": "text", "text": item}
    if isinstance(item, BaseModel):
        return dump(item)
    if isinstance(item, Mapping):
        return dict(item)
    raise _refuse(argument, "a str, an mcp.types content block or its wire dict", item)


def tool_result(
    content: Iterable[object] = (),
    *,
    structured: Any = _UNSET,
    is_error: bool = False,
    meta: Mapping[str, Any] | None = None,
) -> CallToolResult:
    """A ``CallToolResult`` with ``content`` (strings become text blocks; ``mcp.types``
    content blocks and their wire dicts are kept), optional ``structuredContent``, the
    ``isError`` flag and ``_meta``."""
    from mcp.types import CallToolResult

    if isinstance(content, (str, bytes, Mapping, BaseModel)) or not isinstance(content, Iterable):
        raise _refuse("tool_result(content)", "a sequence of content blocks", content)
    content = list(content)
    for argument, value in (("content", content), ("structured", structured)):
        problem = cycle_problem(value, argument)
        if problem is not None:
            # A server sends JSON data: a value that contains itself has no such form.
            raise InvalidMCPArgument(
                f"tool_result({argument}) must be JSON data; {problem}.",
                argument=f"tool_result({argument})",
                expected="JSON data without a reference cycle",
                got=type(value).__name__,
            )
    if not isinstance(is_error, bool):
        raise _refuse("tool_result(is_error)", "a bool", is_error)
    data: dict[str, Any] = {
        "content": [
            _content_item(f"tool_result(content)[{index}]", item)
            for index, item in enumerate(content)
        ],
        "isError": is_error,
    }
    if structured is not _UNSET and structured is not None:
        data["structuredContent"] = structured
    if meta is not None:
        if not isinstance(meta, Mapping):
            raise _refuse("tool_result(meta)", "a mapping", meta)
        data["_meta"] = dict(meta)
    try:
        return build(CallToolResult, data)
    except ValidationError as error:
        detail = "; ".join(
            f"{'.'.join(map(str, issue['loc']))}: {issue['msg']}" for issue in error.errors()[:3]
        )
        raise InvalidMCPArgument(
            f"tool_result() cannot make a CallToolResult of these values: {detail}.",
            argument="tool_result()",
            expected="content blocks and structured content the installed mcp accepts",
            got=detail,
        ) from None


def text_result(*texts: str, structured: Any = _UNSET, is_error: bool = False) -> CallToolResult:
    """A result of one text block per string (none for no strings), as most tools return."""
    for index, text in enumerate(texts):
        if not isinstance(text, str):
            raise _refuse(f"text_result(texts)[{index}]", "a str", text)
    return tool_result(texts, structured=structured, is_error=is_error)


def json_result(value: Any, *, text: str | None = None) -> CallToolResult:
    """A structured result: ``structuredContent`` is ``value`` and one text block carries
    the same value as JSON (or ``text``), written as servers that declare an output
    schema write it: ``pydantic_core.to_json(value, fallback=str, indent=2)``, so the
    model reads the very text a real server would send."""
    from pydantic_core import to_json, to_jsonable_python

    problem = cycle_problem(value, "value")
    if problem is not None:
        raise InvalidMCPArgument(
            f"json_result(value) must be JSON data; {problem}.",
            argument="json_result(value)",
            expected="JSON data without a reference cycle",
            got=type(value).__name__,
        )
    if text is None:
        try:
            text = to_json(value, fallback=str, indent=2).decode()
        except (TypeError, ValueError) as error:
            raise InvalidMCPArgument(
                f"json_result(value) must be JSON data ({error}); got {type(value).__name__}.",
                argument="json_result(value)",
                expected="JSON data (dicts, lists, strings, numbers, booleans, None)",
                got=type(value).__name__,
            ) from None
    elif not isinstance(text, str):
        raise _refuse("json_result(text)", "a str", text)
    # What the client receives is JSON: values JSON has no form for arrive as their text.
    structured = to_jsonable_python(value, fallback=str)
    if not isinstance(structured, dict):
        raise InvalidMCPArgument(
            f"json_result(value) must be JSON data whose top level is an object (a dict), "
            f"as structuredContent is; got {type(value).__name__}. A tool whose output is "
            f"another value sends it as {{'result': value}}.",
            argument="json_result(value)",
            expected="a dict of JSON data",
            got=type(value).__name__,
        )
    return tool_result([text], structured=structured)


def error_result(*texts: str, structured: Any = _UNSET) -> CallToolResult:
    """A result the tool flags as failed (``isError``), carrying ``texts`` for the model."""
    for index, text in enumerate(texts):
        if not isinstance(text, str):
            raise _refuse(f"error_result(texts)[{index}]", "a str", text)
    return tool_result(texts, structured=structured, is_error=True)


def image_result(data: bytes | str, mime_type: str, *, text: str | None = None) -> CallToolResult:
    """A result holding one image block (``data`` as bytes, or already base64 text),
    optionally followed by a text block."""
    if isinstance(data, (bytes, bytearray)):
        encoded = base64.b64encode(bytes(data)).decode("ascii")
    elif isinstance(data, str):
        encoded = data
    else:
        raise _refuse("image_result(data)", "bytes or base64 text", data)
    if not isinstance(mime_type, str) or not mime_type:
        raise _refuse("image_result(mime_type)", "a MIME type such as 'image/png'", mime_type)
    blocks: list[object] = [{"type": "image", "data": encoded, "mimeType": mime_type}]
    if text is not None:
        blocks.append(text)
    return tool_result(blocks)


def mcp_error(message: str, *, code: int = INTERNAL_ERROR, data: Any = None) -> Exception:
    """The protocol error the installed ``mcp`` client raises when a server answers a
    request with a JSON-RPC error (``McpError`` on mcp 1, ``MCPError`` on mcp 2); script
    it as a step's ``error``. ``code`` defaults to the protocol's internal error."""
    if not isinstance(message, str):
        raise _refuse("mcp_error(message)", "a str", message)
    if isinstance(code, bool) or not isinstance(code, int):
        raise InvalidMCPArgument(
            f"mcp_error(code) must be an int, got {safe_repr(code, 40)}.",
            argument="mcp_error(code)",
            expected="an int",
            got=type(code).__name__,
        )
    return protocol_error(code, message, data)


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
