"""The strict FIFO step script that every double consumes.

A :class:`StepScript` holds normalized steps in one global order. The code under test
may only consume the head: :meth:`StepScript.take` hands it out when the caller's
``accept`` predicate agrees and otherwise leaves it pending. A position is a step, or an
:class:`Entry` holding several (a group of steps accepted in any order): both sit in the
same queue, plain steps as they are, so that taking one costs next to nothing.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Generic, TypeVar

__all__ = ["Entry", "StepScript"]

S = TypeVar("S")


class Entry(Generic[S]):
    """One position of the script: a single step, consumed whole."""

    __slots__ = ("step",)

    def __init__(self, step: S) -> None:
        self.step = step

    def candidates(self) -> tuple[S, ...]:
        """The steps that may be consumed at this position, in preference order."""
        return (self.step,)

    def consume(self, step: S) -> bool:
        """Mark ``step`` used; return True when the entry is exhausted."""
        return True

    def pending(self) -> tuple[S, ...]:
        """The steps of this entry not yet consumed."""
        return (self.step,)


class StepScript(Generic[S]):
    """Strict FIFO of scripted steps with a consumed-count and completeness check."""

    __slots__ = ("_consumed", "_entries")

    def __init__(self, steps: Iterable[S | Entry[S]] = ()) -> None:
        self._entries: deque[S | Entry[S]] = deque(steps)
        self._consumed = 0

    def append(self, step: S) -> None:
        """Queue one already-validated step at the end."""
        self._entries.append(step)

    def append_entry(self, entry: Entry[S]) -> None:
        """Queue a custom entry (for example a group of steps) at the end."""
        self._entries.append(entry)

    def extend(self, steps: Iterable[S | Entry[S]]) -> None:
        """Queue already-validated steps (or custom entries) at the end, in order."""
        self._entries.extend(steps)

    @property
    def consumed(self) -> int:
        """How many steps have been taken so far."""
        return self._consumed

    def __len__(self) -> int:
        return sum(
            len(entry.pending()) if isinstance(entry, Entry) else 1 for entry in self._entries
        )

    def __bool__(self) -> bool:
        return bool(self._entries)

    def __iter__(self) -> Iterator[S]:
        for entry in self._entries:
            if isinstance(entry, Entry):
                yield from entry.pending()
            else:
                yield entry

    def pending(self) -> tuple[S, ...]:
        """Every step not yet consumed, in script order."""
        return tuple(self)

    def peek(self) -> S | None:
        """The step the next call would get first, or ``None`` when the script is done."""
        if not self._entries:
            return None
        head = self._entries[0]
        return head.candidates()[0] if isinstance(head, Entry) else head

    def candidates(self) -> tuple[S, ...]:
        """The steps the next call may consume, in preference order (empty when done).

        One step for a plain position; every pending member for a group.
        """
        if not self._entries:
            return ()
        head = self._entries[0]
        return head.candidates() if isinstance(head, Entry) else (head,)

    def in_group(self) -> bool:
        """Whether the next position is a custom entry (a group) rather than one step."""
        if not self._entries:
            return False
        head = self._entries[0]
        return isinstance(head, Entry) and type(head) is not Entry

    def take(self, accept: Callable[[S], bool] | None = None) -> S | None:
        """Consume and return the first eligible step that ``accept`` agrees to.

        Returns ``None`` and consumes nothing when the script is done or no eligible
        step is accepted. Exceptions from ``accept`` propagate and leave the step pending.
        """
        entries = self._entries
        if not entries:
            return None
        head = entries[0]
        if not isinstance(head, Entry):
            # Plain steps are the common case; the generic protocol below gives the same
            # result for them at several times the cost per call.
            if accept is not None and not accept(head):
                return None
            entries.popleft()
            self._consumed += 1
            return head
        for step in head.candidates():
            if accept is None or accept(step):
                if head.consume(step):
                    self._entries.popleft()
                self._consumed += 1
                return step
        return None

    def popper(self) -> Callable[[], S]:
        """A function that consumes and returns the next step, raising ``IndexError`` when
        none is left, at the cost of a deque's ``popleft``.

        For a script of plain steps only (no groups), read in a hot loop, whose double needs
        no :attr:`consumed` count: the steps it takes are not counted there.
        """
        return self._entries.popleft  # type: ignore[return-value]

    def take_candidate(self, step: S) -> None:
        """Consume ``step``, one of :meth:`candidates` (the very object), chosen by the caller.

        For doubles whose choice needs more than a yes/no (telling a method mismatch from
        a matcher rejection, say): they look at the candidates, then take the one chosen.
        """
        if self.take(lambda candidate: candidate is step) is None:
            raise ValueError("the step is not a candidate of the next script position")

    def assert_complete(self, error: Callable[[tuple[S, ...]], BaseException]) -> None:
        """Raise ``error(pending)`` when steps are left; do nothing otherwise."""
        if self._entries:
            raise error(self.pending())


# Public names show agents_testing.core, however this module was first imported.
from ..lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
