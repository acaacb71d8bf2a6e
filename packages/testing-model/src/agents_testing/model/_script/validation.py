"""Shape checks for the values a step holds: output items, usage and raw usage.

A scripted value is checked and snapshotted when its step is queued, so a malformed
value fails where the test wrote it, with the offending field named, instead of deep
inside the runner. Each checker returns the snapshot or a description of the problem.
"""

from __future__ import annotations

import dataclasses
import math
import types
from collections.abc import Mapping
from typing import Annotated, Any, Union, get_args, get_origin

from agents.exceptions import ModelBehaviorError
from agents.usage import Usage
from openai.types.responses import (
    ResponseApplyPatchToolCall,
    ResponseOutputItem,
    ResponseStreamEvent,
)
from pydantic import BaseModel, ValidationError

from agents_testing.core import detach, safe_repr

__all__ = [
    "OUTPUT_ITEM_CLASSES",
    "STREAM_EVENT_CLASSES",
    "ValueProblem",
    "apply_patch_item",
    "checked_json",
    "checked_output_item",
    "checked_usage",
    "describe",
]

_MAX_DEPTH = 64


class ValueProblem(Exception):
    """Internal: why a scripted value was refused; the step checker turns it into an error.

    ``lead`` names the SDK double's sentence for the problem (see ``_errors.STEP_LEADS``)
    where that double refuses the value too.
    """

    def __init__(self, message: str, *, lead: str | None = None) -> None:
        super().__init__(message)
        self.lead = lead


def describe(value: object) -> str:
    """``TypeName <bounded repr>`` of a user value, safe to put in any message."""
    return f"{type(value).__name__} {safe_repr(value, 60)}"


def _members(alias: Any) -> list[type[BaseModel]]:
    origin = get_origin(alias)
    if origin is Annotated:
        return _members(get_args(alias)[0])
    if origin is Union or origin is types.UnionType:
        found: list[type[BaseModel]] = []
        for arg in get_args(alias):
            found.extend(_members(arg))
        return found
    return [alias] if isinstance(alias, type) and issubclass(alias, BaseModel) else []


def _type_literal(cls: type[BaseModel]) -> str | None:
    field = cls.model_fields.get("type")
    args = get_args(field.annotation) if field is not None else ()
    return args[0] if len(args) == 1 and isinstance(args[0], str) else None


OUTPUT_ITEM_CLASSES: dict[str, type[BaseModel]] = {
    kind: cls for cls in _members(ResponseOutputItem) if (kind := _type_literal(cls)) is not None
}
"""The installed openai's output item model for each item ``type``."""

STREAM_EVENT_CLASSES: tuple[type[BaseModel], ...] = tuple(_members(ResponseStreamEvent))
"""The installed openai's normalized Responses stream event models."""


def _validation_problem(error: ValidationError, prefix: str) -> str:
    first = error.errors()[0]
    location = ".".join(str(part) for part in first.get("loc", ()))
    where = f"{prefix}.{location}" if location else prefix
    return f"{where}: {first.get('msg', 'invalid value')} (got {describe(first.get('input'))})"


def checked_output_item(item: object, where: str) -> Any:
    """A validated snapshot of one output item: an SDK item model, or a dict that makes one."""
    if isinstance(item, Mapping):
        return _checked_dict_item(item, where)
    if not isinstance(item, BaseModel):
        raise ValueProblem(
            f"{where} is {describe(item)}; output items are the SDK's normalized models "
            f"(openai.types.responses), e.g. assistant_message('...') or function_call(...)."
        )
    kind = getattr(item, "type", None)
    expected = OUTPUT_ITEM_CLASSES.get(kind) if isinstance(kind, str) else None
    if expected is None or not isinstance(item, expected):
        raise ValueProblem(
            f"{where} is a {type(item).__name__}, which is not an output item (a stream "
            f"event or another model?); output items are the members of "
            f"openai.types.responses.ResponseOutputItem."
        )
    try:
        # Rebuilt from its own fields: checks every value (a field set after the item was
        # made is not validated by pydantic) and leaves a snapshot sharing nothing.
        data = item.model_dump(exclude_unset=True, by_alias=True, warnings=False)
        return type(item).model_validate(data)
    except ValidationError as error:
        raise ValueProblem(_validation_problem(error, where)) from None
    except Exception as error:
        raise ValueProblem(
            f"{where} ({type(item).__name__}) cannot be copied: {type(error).__name__}"
        ) from None


