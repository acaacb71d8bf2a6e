"""Detached snapshots: recorded data never changes with later mutation."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

import pytest
from pydantic import BaseModel

from agents_testing.core import SnapshotCache, detach, readonly


class _Settings(BaseModel):
    tags: list[str]


def test_detach_copies_nested_containers() -> None:
    original: dict[str, Any] = {"items": [{"role": "user", "content": ["hi"]}], "pair": (1, [2])}
    copy = detach(original)
    original["items"][0]["content"].append("mutated")
    original["pair"][1].append(3)

    assert copy == {"items": [{"role": "user", "content": ["hi"]}], "pair": (1, [2])}


def test_detach_copies_pydantic_models_deeply() -> None:
    settings = _Settings(tags=["a"])
    copy = detach(settings)
    settings.tags.append("b")

    assert copy.tags == ["a"]
    assert copy is not settings


def test_detach_keeps_immutable_values() -> None:
    text = "hello"
    assert detach(text) is text
    assert detach(b"pcm") == b"pcm"
    buffer = bytearray(b"ab")
    copied = detach(buffer)
    buffer[0] = 0
    assert copied == bytearray(b"ab")


def test_readonly_is_detached_and_cannot_be_written() -> None:
    kwargs: dict[str, Any] = {"paths": ["a.txt"]}
    view = readonly(kwargs)
    kwargs["paths"].append("b.txt")

    assert isinstance(view, MappingProxyType)
    assert view["paths"] == ["a.txt"]
    with pytest.raises(TypeError):
        view["new"] = 1  # type: ignore[index]


def test_snapshot_cache_shares_unchanged_items_and_resnapshots_mutated_ones() -> None:
    cache = SnapshotCache()
    item: dict[str, Any] = {"role": "user", "content": "hi"}

    first = cache.snapshot(item)
    again = cache.snapshot(item)
    assert first is again
    assert first is not item

    item["content"] = "changed"
    fresh = cache.snapshot(item)
    assert fresh == {"role": "user", "content": "changed"}
    assert first == {"role": "user", "content": "hi"}
