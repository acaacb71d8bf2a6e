"""One private snapshot shared by the calls that pass an unchanged value again.

Sharing must never change what is recorded: ``1``, ``True`` and ``1.0`` are equal in
Python, and so are ``0.0`` and ``-0.0``, ``b"a"`` and ``bytearray(b"a")``, a dict and
an ``OrderedDict``, or two dicts with their keys in another order; none of them may
stand in for another. So a snapshot is reused only when :func:`same_value` finds the
new value identical to it in value and type throughout.
"""

from __future__ import annotations

import dataclasses
import gc
import itertools
from collections.abc import Iterable, Sequence
from itertools import chain
from math import copysign
from operator import is_
from typing import Any, TypeVar

from pydantic import BaseModel

from .detach import detach

__all__ = ["SnapshotCache", "same_value"]

T = TypeVar("T")

# Deeper (or cyclic) values are simply not shared: a fresh snapshot is always right.
_MAX_DEPTH = 64


def same_value(known: object, value: object) -> bool:
    """Whether ``value`` holds exactly what ``known`` holds: equal values of equal types.

    Compares dict keys in order, floats by sign as well, and pydantic models and
    dataclasses field by field. It answers False when it cannot tell (an object of
    another kind, NaN, a set whose members iterate in another order): callers then
    take a fresh snapshot, which is never wrong.
    """
    return known is value or _same(known, value, 0)


def _same(known: Any, value: Any, depth: int) -> bool:
    if known is value:
        return True
    kind = type(known)
    if kind is not type(value) or depth > _MAX_DEPTH:
        return False
    if kind is str or kind is int or kind is bytes or kind is bytearray:
        return known == value  # type: ignore[no-any-return]
    if kind is float:
        return known == value and copysign(1.0, known) == copysign(1.0, value)
    depth += 1
    if kind is dict:
        if len(known) != len(value):
            return False
        # The very same keys and values in the same order settle it in C.
        if all(map(is_, known, value)) and all(map(is_, known.values(), value.values())):
            return True
        for (known_key, known_item), (key, item) in zip(known.items(), value.items(), strict=True):
            if known_key is not key and not _same(known_key, key, depth):
                return False
            if known_item is not item and not _same(known_item, item, depth):
                return False
        return True
    if kind is list or kind is tuple or kind is set or kind is frozenset:
        # Sets are compared in iteration order: equal sets built differently may
        # iterate differently, which only costs a fresh snapshot.
        if len(known) != len(value):
            return False
        for known_item, item in zip(known, value, strict=True):
            if known_item is not item and not _same(known_item, item, depth):
                return False
        return True
    if kind is complex:
        return _same(known.real, value.real, depth) and _same(known.imag, value.imag, depth)
    handling = _handling.get(kind)
    if handling is None:
        handling = _handling[kind] = _handling_of(kind)
    if handling is _MODEL:
        return (
            _same(known.__dict__, value.__dict__, depth)
            and _same(known.__pydantic_extra__, value.__pydantic_extra__, depth)
            and known.__pydantic_fields_set__ == value.__pydantic_fields_set__
            and _same(
                getattr(known, "__pydantic_private__", None),
                getattr(value, "__pydantic_private__", None),
                depth,
            )
        )
    if handling is _DATACLASS:
        return _same(known.__dict__, value.__dict__, depth)
    if handling is _SLOTTED_DATACLASS:
        return all(
            _same(getattr(known, field.name), getattr(value, field.name), depth)
            for field in dataclasses.fields(known)
        ) and _same(getattr(known, "__dict__", None), getattr(value, "__dict__", None), depth)
    return False


# How _same compares instances of a type, decided once per type.
_MODEL, _DATACLASS, _SLOTTED_DATACLASS, _UNKNOWN = "model", "dataclass", "slotted", "unknown"
_handling: dict[type, str] = {}


def _handling_of(kind: type) -> str:
    if issubclass(kind, BaseModel):
        return _MODEL
    if dataclasses.is_dataclass(kind):
        return _SLOTTED_DATACLASS if hasattr(kind, "__slots__") else _DATACLASS
    return _UNKNOWN


# Values of these types are the same value exactly when they are equal and of the same
# type; any other value (a float, for its sign; a container, for what it holds) is
# looked at closely wherever it is not the very same object.
_PLAIN: frozenset[type] = frozenset({str, int, bool, bytes, type(None)})

# What _Flat.grow finds.
_DIFFERS, _HELD, _GROWN = "differs", "held", "grown"


