"""Normalization shared by the voice doubles: lone values, text fragments, replay streams."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Any, TypeVar

from ._errors import InvalidVoiceStep, InvalidVoiceStepReason

__all__ = ["as_sequence", "fail", "fragments", "replay"]

T = TypeVar("T")


def as_sequence(value: object, lone: tuple[type, ...]) -> list[object]:
    """The items of ``value``, treating an instance of ``lone`` (or an exception) as one item.

    Bytes are always one item: iterating them would report integers, not the bytes the
    test passed, in the error that rejects them.
    """
    if isinstance(value, (*lone, BaseException, bytes, bytearray, memoryview)):
        return [value]
    if isinstance(value, Iterable):
        return list(value)
    return [value]


def fragments(
    value: object, reason: InvalidVoiceStepReason, index: int, what: str
) -> tuple[str, ...] | None:
    """Text fragments of one scripted result: a string is one, a sequence sets boundaries.

    Returns ``None`` when ``value`` is neither (the caller decides whether it is an
    exception step or an error).
    """
    if isinstance(value, str):
        return (value,)
    if isinstance(value, Sequence) and not isinstance(value, (bytes, bytearray)):
        parts = tuple(value)
        for part in parts:
            if not isinstance(part, str):
                raise InvalidVoiceStep(
                    reason,
                    index,
                    f"{what} fragments must be strings, got {type(part).__name__} {part!r}",
                )
        return parts
    return None


async def replay(items: Sequence[T]) -> AsyncIterator[T]:
    """Yield ``items`` in order."""
    for item in items:
        yield item


async def fail(error: BaseException) -> AsyncIterator[Any]:
    """An async iterator that raises ``error`` when first advanced, as a failing stream does."""
    raise error
    yield  # pragma: no cover - makes this an async generator
