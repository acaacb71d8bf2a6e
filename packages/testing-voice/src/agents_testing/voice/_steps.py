"""Normalization shared by the voice doubles: lone values, text, exceptions, replay streams."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Mapping, Sequence, Set
from typing import Any, TypeVar

from agents_testing.core import cycle_problem, exception_problem, safe_repr

from ._errors import InvalidVoiceStepReason, invalid_step

__all__ = [
    "ScriptedError",
    "as_sequence",
    "check_name",
    "describe",
    "fail",
    "fragments",
    "raised",
    "replay",
    "scripted_error",
    "text",
    "text_or_error",
]

T = TypeVar("T")

ScriptedError = Exception | type[Exception]
"""A validated scripted exception: an instance raised as it is, or a class created per raise."""


def describe(value: object) -> str:
    """``"<type> <bounded repr>"`` of a user value, safe to put in any error message."""
    return f"{type(value).__name__} {safe_repr(value)}"


def as_sequence(
    value: object,
    lone: tuple[type, ...],
    argument: str,
    cycles: tuple[InvalidVoiceStepReason, str] | None = None,
) -> list[object]:
    """The items of ``value``, treating an instance of ``lone`` (or an exception) as one item.

    Bytes are always one item: iterating them would report integers, not the bytes the
    test passed, in the error that rejects them. Mappings and sets are one item too, so
    they are rejected instead of scripting their keys in no meaningful order. An
    iterable that fails while it is read is reported as ``invalid_argument``. With
    ``cycles`` (the reason, and what one item is called), an item that contains itself is
    refused (``extra_checks``).
    """
    if isinstance(value, (*lone, BaseException, type, bytes, bytearray, memoryview, Mapping, Set)):
        items: list[object] = [value]
    elif isinstance(value, Iterable):
        try:
            items = list(value)
        except Exception as error:
            raise invalid_step(
                "invalid_argument",
                0,
                f"reading {argument} failed with {type(error).__name__}; pass a list",
                argument,
            ) from error
    else:
        items = [value]
    if cycles is not None:
        _check_cycles(items, *cycles, argument)
    return items


def _check_cycles(
    items: Sequence[object], reason: InvalidVoiceStepReason, what: str, argument: str
) -> None:
    """Refuse an item that contains itself, naming the cycle (``extra_checks``).

    ``what`` names one item in the message (``"result"`` gives ``result 2[1] refers back
    to result 2``); a bare double refuses such an item by its type instead.
    """
    for index, item in enumerate(items):
        problem = cycle_problem(item, f"{what} {index + 1}")
        if problem is not None:
            raise invalid_step(reason, index, problem, argument)


def text(value: str) -> str:
    """A plain ``str`` copy of ``value``, so a ``str`` subclass cannot change after scripting."""
    # str.__str__ returns an exact str for subclasses without calling an overridden __str__.
    return str.__str__(value)


def check_name(value: object, argument: str) -> str:
    """Validate a ``model_name``-like argument: it must be a string."""
    if not isinstance(value, str):
        raise invalid_step(
            "invalid_argument",
            0,
            f"{argument} must be a str, got {describe(value)}",
            argument,
        )
    return text(value)


def scripted_error(
    value: object, reason: InvalidVoiceStepReason, index: int, argument: str
) -> ScriptedError | None:
    """Validate a scripted exception and return it, or raise ``InvalidVoiceStep``; ``None``
    when ``value`` is not meant as one (neither an exception instance nor a class).

    Accepted: an ``Exception`` instance (raised as it is) or an ``Exception`` class that
    can be created without arguments (created anew for each raise). A ``BaseException``
    that is not an ``Exception`` is refused: the pipeline's background task handles only
    ``Exception``, so such a value would end the task without telling ``stream()``,
    which then waits forever. An exception whose ``str()`` fails is refused as well,
    because the pipeline formats every error it reports.
    """
    if not isinstance(value, BaseException) and not (
        isinstance(value, type) and issubclass(value, BaseException)
    ):
        return None
    problem = exception_problem(value)
    if problem is None:
        problem = _str_problem(value)
    if problem is not None:
        raise invalid_step(reason, index, f"{argument}: {problem}", argument)
    return value  # type: ignore[return-value]


def text_or_error(
    value: object, reason: InvalidVoiceStepReason, index: int, argument: str, what: str
) -> str | ScriptedError:
    """A scripted text (a string) or a scripted exception; anything else is refused as not
    being ``what`` (``"a transcription turn"``)."""
    if isinstance(value, str):
        return text(value)
    failure = scripted_error(value, reason, index, argument)
    if failure is not None:
        return failure
    detail = f"{what} must be a string or an exception, got {describe(value)}"
    raise invalid_step(reason, index, detail, argument)


def _str_problem(value: object) -> str | None:
    instance = value() if isinstance(value, type) else value
    try:
        str(instance)
    except Exception as error:
        return (
            f"str() of the scripted {type(instance).__name__} fails with "
            f"{type(error).__name__}; the pipeline formats the errors it reports"
        )
    return None


def raised(error: ScriptedError) -> BaseException:
    """The exception to raise for a scripted error (a fresh instance for a class)."""
    return error() if isinstance(error, type) else error


def fragments(
    value: object, reason: InvalidVoiceStepReason, index: int, what: str, argument: str
) -> tuple[str, ...] | None:
    """Text fragments of one scripted result: a string is one, a sequence sets boundaries.

    Returns ``None`` when ``value`` is neither (the caller decides whether it is an
    exception step or an error).
    """
    if isinstance(value, str):
        return (text(value),)
    if isinstance(value, Sequence) and not isinstance(value, (bytes, bytearray)):
        try:
            parts = tuple(value)
        except Exception as error:
            raise invalid_step(
                reason,
                index,
                f"reading the fragments of {what} failed with {type(error).__name__}",
                argument,
            ) from error
        for part in parts:
            if not isinstance(part, str):
                raise invalid_step(
                    reason,
                    index,
                    f"{what} fragments must be strings, got {describe(part)}",
                    argument,
                )
        return tuple(text(part) for part in parts)
    return None


async def replay(items: Sequence[T]) -> AsyncIterator[T]:
    """Yield ``items`` in order."""
    for item in items:
        yield item


async def fail(error: ScriptedError) -> AsyncIterator[Any]:
    """An async iterator that raises ``error`` when first advanced, as a failing stream does."""
    raise raised(error)
    yield  # pragma: no cover - makes this an async generator