class _Flat:
    """A snapshotted sequence of plain dicts laid flat: item sizes, keys and values in order.

    Runners rebuild the conversation's item dicts on every turn but fill them with the
    very same key and value objects. So a new sequence is checked against the
    snapshots with a few C-level passes over all its items at once: item types and
    sizes, keys in order, and the values, which ``gc.get_referents`` lists in order
    (and the keys as well unless they are all exact strings, which the length check
    notices): equal, of the same types, and, where a value is neither plain nor the
    very same object, the same in every nested value and type.
    """

    __slots__ = ("deep", "keys", "sizes", "total", "types", "values")

    def __init__(self) -> None:
        self.sizes: list[int] = []
        self.keys: list[str] = []
        self.values: list[Any] = []
        self.types: list[type] = []
        self.deep: list[int] = []
        self.total = 0

    @classmethod
    def of(cls, items: Sequence[Any]) -> _Flat | None:
        """The flat form of ``items``, or None unless all are dicts with exact str keys."""
        flat = cls()
        return flat if flat.grow(items, plain=False) is _GROWN else None

    def extend(self, tail: _Flat) -> None:
        total = self.total
        self.sizes.extend(tail.sizes)
        self.keys.extend(tail.keys)
        self.values.extend(tail.values)
        self.types.extend(tail.types)
        self.deep.extend(total + position for position in tail.deep)
        self.total = total + tail.total

    def grow(self, items: Sequence[Any], *, plain: bool) -> str:
        """Check that ``items`` start with exactly the snapshots laid flat here; lay the rest flat.

        :data:`_DIFFERS` when they do not start so. :data:`_HELD` when they do but the
        rest cannot be laid flat (an item that is not a dict with exact str keys, or,
        with ``plain``, a value that is not plain); nothing changes then.
        :data:`_GROWN` when the rest is laid flat here too.
        """
        count = len(self.sizes)
        kinds = list(map(type, items))
        if kinds.count(dict) != len(kinds):
            if len(items) == count or kinds[:count].count(dict) != count:
                return _DIFFERS
            return self._prefix_held(items, plain)
        sizes = list(map(len, items))
        tail_sizes = sizes[count:]
        del sizes[count:]
        if sizes != self.sizes:
            return _DIFFERS
        values = gc.get_referents(*items)
        total = self.total
        tail_total = sum(tail_sizes)
        if len(values) != total + tail_total:
            # A dict with a key that is not an exact str lists its keys too.
            return _DIFFERS if len(items) == count else self._prefix_held(items, plain)
        keys = list(chain.from_iterable(items))
        tail_keys = keys[total:]
        del keys[total:]
        if keys != self.keys:
            return _DIFFERS
        tail_values = values[total:]
        del values[total:]
        known = self.values
        try:
            # Identical objects compare equal at once, in C; so do the rest of a
            # conversation that did not change.
            if known != values:
                return _DIFFERS
        except Exception:  # a value whose __eq__ fails cannot be shared
            return _DIFFERS
        if list(map(type, values)) != self.types:
            return _DIFFERS
        for position in self.deep:
            before, now = known[position], values[position]
            if before is not now and not _same(before, now, 0):
                return _DIFFERS
        tail_types = list(map(type, tail_values))
        tail_deep = [total + at for at, kind in enumerate(tail_types) if kind not in _PLAIN]
        if tail_deep and plain:
            return _HELD
        self.sizes += tail_sizes
        self.keys += tail_keys
        self.values += tail_values
        self.types += tail_types
        self.deep += tail_deep
        self.total = total + tail_total
        return _GROWN

    def _prefix_held(self, items: Sequence[Any], plain: bool) -> str:
        """:data:`_HELD` when the items laid flat here start ``items``, else :data:`_DIFFERS`."""
        return _HELD if self.grow(items[: len(self.sizes)], plain=plain) is _GROWN else _DIFFERS


class _Recent:
    __slots__ = ("flat", "snapshots")

    def __init__(self, snapshots: tuple[Any, ...], flat: _Flat | None) -> None:
        self.snapshots = snapshots
        self.flat = flat


