"""Call arguments and tool results checked against the tool's JSON schemas.

:func:`schema_violation` is the one place that calls a JSON Schema validator; everything
else here decides what to check against which schema.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._wire import attribute

if TYPE_CHECKING:
    from mcp.types import CallToolResult, Tool

__all__ = ["Violation", "argument_violation", "result_violation", "schema_violation"]


@dataclass(frozen=True)
class Violation:
    """Where a value breaks its schema: the JSON path, the keyword, the validator's words."""

    path: str
    rule: str
    detail: str


def schema_violation(value: Any, schema: Any) -> Violation | None:
    """The first place where JSON ``value`` breaks ``schema``, or None when it is valid.

    Core's validator, the one the model boundary checks scripted tool calls with, so both
    boundaries judge a schema alike (jsonschema, the first violation in a stable order).
    """
    from agents_testing.core.json_schema import first_violation

    found = first_violation(value, schema)
    if found is None:
        return None
    return Violation(found.path, found.rule, found.message)


def argument_violation(tool: Tool, arguments: Mapping[str, Any] | None) -> Violation | None:
    """Whether a call's arguments break the tool's ``inputSchema``."""
    schema = attribute(tool, "inputSchema")
    if not isinstance(schema, Mapping):
        return None
    return schema_violation({} if arguments is None else dict(arguments), schema)


def result_violation(tool: Tool, result: CallToolResult) -> Violation | None:
    """Whether a result breaks the tool's ``outputSchema``.

    A tool with an output schema must return structured content that conforms to it; a
    result flagged ``isError`` is exempt, as the protocol has it.
    """
    schema = attribute(tool, "outputSchema")
    if not isinstance(schema, Mapping) or attribute(result, "isError"):
        return None
    structured = attribute(result, "structuredContent")
    if structured is None:
        return Violation(
            "$",
            "structuredContent",
            "the tool declares an outputSchema, so a result needs structuredContent "
            "(json_result() makes one)",
        )
    return schema_violation(structured, schema)
