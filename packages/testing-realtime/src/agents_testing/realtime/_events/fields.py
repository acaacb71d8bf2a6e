"""Type checks of scripted incoming events' fields against the SDK's annotations.

The SDK's event dataclasses do not check their fields, so ``delta=[1]`` or
``item_id=True`` would only fail deep inside a session. The annotations are read from
the installed SDK, so fields added by newer releases are checked too; annotations this
module does not understand are accepted rather than guessed at.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from pydantic import BaseModel

__all__ = ["field_problem"]

# Nested dataclasses (a usage event's Usage) are checked too, to this depth.
_MAX_DEPTH = 4


@cache
def _hints(kind: type) -> tuple[tuple[str, Any], ...]:
    """The resolved annotation of every dataclass field of ``kind``."""
    try:
        hints = get_type_hints(kind)
    except Exception:  # an annotation the installed SDK cannot resolve: check nothing
        return ()
    return tuple(
        (field.name, hints[field.name]) for field in dataclasses.fields(kind) if field.name in hints
    )


def field_problem(value: object) -> tuple[str, str] | None:
    """``(field path, reason)`` for the first field of dataclass ``value`` of the wrong type.

    ``None`` when every field fits its annotation (or ``value`` is no dataclass).
    """
    return _dataclass_problem(value, 0, set())


def _dataclass_problem(value: object, depth: int, seen: set[int]) -> tuple[str, str] | None:
    if not dataclasses.is_dataclass(value) or isinstance(value, type) or id(value) in seen:
        return None
    seen.add(id(value))
    for name, annotation in _hints(type(value)):
        field_value = getattr(value, name, None)
        expected = _mismatch(field_value, annotation)
        if expected is not None:
            return name, f"must be {expected}, got {type(field_value).__name__}"
        if depth < _MAX_DEPTH and dataclasses.is_dataclass(field_value):
            inner = _dataclass_problem(field_value, depth + 1, seen)
            if inner is not None:
                return f"{name}.{inner[0]}", inner[1]
    return None


def _mismatch(value: object, annotation: Any) -> str | None:
    """What ``annotation`` asks for when ``value`` does not fit it, else ``None``."""
    if annotation is Any or isinstance(annotation, typing.TypeVar):
        return None
    origin = get_origin(annotation)
    if origin is Literal:
        choices = get_args(annotation)
        if any(type(value) is type(choice) and value == choice for choice in choices):
            return None
        return "one of " + ", ".join(repr(choice) for choice in choices)
    if origin is Union or origin is types.UnionType:
        arms = get_args(annotation)
        if all(_mismatch(value, arm) is not None for arm in arms):
            return " or ".join(_describe(arm) for arm in arms)
        return None
    if origin is typing.Annotated:
        return _mismatch(value, get_args(annotation)[0])
    if origin is not None:
        # A parameterized container (list[...], dict[...]): check the container only.
        if isinstance(origin, type) and not isinstance(value, origin):
            return origin.__name__
        return None
    if annotation is None or annotation is type(None):
        return None if value is None else "None"
    if not isinstance(annotation, type):
        return None
    if annotation is bool:
        return None if type(value) is bool else "bool"
    if annotation is int:
        return None if isinstance(value, int) and type(value) is not bool else "int"
    if annotation is float:
        fits = isinstance(value, (int, float)) and type(value) is not bool
        return None if fits else "float"
    if issubclass(annotation, BaseModel) or dataclasses.is_dataclass(annotation):
        return None if isinstance(value, annotation) else annotation.__name__
    try:
        return None if isinstance(value, annotation) else annotation.__name__
    except TypeError:  # a protocol or other class isinstance cannot test
        return None


def _describe(annotation: Any) -> str:
    if annotation is None or annotation is type(None):
        return "None"
    origin = get_origin(annotation)
    if origin is Literal:
        return "one of " + ", ".join(repr(choice) for choice in get_args(annotation))
    if origin is Union or origin is types.UnionType:
        return " or ".join(_describe(arm) for arm in get_args(annotation))
    name = getattr(origin or annotation, "__name__", None)
    return name if isinstance(name, str) else str(annotation)
