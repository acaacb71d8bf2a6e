"""Snapshots of the values that cross the session: call arguments and static results.

A value is frozen once, when it is recorded or scripted, and thawed into a fresh copy
each time it is handed out. In order: immutable values are shared; any ``io.BytesIO``
or ``io.StringIO`` (subclasses included, callable ones too) becomes a
:class:`StreamSnapshot`, and any other stream is refused; tuples, lists, dicts and sets
are walked, so a stream inside them is captured the same way; other callables keep
their identity; anything else is deep-copied with ``copy.deepcopy``'s protocol.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import PurePath
from typing import Any

from agents_testing.core import UncopyableValue, detach

from .streams import StreamRefused, StreamSnapshot, capture_stream

__all__ = ["CopyFailed", "freeze", "frozen", "holds_stream", "is_plain", "thaw"]

# Values that cannot change, so a snapshot may share them.
_ATOMIC: frozenset[type] = frozenset(
    {str, int, float, bool, bytes, complex, type(None), range, type(Ellipsis)}
)


class CopyFailed(Exception):
    """A value whose deep copy raised; ``original`` is the exception it raised."""

    def __init__(self, original: BaseException) -> None:
        super().__init__(type(original).__name__)
        self.original = original


def is_plain(value: object) -> bool:
    """Whether ``value`` is shared as it is by :func:`freeze` and :func:`thaw` alike."""
    return type(value) in _ATOMIC or isinstance(value, PurePath)


def freeze(value: Any) -> Any:
    """A private snapshot of ``value``.

    Raises ``StreamRefused`` for a stream that cannot be captured and
    :class:`CopyFailed` for a value whose copy raised; nothing of ``value`` is changed.
    """
    kind = type(value)
    if kind in _ATOMIC or isinstance(value, PurePath):
        return value
    if isinstance(value, io.IOBase):
        return capture_stream(value)
    if kind in _CONTAINERS:
        return _rebuilt(value, kind, freeze)
    if callable(value):
        return value
    try:
        return detach(value)
    except UncopyableValue as uncopyable:
        # detach keeps the value's own exception as the cause; that is the one to report.
        original = uncopyable.__cause__ or uncopyable
    raise CopyFailed(original)


def thaw(value: Any) -> Any:
    """A fresh copy of a snapshot made by :func:`freeze`, sharing nothing mutable with it."""
    kind = type(value)
    if kind in _ATOMIC:
        return value
    if kind is StreamSnapshot:
        return value.fresh()
    if kind in _CONTAINERS:
        return _rebuilt(value, kind, thaw)
    if callable(value) or isinstance(value, PurePath):
        return value
    return detach(value)


def frozen(value: Any) -> tuple[Any, StreamRefused | None, BaseException | None]:
    """:func:`freeze` of ``value``, or why not: the stream refused, or the exception its
    copy raised. Nothing is raised, so the caller raises its own error outside any handler
    (the value's own exception is then chained to nothing of ours)."""
    try:
        return freeze(value), None, None
    except StreamRefused as refused:
        return None, refused, None
    except CopyFailed as failed:
        return None, None, failed.original


def _rebuilt(value: Any, kind: type, copy: Callable[[Any], Any]) -> Any:
    """A tuple, list, dict, set or frozenset rebuilt of ``copy`` of each item (and key)."""
    if kind is dict:
        return {copy(key): copy(item) for key, item in value.items()}
    items = [copy(item) for item in value]
    return items if kind is list else kind(items)


_CONTAINERS: frozenset[type] = frozenset({tuple, list, dict, set, frozenset})


def holds_stream(value: Any) -> bool:
    """Whether a snapshot holds a captured stream, which every use must get afresh."""
    kind = type(value)
    if kind is StreamSnapshot:
        return True
    if kind is tuple or kind is list or kind is set or kind is frozenset:
        return any(holds_stream(item) for item in value)
    if kind is dict:
        return any(holds_stream(key) or holds_stream(item) for key, item in value.items())
    return False
