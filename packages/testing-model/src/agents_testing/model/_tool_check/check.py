"""Checking scripted function calls against the tools their model call offered.

A scripted ``function_call`` that names a tool the agent does not have, or whose
arguments break the tool's parameter schema, would reach the SDK's tool pipeline,
which turns the failure into a message for the model and lets the script go on. With
the check on, the call that answers with such an item fails instead, with an
:class:`InvalidScriptedToolCall` naming the tool, the argument path and the schema rule.

The names resolve as the runner resolves them: a bare name is a handoff (by its tool
name) or a function tool outside any namespace; ``namespace`` picks a namespaced function
tool. Items that the runner routes elsewhere are left alone: hosted and built-in tool
calls (other item types), an ``apply_patch``-style name when an apply-patch tool is
offered, and ``json_tool_call`` when the agent has an output type.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from openai.types.responses import ResponseCompletedEvent, ResponseOutputItemDoneEvent

from agents_testing.core import compat, safe_repr
from agents_testing.core.json_schema import first_violation, json_type

from .._errors import invalid_tool_call

if TYPE_CHECKING:
    from .._call import ModelCall

__all__ = ["check_stream_event", "check_tool_calls"]


@dataclass(frozen=True)
class _Offered:
    """One name a function call may use in this call, with the schema its arguments follow."""

    name: str
    namespace: str | None
    schema: Any
    handoff: bool

    @property
    def shown(self) -> str:
        return self.name if self.namespace is None else f"{self.namespace}.{self.name}"


def check_tool_calls(call: ModelCall, call_index: int, output: Iterable[Any]) -> None:
    """Raise :class:`InvalidScriptedToolCall` for the first function call in ``output``
    that does not fit the tools and handoffs ``call`` offered."""
    _check_items(call, call_index, enumerate(output))


def check_stream_event(call: ModelCall, call_index: int, event: object) -> None:
    """Check the function calls a strict stream event completes (item done, response done)."""
    if isinstance(event, ResponseOutputItemDoneEvent):
        _check_items(call, call_index, [(event.output_index, event.item)])
    elif isinstance(event, ResponseCompletedEvent):
        _check_items(call, call_index, enumerate(event.response.output))


def _check_items(call: ModelCall, call_index: int, items: Iterable[tuple[int, Any]]) -> None:
    offered: list[_Offered] | None = None
    for position, item in items:
        if _field(item, "type") != "function_call":
            continue
        if offered is None:
            offered = _offered(call)
        _check_one(call, call_index, position, item, offered)


def _offered(call: ModelCall) -> list[_Offered]:
    from agents.tool import FunctionTool

    found = [
        _Offered(tool.name, compat.function_tool_namespace(tool), tool.params_json_schema, False)
        for tool in call.tools
        if isinstance(tool, FunctionTool)
    ]
    found += [
        _Offered(handoff.tool_name, None, handoff.input_json_schema, True)
        for handoff in call.handoffs
    ]
    return found


def _check_one(
    call: ModelCall, call_index: int, position: int, item: Any, offered: list[_Offered]
) -> None:
    name = _field(item, "name")
    namespace = _field(item, "namespace") or None
    if not isinstance(name, str):
        return  # not a function call the runner could dispatch either
    shown = name if namespace is None else f"{namespace}.{name}"
    known = tuple(dict.fromkeys(entry.shown for entry in offered))
    target = _resolve(name, namespace, offered)
    if target is None:
        if _routed_elsewhere(call, name, namespace):
            return
        raise invalid_tool_call("unknown_tool", call_index, position, shown, known)
    arguments = _field(item, "arguments")
    if not isinstance(arguments, str):
        return  # the item's own validation reports it
    try:
        # The runner reads empty arguments as an empty object.
        value = json.loads(arguments) if arguments else {}
    except ValueError as error:
        detail = f"{safe_repr(arguments)} ({error})"
        raise invalid_tool_call(
            "invalid_json", call_index, position, shown, known, "$", None, arguments, detail
        ) from None
    if not isinstance(value, dict):
        detail = f"expected an object of arguments, got {json_type(value)} {safe_repr(value)}"
        raise invalid_tool_call(
            "invalid_arguments", call_index, position, shown, known, "$", "type", value, detail
        )
    violation = first_violation(value, target.schema)
    if violation is not None:
        raise invalid_tool_call(
            "invalid_arguments",
            call_index,
            position,
            shown,
            known,
            violation.path,
            violation.rule,
            violation.value,
            violation.message,
        )


def _resolve(name: str, namespace: str | None, offered: list[_Offered]) -> _Offered | None:
    if namespace is None:
        # The runner tries handoffs first, and only for bare names.
        for entry in offered:
            if entry.handoff and entry.name == name:
                return entry
    # The last match wins, as in the runner's lookup table. A namespace equal to the
    # name is how a deferred top-level tool comes back, so it matches the bare tool.
    match = None
    for entry in offered:
        if entry.handoff or entry.name != name:
            continue
        if entry.namespace == namespace or (entry.namespace is None and namespace == name):
            match = entry
    return match


def _routed_elsewhere(call: ModelCall, name: str, namespace: str | None) -> bool:
    if namespace is not None:
        return False
    if name == "json_tool_call" and call.output_schema is not None:
        return True  # the runner's structured-output fallback for some providers
    from agents.tool import ApplyPatchTool

    for tool in call.tools:
        if isinstance(tool, ApplyPatchTool):
            candidate = name.strip().lower()
            return candidate.startswith("apply_patch") or candidate == tool.name.strip().lower()
    return False


def _field(item: Any, key: str) -> Any:
    if isinstance(item, Mapping):
        return item.get(key)
    return getattr(item, key, None)
