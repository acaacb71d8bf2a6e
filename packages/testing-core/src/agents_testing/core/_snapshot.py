"""Detached snapshots of call data.

Whatever the SDK or the test hands to a double may be mutated afterwards; recorded
history must not change with it. :func:`detach` copies plain data and pydantic models
deeply and leaves everything else to ``copy.deepcopy``; live runtime objects (tools,
handoffs, tracing, sessions) are never passed through it, so they keep their identity.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any, TypeVar

from pydantic import BaseModel

__all__ = ["SnapshotCache", "detach", "readonly"]

T = TypeVar("T")

_ATOMIC: frozenset[type] = frozenset(
    {str, int, float, bool, bytes, complex, type(None), frozenset, range, type(Ellipsis)}
)


def detach(value: T) -> T:
    """Return a deep copy of ``value`` that shares no mutable state with it."""
    return _detach(value)  # type: ignore[no-any-return]


def _detach(value: Any) -> Any:
    kind = type(value)
    if kind in _ATOMIC:
        return value
    if kind is dict:
        return {key: _detach(item) for key, item in value.items()}
    if kind is list:
        return [_detach(item) for item in value]
    if kind is tuple:
        return tuple(_detach(item) for item in value)
    if isinstance(value, BaseModel):
        return value.model_copy(deep=True)
    if kind is bytearray:
        return bytearray(value)
    if kind is MappingProxyType:
        return MappingProxyType(_detach(dict(value)))
    return copy.deepcopy(value)


def readonly(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    """A read-only, detached view of ``mapping``."""
    return MappingProxyType(_detach(dict(mapping)))


class SnapshotCache:
    """Share one private snapshot among the calls that pass an unchanged item again.

    A runner resends the whole conversation on every turn, so copying every item on
    every call is quadratic in time and memory. The cache keeps one snapshot per item
    object and reuses it while the item still compares equal to it; a mutated item
    gets a fresh snapshot. Snapshots handed out by the cache are private: callers
    must :func:`detach` them again before giving them to a user.
    """

    __slots__ = ("_by_id", "_recent")

    #: How many recently snapshotted sequences :meth:`snapshot_sequence` compares with.
    RECENT_SEQUENCES = 8

    def __init__(self) -> None:
        self._by_id: dict[int, Any] = {}
        self._recent: list[tuple[Any, ...]] = []

    def snapshot(self, value: T) -> T:
        """A private snapshot equal to ``value``, shared with earlier equal calls."""
        key = id(value)
        known = self._by_id.get(key)
        # Equality, not identity, decides reuse: an id reused by an equal object
        # may share the snapshot safely, a mutated object may not.
        if known is not None and type(known) is type(value) and known == value:
            return known
        fresh = _detach(value)
        self._by_id[key] = fresh
        return fresh  # type: ignore[no-any-return]

    def snapshot_like(self, value: T, previous: T | None) -> T:
        """``previous`` when it is an equal snapshot of ``value``, else :meth:`snapshot`."""
        if previous is not None and type(previous) is type(value) and previous == value:
            return previous
        return self.snapshot(value)

    def snapshot_sequence(self, values: Iterable[T]) -> tuple[T, ...]:
        """Private snapshots of ``values``, sharing items with a recent equal-prefixed sequence.

        Runners rebuild every item of the conversation on each turn, so identity cannot
        find the earlier snapshot; position can. An item equal to the snapshot at the
        same position of the most recent sequence that starts with an equal item reuses
        that snapshot; any other item goes through :meth:`snapshot`.
        """
        items = list(values)
        previous: tuple[Any, ...] = ()
        found = -1
        if items:
            first = items[0]
            for index, candidate in enumerate(self._recent):
                head = candidate[0]
                if type(head) is type(first) and head == first:
                    previous, found = candidate, index
                    break
        shared = min(len(previous), len(items))
        # Fast path, compared in C: the whole shared prefix is unchanged.
        if shared and previous[:shared] == tuple(items[:shared]):
            result: list[Any] = list(previous[:shared])
            start = shared
        else:
            result, start = [], 0
        append = result.append
        for position in range(start, len(items)):
            item = items[position]
            if position < shared:
                known = previous[position]
                if type(known) is type(item) and known == item:
                    append(known)
                    continue
            append(self.snapshot(item))
        snapshots = tuple(result)
        if snapshots:
            if found >= 0:
                del self._recent[found]
            self._recent.insert(0, snapshots)
            del self._recent[self.RECENT_SEQUENCES :]
        return snapshots
