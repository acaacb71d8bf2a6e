"""Generated data: snapshots are exact, detached and stay unchanged; bad values are named.

Values mix every plain kind with pydantic models, sets, cycles and values that Python
calls equal although they differ (``1``, ``True``, ``1.0``; ``0.0`` and ``-0.0``;
``b"a"`` and ``bytearray(b"a")``), which is where shared snapshots could go wrong.
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from agents_testing.core import SnapshotCache, UncopyableValue, detach


class Box(BaseModel):
    value: Any = None
    items: list[Any] = []


_hashable = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=4),
    st.binary(max_size=3),
)
# Equal to one another in Python, yet different values or types.
_look_alikes = st.sampled_from([0, 1, True, False, 0.0, -0.0, 1.0, "1", b"a"]) | st.builds(
    bytearray, st.sampled_from([b"a", b""])
)
_keys = st.text(max_size=3) | st.integers(-2, 2)


def _containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.lists(children, max_size=4),
        st.lists(children, max_size=3).map(tuple),
        st.dictionaries(_keys, children, max_size=4),
        st.sets(_hashable, max_size=3),
        st.frozensets(_hashable, max_size=3),
        st.builds(Box, value=children, items=st.lists(children, max_size=2)),
    )


_data = st.recursive(_hashable | _look_alikes, _containers, max_leaves=12)


def _mutable_parts(value: Any) -> list[Any]:
    """Every mutable object reachable from ``value`` (cycles followed once)."""
    found: dict[int, Any] = {}

    def visit(item: Any) -> None:
        if id(item) in found:
            return
        if isinstance(item, (list, dict, set, bytearray, Box)):
            found[id(item)] = item
        if isinstance(item, (list, tuple, set, frozenset)):
            for member in item:
                visit(member)
        elif isinstance(item, dict):
            for key, member in item.items():
                visit(key)
                visit(member)
        elif isinstance(item, Box):
            visit(item.value)
            visit(item.items)

    visit(value)
    return list(found.values())


@st.composite
def _cyclic(draw: st.DrawFn) -> Any:
    """Generated data with a reference back to its root from one of its containers."""
    root: Any = draw(st.sampled_from([list, dict, Box]))()
    inner = draw(_data)
    if isinstance(root, list):
        root.append(inner)
    elif isinstance(root, dict):
        root["data"] = inner
    else:
        root.value = inner
    holders = [part for part in _mutable_parts(root) if isinstance(part, (list, dict, Box))]
    holder = holders[draw(st.integers(0, len(holders) - 1))]
    if isinstance(holder, list):
        holder.append(root)
    elif isinstance(holder, dict):
        holder["cycle"] = root
    else:
        holder.items.append(root)
    return root


def _fingerprint(value: Any) -> Any:
    """An exact, comparable description: types, float signs, key order and cycles."""
    seen: dict[int, int] = {}

    def describe(item: Any) -> Any:
        kind = type(item).__name__
        if isinstance(item, (list, tuple, set, frozenset, dict, bytearray, BaseModel)):
            if id(item) in seen:
                return ("ref", seen[id(item)])
            seen[id(item)] = len(seen)
        if isinstance(item, float):
            return (kind, item.hex())
        if isinstance(item, bytearray):
            return (kind, bytes(item))
        if isinstance(item, (list, tuple)):
            return (kind, tuple(describe(member) for member in item))
        if isinstance(item, (set, frozenset)):
            return (kind, frozenset(describe(member) for member in item))
        if isinstance(item, dict):
            return (kind, tuple((describe(k), describe(v)) for k, v in item.items()))
        if isinstance(item, Box):
            return (kind, describe(item.value), describe(item.items))
        return (kind, item)

    return describe(value)


def _each(items: Sequence[Any]) -> list[Any]:
    """Each item's fingerprint. Items are snapshotted one by one, and two items holding
    exactly the same value may share one snapshot, so sharing across items is not compared."""
    return [_fingerprint(item) for item in items]


def _mutate(value: Any) -> None:
    for part in _mutable_parts(value):
        if isinstance(part, list):
            part.append("mutated")
        elif isinstance(part, dict):
            part["mutated"] = True
        elif isinstance(part, set):
            part.add("mutated")
        elif isinstance(part, bytearray):
            part.extend(b"!")
        elif isinstance(part, Box):
            part.value = "mutated"


@given(_data | _cyclic())
def test_detach_returns_an_exact_copy_that_shares_no_mutable_part(value: Any) -> None:
    copy = detach(value)

    assert _fingerprint(copy) == _fingerprint(value)
    originals = {id(part) for part in _mutable_parts(value)}
    assert not originals & {id(part) for part in _mutable_parts(copy)}


@given(_data | _cyclic())
def test_mutating_the_original_never_changes_the_snapshot(value: Any) -> None:
    expected = _fingerprint(value)
    copy = detach(value)

    _mutate(value)

    assert _fingerprint(copy) == expected


_items = st.dictionaries(
    st.sampled_from(["role", "content", "n", "id"]), _data | _cyclic(), max_size=3
)


@given(
    st.lists(
        st.tuples(st.lists(_items, max_size=2), st.integers(0, 5), _look_alikes, st.booleans()),
        min_size=1,
        max_size=6,
    )
)
def test_snapshot_cache_never_hands_out_a_snapshot_that_differs_from_its_input(
    turns: list[tuple[list[dict[str, Any]], int, Any, bool]],
) -> None:
    cache = SnapshotCache()
    conversation: list[dict[str, Any]] = []
    other: list[dict[str, Any]] = [{"role": "other"}]
    recorded: list[tuple[tuple[Any, ...], Any]] = []
    for new_items, position, look_alike, interleave in turns:
        if interleave:
            # A second conversation in between, as concurrent runs sharing a model do.
            other = [dict(item) for item in other] + [dict(item) for item in new_items]
            snapshots = cache.snapshot_sequence(other)
            recorded.append((snapshots, _each(other)))
        # Like a runner: every turn resends the conversation as rebuilt dicts holding
        # the same values, sometimes with one value replaced by an equal look-alike.
        conversation = [dict(item) for item in conversation] + new_items
        if conversation:
            conversation[position % len(conversation)]["n"] = look_alike
        snapshots = cache.snapshot_sequence(conversation)
        expected = _each(conversation)
        assert _each(snapshots) == expected
        recorded.append((snapshots, expected))
        alone = cache.snapshot({"n": look_alike})
        assert _fingerprint(alone) == _fingerprint({"n": look_alike})
        like = cache.snapshot_like({"n": look_alike}, recorded[0][0][:1] and recorded[0][0][0])
        assert _fingerprint(like) == _fingerprint({"n": look_alike})

    for item in conversation + other:
        _mutate(item)
    for snapshots, expected in recorded:
        assert _each(snapshots) == expected


def _closed_file() -> Any:
    with tempfile.TemporaryFile() as handle:
        pass
    return handle


_UNCOPYABLE: dict[str, Callable[[], Any]] = {
    "_thread.lock": threading.Lock,
    "generator": lambda: (n for n in range(2)),
    "memoryview": lambda: memoryview(b"ab"),
    "_io.BufferedRandom": _closed_file,
}


@st.composite
def _with_uncopyable(draw: st.DrawFn) -> tuple[Any, str, str]:
    """Plain data with one uncopyable value buried in it, and the path to that value."""
    value_type = draw(st.sampled_from(sorted(_UNCOPYABLE)))
    value: Any = _UNCOPYABLE[value_type]()
    segments: list[str] = []
    for kind in draw(st.lists(st.sampled_from(["list", "tuple", "dict", "model"]), max_size=4)):
        before = draw(st.lists(_data, max_size=2))
        after = draw(st.lists(_data, max_size=2))
        if kind in ("list", "tuple"):
            members = [*before, value, *after]
            value = members if kind == "list" else tuple(members)
            segments.append(f"[{len(before)}]")
        elif kind == "dict":
            siblings = draw(st.dictionaries(st.text(max_size=3), _data, max_size=3))
            taken = set(siblings)
            key = draw(st.text(max_size=3).filter(lambda text: text not in taken))  # noqa: B023
            value = {**siblings, key: value}
            segments.append(f"[{key!r}]")
        elif draw(st.booleans()):
            value = Box(value=value, items=before)
            segments.append(".value")
        else:
            value = Box(value=draw(_data), items=[*before, value, *after])
            segments.append(f".items[{len(before)}]")
    return value, "root" + "".join(reversed(segments)), value_type


@given(_with_uncopyable())
def test_an_uncopyable_value_always_gives_the_structured_error_with_its_path(
    case: tuple[Any, str, str],
) -> None:
    value, path, value_type = case

    with pytest.raises(UncopyableValue) as caught:
        detach(value, name="root")

    assert (caught.value.path, caught.value.value_type) == (path, value_type)