def apply_patch_item(item: Mapping[str, Any]) -> ResponseApplyPatchToolCall:
    """The apply-patch call a plain dict item stands for, as the SDK's runtime builds it.

    ``call_id`` must be a non-empty str and ``id``, when given, too (``id`` defaults to
    the call id); ``status`` defaults to ``"completed"``. Those two refusals are
    ``agents.ModelBehaviorError``s; anything else wrong (a missing ``operation``, an
    unknown status) is the pydantic ``ValidationError`` of the item model.
    """
    call_id = item.get("call_id")
    if not isinstance(call_id, str) or not call_id:
        raise ModelBehaviorError(
            "Tool invocations require a non-empty string call ID before execution. An "
            "apply_patch_call dict item has no usable call_id."
        )
    item_id = item.get("id", call_id)
    if not isinstance(item_id, str) or not item_id:
        raise ModelBehaviorError(
            "Apply-patch tool calls require a non-empty string item ID when provided. An "
            "apply_patch_call dict item has an unusable id."
        )
    fields: dict[str, Any] = {
        "type": "apply_patch_call",
        "id": item_id,
        "call_id": call_id,
        "status": item.get("status", "completed"),
    }
    for name in ("operation", "caller"):
        if name in item:
            fields[name] = item[name]
    # Validated from a detached copy: the item shares nothing with the test's dict.
    return ResponseApplyPatchToolCall.model_validate(detach(fields, wrap_errors=False))


def _checked_dict_item(item: Mapping[Any, Any], where: str) -> BaseModel:
    # ModelResponse validates its output, so the SDK takes a dict (an item's param or
    # TypedDict form) exactly when it makes a valid output item; it becomes that item.
    kind = item.get("type") if all(isinstance(key, str) for key in item) else None
    if kind == "apply_patch_call":
        try:
            return apply_patch_item(item)
        except ModelBehaviorError as error:
            raise ValueProblem(f"{where}: {error}") from None
        except ValidationError as error:
            raise ValueProblem(_validation_problem(error, where)) from None
    expected = OUTPUT_ITEM_CLASSES.get(kind) if isinstance(kind, str) else None
    if expected is None:
        raise ValueProblem(
            f"{where} is a dict with type {safe_repr(kind, 40)}; a dict output item needs "
            f"the 'type' of an output item (e.g. 'apply_patch_call') and its fields."
        )
    try:
        return expected.model_validate(dict(item)).model_copy(deep=True)
    except ValidationError as error:
        raise ValueProblem(_validation_problem(error, where)) from None
    except Exception as error:
        raise ValueProblem(
            f"{where} ({kind} dict) cannot be copied: {type(error).__name__}"
        ) from None


def checked_json(value: object, where: str) -> Any:
    """A detached copy of JSON-compatible ``value`` (str keys); names the first bad part."""
    _check_json(value, where, 0, set())
    return detach(_plain(value))


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def _check_json(value: object, where: str, depth: int, path: set[int]) -> None:
    if value is None or type(value) in (str, int, bool):
        return
    if type(value) is float:
        if not math.isfinite(value):
            raise ValueProblem(f"{where} is {safe_repr(value)}; JSON has no NaN or infinity.")
        return
    if not isinstance(value, (Mapping, list, tuple)):
        raise ValueProblem(f"{where} is {describe(value)}, which is not a JSON value.")
    if depth >= _MAX_DEPTH or id(value) in path:
        raise ValueProblem(f"{where} is nested too deeply or contains itself.")
    path.add(id(value))
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise ValueProblem(f"{where} has the key {describe(key)}; keys must be str.")
            _check_json(item, f"{where}[{safe_repr(key, 40)}]", depth + 1, path)
    else:
        for position, item in enumerate(value):
            _check_json(item, f"{where}[{position}]", depth + 1, path)
    path.discard(id(value))


def checked_usage(usage: object, where: str) -> Usage:
    """A validated snapshot of an ``agents.Usage``, equal to it field for field."""
    if not isinstance(usage, Usage):
        raise ValueProblem(
            f"{where} must be an agents.Usage, got {describe(usage)}.",
            lead="usage" if where == "usage" else None,
        )
    data: dict[str, Any] = {}
    try:
        for field in dataclasses.fields(usage):
            if field.init:
                data[field.name] = _dumped(getattr(usage, field.name))
        return Usage(**data)
    except ValidationError as error:
        raise ValueProblem(_validation_problem(error, where)) from None
    except Exception as error:
        raise ValueProblem(
            f"{where} cannot be copied ({type(error).__name__}); give plain token counts."
        ) from None


def _dumped(value: Any) -> Any:
    # Nested models and dataclasses are turned back into plain data so that building
    # the Usage again validates every nested value too.
    if isinstance(value, BaseModel):
        return value.model_dump(exclude_unset=True, warnings=False)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = dataclasses.fields(value)
        return {field.name: _dumped(getattr(value, field.name)) for field in fields}
    if isinstance(value, list):
        return [_dumped(item) for item in value]
    return value
