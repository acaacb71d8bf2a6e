"""The automatic streaming lifecycle of tool-call items, for ``stream_all_items=True``.

Between an item's "added" and "done" events the Responses API streams progress events
of its own for hosted tools (``response.web_search_call.searching``, MCP argument
deltas, code interpreter code deltas, custom tool input deltas, ...). Items without
such events (computer, local shell, approval requests, tool search) stream as "added"
then "done". Events are built from the installed openai's own models by their
``type``; an event type that release does not have is left out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, get_args

from agents.items import TResponseStreamEvent

from .._script.validation import STREAM_EVENT_CLASSES

__all__ = ["TOOL_LIFECYCLE_TYPES", "started_tool_item", "tool_events"]

TOOL_LIFECYCLE_TYPES = frozenset(
    {
        "code_interpreter_call",
        "computer_call",
        "custom_tool_call",
        "file_search_call",
        "image_generation_call",
        "local_shell_call",
        "mcp_approval_request",
        "mcp_call",
        "mcp_list_tools",
        "shell_call",
        "tool_search_call",
        "web_search_call",
    }
)
"""Output item types that stream automatically only with ``stream_all_items=True``."""


def _type_of(cls: Any) -> str | None:
    args = get_args(cls.model_fields["type"].annotation) if "type" in cls.model_fields else ()
    return args[0] if len(args) == 1 and isinstance(args[0], str) else None


_EVENT_CLASSES: dict[str, Any] = {
    kind: cls for cls in STREAM_EVENT_CLASSES if (kind := _type_of(cls)) is not None
}

# The streamed text field of each item type, empty in its "added" event.
_STREAMED_FIELD = {
    "code_interpreter_call": "code",
    "custom_tool_call": "input",
    "mcp_call": "arguments",
}

# Progress events around the item's streamed text: (before, after).
_PROGRESS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "web_search_call": (
        ("response.web_search_call.in_progress", "response.web_search_call.searching"),
        ("response.web_search_call.completed",),
    ),
    "file_search_call": (
        ("response.file_search_call.in_progress", "response.file_search_call.searching"),
        ("response.file_search_call.completed",),
    ),
    "code_interpreter_call": (
        ("response.code_interpreter_call.in_progress",),
        (
            "response.code_interpreter_call.interpreting",
            "response.code_interpreter_call.completed",
        ),
    ),
    "image_generation_call": (
        (
            "response.image_generation_call.in_progress",
            "response.image_generation_call.generating",
        ),
        ("response.image_generation_call.completed",),
    ),
    "mcp_call": (("response.mcp_call.in_progress",), ("response.mcp_call.completed",)),
    "mcp_list_tools": (
        ("response.mcp_list_tools.in_progress",),
        ("response.mcp_list_tools.completed",),
    ),
}

# The delta and done events of the streamed text, with the done event's text field.
_TEXT_EVENTS = {
    "code_interpreter_call": (
        "response.code_interpreter_call_code.delta",
        "response.code_interpreter_call_code.done",
        "code",
    ),
    "custom_tool_call": (
        "response.custom_tool_call_input.delta",
        "response.custom_tool_call_input.done",
        "input",
    ),
    "mcp_call": (
        "response.mcp_call_arguments.delta",
        "response.mcp_call_arguments.done",
        "arguments",
    ),
}


def started_tool_item(item: Any) -> Any:
    """The item as its "added" event carries it: in progress, streamed text still empty."""
    update: dict[str, Any] = {}
    if "status" in type(item).model_fields:
        update["status"] = "in_progress"
    field = _STREAMED_FIELD.get(item.type)
    if field is not None:
        update[field] = ""
    return item.model_copy(update=update)


def tool_events(
    item: Any, item_id: str, index: int, number: Callable[[], int]
) -> Iterator[TResponseStreamEvent]:
    """The events of ``item`` between its "added" and "done" events."""
    kind = item.type
    before, after = _PROGRESS.get(kind, ((), ()))
    if kind == "mcp_call" and item.status == "failed":
        after = ("response.mcp_call.failed",)
    if kind == "mcp_list_tools" and item.error:
        after = ("response.mcp_list_tools.failed",)
    common = {"item_id": item_id, "output_index": index}
    for event_type in before:
        yield from _event(event_type, number, common)
    text_events = _TEXT_EVENTS.get(kind)
    if text_events is not None:
        delta_type, done_type, done_field = text_events
        text = getattr(item, done_field) or ""
        if text:
            yield from _event(delta_type, number, {**common, "delta": text})
        yield from _event(done_type, number, {**common, done_field: text})
    if kind == "shell_call":
        yield from _shell_command_events(item, index, number)
    for event_type in after:
        yield from _event(event_type, number, common)


def _shell_command_events(
    item: Any, index: int, number: Callable[[], int]
) -> Iterator[TResponseStreamEvent]:
    for command_index, command in enumerate(item.action.commands):
        common = {"output_index": index, "command_index": command_index}
        prefix = "response.shell_call_command"
        yield from _event(f"{prefix}.added", number, {**common, "command": ""})
        if command:
            yield from _event(f"{prefix}.delta", number, {**common, "delta": command})
        yield from _event(f"{prefix}.done", number, {**common, "command": command})


def _event(
    event_type: str, number: Callable[[], int], fields: dict[str, Any]
) -> Iterator[TResponseStreamEvent]:
    cls = _EVENT_CLASSES.get(event_type)
    if cls is None:
        return
    yield cls.model_validate({"type": event_type, "sequence_number": number(), **fields})