class SnapshotCache:
    """Share one private snapshot among the calls that pass an unchanged item again.

    A runner resends the whole conversation on every turn, so copying every item on
    every call is quadratic in time and memory. The cache keeps one snapshot per item
    object and reuses it while the item still holds exactly the same value, types
    included (:func:`same_value`); a changed item gets a fresh snapshot. Snapshots
    handed out by the cache are private: callers must :func:`detach` them again before
    giving them to a user.

    The cache is bounded: it remembers the snapshots of at most :attr:`MAX_VALUES`
    values (the most recent ones) and of :attr:`RECENT_SEQUENCES` sequences, so a
    double used for thousands of calls keeps no more than its recorded history. A value
    it has forgotten is simply snapshotted afresh. ``len(cache)`` is how many values it
    remembers.
    """

    __slots__ = ("_by_id", "_recent")

    #: How many recently snapshotted sequences :meth:`snapshot_sequence` compares with.
    RECENT_SEQUENCES = 8
    #: How many values (by object) the cache remembers; the oldest are forgotten first.
    MAX_VALUES = 4096

    def __init__(self) -> None:
        self._by_id: dict[int, Any] = {}
        self._recent: list[_Recent] = []

    def __len__(self) -> int:
        return len(self._by_id)

    def snapshot(self, value: T, *, name: str = "value", wrap_errors: bool = True) -> T:
        """A private snapshot of ``value``, shared with earlier calls that passed the same.

        ``name`` starts the path an :class:`UncopyableValue` error reports; copy failures
        are raised as :func:`detach` raises them.
        """
        key = id(value)
        known = self._by_id.get(key)
        # The value, not identity, decides reuse: an id reused by an identical value
        # may share the snapshot safely, a mutated object may not.
        if known is not None and same_value(known, value):
            return known  # type: ignore[no-any-return]
        fresh = detach(value, name=name, wrap_errors=wrap_errors)
        self._by_id.pop(key, None)  # re-inserted as the most recent
        self._by_id[key] = fresh
        self._bound()
        return fresh

    def _bound(self) -> None:
        """Forget the oldest values beyond :attr:`MAX_VALUES` (a quarter of them at once)."""
        excess = len(self._by_id) - self.MAX_VALUES
        if excess > 0:
            by_id = self._by_id
            for key in list(itertools.islice(by_id, excess + self.MAX_VALUES // 4)):
                del by_id[key]

    def snapshot_like(
        self, value: T, previous: T | None, *, name: str = "value", wrap_errors: bool = True
    ) -> T:
        """``previous`` when it is an identical snapshot of ``value``, else :meth:`snapshot`."""
        if previous is not None and same_value(previous, value):
            return previous
        return self.snapshot(value, name=name, wrap_errors=wrap_errors)

    def snapshot_sequence(
        self, values: Iterable[T], *, name: str = "value", wrap_errors: bool = True
    ) -> tuple[T, ...]:
        """Private snapshots of ``values``, sharing items with a recent sequence that starts alike.

        Runners rebuild every item of the conversation on each turn, so identity cannot
        find the earlier snapshot; position can. An item identical to the snapshot at
        the same position of the most recent sequence whose first item is identical
        reuses that snapshot; any other item goes through :meth:`snapshot`, reported as
        ``name[position]``.
        """
        items = tuple(values)
        latest = self._recent[0] if self._recent else None
        # The usual turn, tried first and checked in full: the latest conversation grew.
        if latest is not None:
            grown = self._grown(latest, items, name, wrap_errors)
            if grown is not None:
                return grown
        recent: _Recent | None = None
        if items:
            first = items[0]
            for candidate in self._recent:
                if same_value(candidate.snapshots[0], first):
                    recent = candidate
                    break
        if recent is not None and recent is not latest:
            grown = self._grown(recent, items, name, wrap_errors)
            if grown is not None:
                return grown
        previous: tuple[Any, ...] = () if recent is None else recent.snapshots
        shared = min(len(previous), len(items))
        result: list[Any] = []
        append = result.append
        for position, item in enumerate(items):
            if position < shared:
                known = previous[position]
                if same_value(known, item):
                    append(known)
                    continue
            append(self.snapshot(item, name=f"{name}[{position}]", wrap_errors=wrap_errors))
        snapshots = tuple(result)
        if snapshots:
            self._remember(recent, snapshots, _Flat.of(snapshots))
        return snapshots

    def _grown(
        self, recent: _Recent, items: tuple[Any, ...], name: str, wrap_errors: bool
    ) -> tuple[Any, ...] | None:
        """Snapshots of ``items`` when they start with exactly ``recent``'s, else None.

        New plain dicts (plain values, exact str keys) are snapshotted as shallow
        copies, laid flat in the same passes that checked the earlier items; any other
        new item goes through :meth:`snapshot`.
        """
        flat, previous = recent.flat, recent.snapshots
        count = len(previous)
        if flat is None or len(items) < count:
            return None
        found = flat.grow(items, plain=True)
        if found is _DIFFERS:
            return None
        if len(items) == count:
            return previous
        if found is _GROWN:
            tail = items[count:]
            copies = tuple(map(dict.copy, tail))
            # Registered as snapshot() would, so no stale entry for a reused id remains.
            for key in map(id, tail):
                self._by_id.pop(key, None)
            self._by_id.update(zip(map(id, tail), copies, strict=True))
            self._bound()
            snapshots = previous + copies
        else:
            tail = tuple(
                self.snapshot(items[position], name=f"{name}[{position}]", wrap_errors=wrap_errors)
                for position in range(count, len(items))
            )
            snapshots = previous + tail
            laid = _Flat.of(tail)
            if laid is None:
                flat = None
            else:
                flat.extend(laid)
        self._remember(recent, snapshots, flat)
        return snapshots

    def _remember(
        self, recent: _Recent | None, snapshots: tuple[Any, ...], flat: _Flat | None
    ) -> None:
        if recent is not None and self._recent[0] is recent:
            # The usual turn: the most recent conversation grew by a few items.
            recent.snapshots, recent.flat = snapshots, flat
            return
        if recent is not None:
            self._recent.remove(recent)
        self._recent.insert(0, _Recent(snapshots, flat))
        del self._recent[self.RECENT_SEQUENCES :]


# Public names show agents_testing.core, however this module was first imported.
from ..lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
