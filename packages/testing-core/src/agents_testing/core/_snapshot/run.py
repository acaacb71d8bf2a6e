"""The trajectory of a finished run as small plain dicts, for :func:`to_snapshot`.

Items are told apart by their ``type`` string (the same from 0.14 to 0.24), not by
class, so an item kind that a newer SDK adds still gets a generic entry.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .._errors import UnsnapshottableValue

__all__ = ["run_result_data"]


def run_result_data(result: Any, path: str) -> dict[str, Any]:
    """``{"items": [...], "final_output": ..., "last_agent": ...}`` of a finished run."""
    if getattr(result, "is_complete", True) is not True:
        raise UnsnapshottableValue(
            path,
            f"{type(result).__module__}.{type(result).__qualname__}",
            "the streamed run has not finished; consume result.stream_events() to the end "
            "before taking its snapshot",
        )
    tool_names: dict[str, str] = {}
    items = [_item(item, tool_names) for item in result.new_items]
    return {
        "items": items,
        "final_output": result.final_output,
        "last_agent": _agent_name(result.last_agent),
    }


def _item(item: Any, tool_names: dict[str, str]) -> dict[str, Any]:
    kind = str(getattr(item, "type", type(item).__name__))
    raw = getattr(item, "raw_item", None)
    agent = _agent_name(getattr(item, "agent", None))
    if kind == "message_output_item":
        return {"type": "message", "agent": agent, **_message_parts(raw)}
    if kind == "tool_call_item":
        return _tool_call(raw, agent, tool_names)
    if kind == "tool_call_output_item":
        call_id = _field(raw, "call_id")
        return {
            "type": "tool_output",
            "agent": agent,
            "tool": tool_names.get(call_id) if isinstance(call_id, str) else None,
            "call_id": call_id,
            "output": _field(raw, "output"),
        }
    if kind == "handoff_call_item":
        return {
            "type": "handoff_call",
            "agent": agent,
            "tool": _field(raw, "name"),
            "call_id": _field(raw, "call_id"),
        }
    if kind == "handoff_output_item":
        return {
            "type": "handoff",
            "from": _agent_name(getattr(item, "source_agent", None)),
            "to": _agent_name(getattr(item, "target_agent", None)),
            "call_id": _field(raw, "call_id"),
        }
    if kind == "reasoning_item":
        return {
            "type": "reasoning",
            "agent": agent,
            "summary": [_field(part, "text") for part in _field(raw, "summary") or ()],
        }
    return {"type": kind.removesuffix("_item"), "agent": agent, "raw": raw}


def _tool_call(raw: Any, agent: str | None, tool_names: dict[str, str]) -> dict[str, Any]:
    call_type = _field(raw, "type")
    name = _field(raw, "name")
    call_id = _field(raw, "call_id")
    tool = name if isinstance(name, str) else call_type
    if isinstance(call_id, str) and isinstance(tool, str):
        tool_names[call_id] = tool
    data: dict[str, Any] = {"type": "tool_call", "agent": agent, "tool": tool, "call_id": call_id}
    namespace = _field(raw, "namespace")
    if namespace is not None:
        data["namespace"] = namespace
    arguments = _field(raw, "arguments")
    if isinstance(arguments, str):
        data["arguments"] = _parsed(arguments)
    if call_type != "function_call":
        # Hosted and built-in tool calls carry their own fields; keep them whole.
        data["raw"] = raw
    return data


def _message_parts(raw: Any) -> dict[str, Any]:
    texts: list[str] = []
    refusals: list[str] = []
    for part in _field(raw, "content") or ():
        part_type = _field(part, "type")
        if part_type == "output_text":
            texts.append(str(_field(part, "text")))
        elif part_type == "refusal":
            refusals.append(str(_field(part, "refusal")))
    data: dict[str, Any] = {"text": "".join(texts)}
    if refusals:
        data["refusal"] = "".join(refusals)
    return data


def _parsed(arguments: str) -> Any:
    """Tool arguments as data; text that is not JSON stays as it was sent."""
    try:
        return json.loads(arguments) if arguments.strip() else {}
    except ValueError:
        return arguments


def _field(raw: Any, name: str) -> Any:
    if isinstance(raw, Mapping):
        return raw.get(name)
    return getattr(raw, name, None)


def _agent_name(agent: Any) -> str | None:
    name = getattr(agent, "name", None)
    return name if isinstance(name, str) else None
