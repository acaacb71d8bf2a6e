"""Checks on scripted values that every boundary needs: safe descriptions, exceptions,
the callables a step takes and values that contain themselves.

Error messages describe user values, and a message builder must never fail itself:
``repr()`` can raise (an object's own ``__repr__``, or an int too long to print), so
every message goes through :func:`safe_repr`.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import reprlib
from collections.abc import Iterator, Mapping
from typing import Any

__all__ = ["as_sentence", "callable_problem", "cycle_problem", "exception_problem", "safe_repr"]

_REPR = reprlib.Repr()
_REPR.maxstring = 80
_REPR.maxother = 80
_REPR.maxlong = 40


def safe_repr(value: object, limit: int = 120) -> str:
    """A bounded ``repr`` of ``value`` that never raises, for use in error messages."""
    try:
        text = _REPR.repr(value)
    except BaseException as error:  # any failure of a user __repr__
        if isinstance(error, (KeyboardInterrupt, SystemExit)):
            raise
        text = f"<{type(value).__name__} object (repr failed: {type(error).__name__})>"
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return text


_PLAIN_WORD = re.compile(r"[a-z]+ ")


def as_sentence(text: str) -> str:
    """``text`` as a sentence that can follow another: a leading plain lower-case word
    capitalized (not a name such as ``response_id`` or ``'match'``), a period at the end.

    Messages that begin with the SDK's own sentence put the explanation after it this way.
    """
    if _PLAIN_WORD.match(text):
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "?", "!")) else f"{text}."


def exception_problem(value: object, *, allow_base_exceptions: bool = False) -> str | None:
    """Why ``value`` cannot be scripted as an exception to raise, or ``None`` when it can.

    Accepted: an ``Exception`` instance, or an ``Exception`` subclass that can be created
    without arguments (it is created when raised, so that is checked now). Other
    ``BaseException`` kinds (``KeyboardInterrupt``, ``SystemExit``, ``CancelledError``,
    ...) escape ordinary error handling, so they are refused unless the boundary
    propagates them to the caller (``allow_base_exceptions=True``).
    """
    base = BaseException if allow_base_exceptions else Exception
    if isinstance(value, base):
        return None
    if isinstance(value, type) and issubclass(value, base):
        try:
            value()
        except Exception as error:
            return (
                f"{value.__name__}() cannot be created without arguments "
                f"({type(error).__name__}: {safe_repr(str(error), 80)}); pass an instance"
            )
        return None
    if isinstance(value, BaseException) or (
        isinstance(value, type) and issubclass(value, BaseException)
    ):
        name = value.__name__ if isinstance(value, type) else type(value).__name__
        return (
            f"{name} is a BaseException but not an Exception; scripted errors must be "
            "Exception instances or classes"
        )
    return f"expected an exception instance or class, got {type(value).__name__}"


def callable_problem(value: object, role: str, argument: str) -> str | None:
    """Why ``value`` cannot be a step's ``role`` ('match' or 'responder'), or ``None``.

    Both are called with the one call record, named ``argument`` in the message (e.g.
    ``SandboxCall``); a matcher must answer at once, so it may not be async. Where the
    signature can be read, it must accept that argument.
    """
    if isinstance(value, type):
        return f"'{role}' must be a function taking the {argument}, not the class {value.__name__}"
    if not callable(value):
        return f"'{role}' must be callable, got {type(value).__name__}"
    if inspect.isgeneratorfunction(value) or inspect.isasyncgenfunction(value):
        return f"'{role}' must return its value, not be a generator function"
    if role == "match" and inspect.iscoroutinefunction(value):
        return f"'match' must be a plain (not async) callable taking the {argument}"
    try:
        signature = inspect.signature(value)
    except Exception:  # some builtins and exotic callables have none: checked when called
        return None
    try:
        signature.bind(None)
    except TypeError:
        return f"'{role}' must accept one positional argument (the {argument})"
    return None


# Values that hold no others: a walk for cycles never looks inside them.
_LEAVES: frozenset[type] = frozenset(
    {str, bytes, bytearray, int, float, bool, complex, type(None), range, type(Ellipsis)}
)

# A path through a value, kept as links until a message needs it: (parent, how, key),
# ``how`` being "[]" for an item or a mapping key and "." for a field; the root is
# (None, "", name).
_Path = tuple[Any, str, object]


def cycle_problem(value: object, name: str = "value") -> str | None:
    """Why ``value`` cannot be scripted as data because it contains itself, or ``None``.

    Walks dicts (and other mappings), lists, tuples, pydantic models and dataclass
    instances without recursion, so any depth is fine; a value shared by two branches is
    no cycle. The answer names where the reference back sits and what it refers to:
    ``"result['self'] refers back to result, so the value contains itself (a cycle)"``.
    Other objects are not looked into: their copies keep their own cycles.
    """
    found = _find_cycle(value, (None, "", name))
    if found is None:
        return None
    where, target = found
    return (
        f"{_render(where)} refers back to {_render(target)}, so the value contains itself (a cycle)"
    )


def _find_cycle(value: object, root: _Path) -> tuple[_Path, _Path] | None:
    """The first reference back to a container on the way to it, depth first."""
    children = None if type(value) in _LEAVES else _children(value)
    if children is None:
        return None
    # The containers on the current path (with their paths), and those fully walked.
    open_: dict[int, _Path] = {id(value): root}
    done: set[int] = set()
    stack: list[tuple[object, _Path, Iterator[tuple[str, object, object]]]] = [
        (value, root, children)
    ]
    while stack:
        node, path, pending = stack[-1]
        for how, key, child in pending:
            if type(child) in _LEAVES:
                continue
            ident = id(child)
            if ident in open_:
                return (path, how, key), open_[ident]
            if ident in done:
                continue
            grandchildren = _children(child)
            if grandchildren is None:
                continue
            open_[ident] = child_path = (path, how, key)
            stack.append((child, child_path, grandchildren))
            break
        else:
            stack.pop()
            del open_[id(node)]
            done.add(id(node))
    return None


def _children(value: object) -> Iterator[tuple[str, object, object]] | None:
    """``(how, key, item)`` for each value ``value`` holds; None for a value not walked."""
    if isinstance(value, (list, tuple)):
        return (("[]", index, item) for index, item in enumerate(value))
    if isinstance(value, Mapping):
        return (("[]", key, item) for key, item in value.items())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (
            (".", field.name, getattr(value, field.name, None))
            for field in dataclasses.fields(value)
        )
    if isinstance(value, _base_model()):
        extra = value.__pydantic_extra__ or {}
        return ((".", name, item) for name, item in [*value.__dict__.items(), *extra.items()])
    return None


def _base_model() -> type[Any]:
    # Imported when first needed: checking a value costs nothing at import time.
    from pydantic import BaseModel

    return BaseModel


def _render(path: _Path) -> str:
    segments: list[str] = []
    node: Any = path
    while node[0] is not None:
        node, how, key = node
        segments.append(f"[{safe_repr(key, 60)}]" if how == "[]" else f".{key}")
    segments.append(str(node[2]))
    segments.reverse()
    if len(segments) > _SHOWN_SEGMENTS:
        # A deep path keeps its start and its end; the middle says how much was left out.
        left_out = len(segments) - _SHOWN_SEGMENTS
        segments[4 : 4 + left_out] = [f"...<{left_out} more>..."]
    return "".join(segments)


_SHOWN_SEGMENTS = 16


# Public names show agents_testing.core, however this module was first imported.
from .lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
