"""Model settings as cassette JSON: every field, including those the SDK does not serialize.

``ModelSettings.to_json_dict()`` leaves out runtime-only fields (the retry ``policy``, a
callable), yet they change what a run does. Each such field is written too: a callable as
its qualified name with the values it closes over (``retry_policies.http_status([429])``
is ``{"callable": "...http_status.<locals>.policy", "captures": {"allowed": [429]}}``),
so replacing a policy, or changing its arguments, is a difference on replay. A field
the SDK leaves out is written even when it is ``None`` wherever its parent is written,
so that its absence marks a cassette recorded before it was kept: such a recording is
compared without it.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from pydantic import BaseModel
from pydantic_core import to_jsonable_python

__all__ = ["callable_json", "settings_json", "without_unrecorded"]

_REDACTED = "<redacted>"
_DEPTH = 4

Path = tuple[str, ...]


def settings_json(settings: Any) -> tuple[dict[str, Any], tuple[Path, ...]]:
    """``settings`` as cassette JSON, and the paths of the fields added beyond the SDK's dump."""
    if hasattr(settings, "to_json_dict"):
        data = dict(settings.to_json_dict())
    else:
        data = dict(_jsonable(settings))
    added: list[Path] = []
    _add_unserialized(settings, data, (), added)
    data = {key: value for key, value in data.items() if value is not None}
    headers = data.get("extra_headers")
    if isinstance(headers, dict):
        # Header values are client credentials as often as not: names only.
        data["extra_headers"] = {str(key): _REDACTED for key in headers}
    return data, tuple(path for path in added if path[0] in data)


def _add_unserialized(value: Any, data: dict[str, Any], at: Path, added: list[Path]) -> None:
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        return
    for field in dataclasses.fields(value):
        item = getattr(value, field.name, None)
        if field.name not in data:
            data[field.name] = _describe(item, 0)
            added.append((*at, field.name))
        elif isinstance(data[field.name], dict) and item is not None:
            _add_unserialized(item, data[field.name], (*at, field.name), added)


def _jsonable(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", exclude_unset=True)
    return to_jsonable_python(value, fallback=repr)


def _describe(value: Any, depth: int) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if callable(value):
        return callable_json(value, depth)
    if isinstance(value, (list, tuple)):
        return [_describe(item, depth) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted((_describe(item, depth) for item in value), key=repr)
    if isinstance(value, dict):
        return {str(key): _describe(item, depth) for key, item in value.items()}
    try:
        return _jsonable(value)
    except Exception:
        return f"<{type(value).__qualname__}>"


def callable_json(function: Any, depth: int = 0) -> dict[str, Any]:
    """A callable as JSON: its qualified name and, for a closure, the values it captured."""
    if isinstance(function, functools.partial):
        return {
            "callable": "functools.partial",
            "function": callable_json(function.func, depth + 1),
            "args": [_describe(item, depth + 1) for item in function.args],
            "keywords": {
                key: _describe(item, depth + 1) for key, item in function.keywords.items()
            },
        }
    target = getattr(function, "__func__", function)
    module = getattr(target, "__module__", None) or type(target).__module__
    qualname = getattr(target, "__qualname__", None) or type(target).__qualname__
    data: dict[str, Any] = {"callable": f"{module}.{qualname}"}
    code = getattr(target, "__code__", None)
    closure = getattr(target, "__closure__", None)
    if code is not None and closure and depth < _DEPTH:
        captured: dict[str, Any] = {}
        for name, cell in zip(code.co_freevars, closure, strict=False):
            try:
                contents = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if isinstance(contents, type):
                continue  # ``__class__`` of a method using super(): part of the name already
            captured[name] = _describe(contents, depth + 1)
        if captured:
            data["captures"] = captured
    return data


def without_unrecorded(
    live: dict[str, Any], recorded: Any, added: tuple[Path, ...]
) -> dict[str, Any]:
    """``live`` without the added fields that ``recorded`` (an older cassette) does not hold."""
    if not added or not isinstance(recorded, dict):
        return live
    result = live
    for path in added:
        holder: Any = recorded
        for key in path[:-1]:
            holder = holder.get(key) if isinstance(holder, dict) else None
        if isinstance(holder, dict) and path[-1] not in holder:
            result = _drop(result, path)
    return result


def _drop(data: dict[str, Any], path: Path) -> dict[str, Any]:
    head, rest = path[0], path[1:]
    if head not in data:
        return data
    if not rest:
        return {key: value for key, value in data.items() if key != head}
    inner = data[head]
    if not isinstance(inner, dict):
        return data
    return {**data, head: _drop(inner, rest)}
