"""What a step or a responder may give as a tool result, made a ``CallToolResult``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .builders import text_result

if TYPE_CHECKING:
    from mcp.types import CallToolResult

__all__ = ["RESULT_FORMS", "coerce_result", "fresh_result"]

RESULT_FORMS = (
    "a CallToolResult (text_result(), json_result(), error_result(), tool_result() make "
    "one) or a str for one text block"
)


def coerce_result(value: Any) -> tuple[CallToolResult | None, str | None]:
    """``value`` as a detached ``CallToolResult``, or why it cannot be one."""
    from mcp.types import CallToolResult

    if isinstance(value, CallToolResult):
        return value.model_copy(deep=True), None
    if isinstance(value, str):
        return text_result(value), None
    return None, f"a result must be {RESULT_FORMS}; got {type(value).__name__}"


def fresh_result(result: CallToolResult) -> CallToolResult:
    """A copy of a scripted result for one call: the SDK or the test may change what it gets."""
    return result.model_copy(deep=True)
