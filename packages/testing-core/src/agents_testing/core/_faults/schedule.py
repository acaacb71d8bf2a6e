"""Faults by call number, and the waits a double takes before it answers.

A boundary that injects production failures ("the 3rd call gets a rate limit, the 5th
a dropped connection") keeps them in a :class:`CallSchedule`: entries by 1-based call
number, each used at most once, with what is still pending for the boundary's own
``assert_complete``. What an entry is and what it does stays the boundary's business.

A wait before answering is ``scripted_wait(seconds)`` (``agents_testing.core``): under the
virtual clock it passes at once and is listed as a ``"scripted"`` wait (``clock.delays``),
and an SDK timeout around the call cancels it as it would cancel a slow provider.
:func:`seconds_problem` checks such a number when the step is built; the checks return an
:class:`ArgumentProblem`, which each boundary raises as its own structured error.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Generic, NamedTuple, TypeVar

from .._values import safe_repr

__all__ = ["ArgumentProblem", "CallSchedule", "schedule_problem", "seconds_problem"]

F = TypeVar("F")


class ArgumentProblem(NamedTuple):
    """Why an argument was refused: what it must be, what it was, and for a schedule the
    call number of the entry at fault (``None`` for the schedule as a whole)."""

    expected: str
    got: str
    call: int | None = None


def _got(value: object) -> str:
    return f"{type(value).__name__} {safe_repr(value, 60)}"


def seconds_problem(value: object) -> ArgumentProblem | None:
    """Why ``value`` is not a number of seconds to wait (an int or float, finite, >= 0),
    or ``None`` when it is one."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return ArgumentProblem("a number of seconds", _got(value))
    if math.isnan(value) or math.isinf(value):
        return ArgumentProblem("a finite number of seconds", repr(value))
    if value < 0:
        return ArgumentProblem("a number of seconds >= 0 (time only moves forward)", repr(value))
    return None


def schedule_problem(
    entries: object, entry_problem: Callable[[object], ArgumentProblem | None]
) -> ArgumentProblem | None:
    """Why ``entries`` is not a schedule (a mapping of call numbers, counted from 1, to
    entries), or ``None`` when it is one; ``entry_problem(entry)`` judges each entry."""
    if not isinstance(entries, Mapping):
        return ArgumentProblem(
            "a mapping of call numbers to entries, such as {3: ...}", _got(entries)
        )
    for number, entry in entries.items():
        if isinstance(number, bool) or not isinstance(number, int):
            return ArgumentProblem("call numbers that are ints counted from 1", _got(number))
        if number < 1:
            return ArgumentProblem(
                "call numbers counted from 1 (the first call is call 1)", str(number), number
            )
        problem = entry_problem(entry)
        if problem is not None:
            return problem._replace(call=number)
    return None


class CallSchedule(Generic[F]):
    """Entries by 1-based call number, each handed out once, when that call comes.

    Build it from a mapping checked with :func:`schedule_problem`. The double asks
    :meth:`take` with each call's number as the call arrives; ``pending`` is what has not
    come yet (for the double's ``assert_complete``), ``used`` what was handed out.
    """

    __slots__ = ("_pending", "_used")

    def __init__(self, entries: Mapping[int, F]) -> None:
        self._pending: dict[int, F] = dict(sorted(entries.items()))
        self._used: list[tuple[int, F]] = []

    def take(self, number: int) -> F | None:
        """The entry for call ``number`` (1-based), once; ``None`` when there is none."""
        if number not in self._pending:
            return None
        entry = self._pending.pop(number)
        self._used.append((number, entry))
        return entry

    @property
    def pending(self) -> dict[int, F]:
        """Entries whose call has not come yet, by call number, in call order."""
        return dict(self._pending)

    @property
    def used(self) -> tuple[tuple[int, F], ...]:
        """``(call number, entry)`` of every entry handed out, in the order they were."""
        return tuple(self._used)

    def __len__(self) -> int:
        return len(self._pending) + len(self._used)


# Public names show agents_testing.core, however this module was first imported.
from ..lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
