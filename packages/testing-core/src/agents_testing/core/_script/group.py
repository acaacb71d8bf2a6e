"""Unordered groups: steps that may be consumed in any order at one position of a script.

:func:`any_order` is the one helper every boundary exposes under its own package. It only
collects the steps the test wrote; the double that receives the group validates each
member as one of its own steps (so a malformed member fails where the script is built,
with that boundary's error) and queues a :class:`GroupEntry` in its :class:`StepScript`.
Within a group, the member that answers a call is the first pending one that accepts it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from .._errors import InvalidStepError
from .._values import safe_repr
from .fifo import Entry

__all__ = [
    "AnyOrder",
    "GroupEntry",
    "any_order",
    "build_entry",
    "build_group",
    "group_reason",
    "member_problem",
]

S = TypeVar("S")
S_co = TypeVar("S_co", covariant=True)
T = TypeVar("T")


class AnyOrder(Generic[S_co]):
    """Steps, as the test wrote them, that may be consumed in any order at one position.

    Build it with :func:`any_order`. ``steps`` holds the members in the order given, which
    is also the preference order when more than one member accepts a call.
    """

    __slots__ = ("_steps",)

    def __init__(self, steps: Sequence[S_co]) -> None:
        self._steps = tuple(steps)

    @property
    def steps(self) -> tuple[S_co, ...]:
        """The members, in the order given."""
        return self._steps

    def __len__(self) -> int:
        return len(self._steps)

    def __eq__(self, other: object) -> bool:
        return type(other) is AnyOrder and other._steps == self._steps

    def __hash__(self) -> int:
        return hash(("AnyOrder", len(self._steps)))

    def __repr__(self) -> str:
        return f"any_order({', '.join(safe_repr(step, 80) for step in self._steps)})"


def any_order(*steps: S) -> AnyOrder[S]:
    """A group of steps the code under test may consume in any order, at this position.

    Accepted wherever the double accepts a step. Each call is answered by the first
    pending member that accepts it (its method, matcher or expectation); the script moves
    past the group once every member was used. Groups cannot be empty or nested: the
    double that receives one refuses it with its own ``Invalid…Step`` error.
    """
    return AnyOrder(steps)


def _group_members(group: AnyOrder[Any]) -> tuple[object, ...] | str:
    """The members of ``group``, or why it cannot be queued (empty, or holding a group).

    Every boundary reports the returned text in its own ``Invalid…Step`` error, so the
    rules and their wording live here once.
    """
    if not group.steps:
        return (
            "any_order() needs at least one step; an empty group would match no call, so "
            "remove it or give it the steps that may come in any order"
        )
    for position, step in enumerate(group.steps):
        if isinstance(step, AnyOrder):
            return (
                f"any_order() member {position + 1} is itself a group; groups cannot be "
                "nested (a group already accepts its members in any order), so list the "
                "inner steps in the outer group"
            )
    return group.steps


def member_problem(position: int, detail: str) -> str:
    """The detail of an error about one group member, naming the member (counted from 1)."""
    return f"any_order() member {position + 1}: {detail}"


def build_group(group: AnyOrder[Any], build: Callable[[int, object], T]) -> GroupEntry[T] | str:
    """Build the queued entry of ``group`` with ``build(position, member)`` for each member.

    Returns the refusal text instead when the group is empty or nested; ``build`` raises
    the boundary's own error for a malformed member.
    """
    members = _group_members(group)
    if isinstance(members, str):
        return members
    return GroupEntry([build(position, member) for position, member in enumerate(members)])


def build_entry(
    raw: object,
    build: Callable[[object], T],
    invalid: Callable[[InvalidStepError | None, str], BaseException],
) -> T | GroupEntry[T]:
    """One position of a script as the test wrote it: a step, or an ``any_order()`` group.

    A step is ``build(raw)``; a group is a :class:`GroupEntry` of its members, each built
    the same way. A member refused with an :class:`InvalidStepError` is refused again as
    ``invalid(error, detail)``, the detail now naming the member, caused by what caused
    the member's refusal; an empty or nested group as ``invalid(None, detail)``.
    """
    if not isinstance(raw, AnyOrder):
        return build(raw)

    def member(position: int, value: object) -> T:
        try:
            return build(value)
        except InvalidStepError as error:
            raise invalid(error, member_problem(position, error.detail)) from error.__cause__

    entry = build_group(raw, member)
    if isinstance(entry, str):
        raise invalid(None, entry)
    return entry


def group_reason(error: InvalidStepError | None) -> Any:
    """The reason of a refused group position: its member's, or ``"invalid_group"`` (each
    a reason of the boundary's own)."""
    return "invalid_group" if error is None else error.reason


class GroupEntry(Entry[S]):
    """One position of the script holding several steps, each consumed once, in any order.

    Its candidates are the members not yet consumed, in the order the test gave them;
    the entry is exhausted when the last one is used.
    """

    __slots__ = ("_left",)

    def __init__(self, steps: Sequence[S]) -> None:
        if not steps:
            raise ValueError("a group entry needs at least one step")
        super().__init__(steps[0])
        self._left = list(steps)

    def candidates(self) -> tuple[S, ...]:
        return tuple(self._left)

    def consume(self, step: S) -> bool:
        # By identity: two members may compare equal and still be different steps.
        for position, member in enumerate(self._left):
            if member is step:
                del self._left[position]
                break
        else:
            raise ValueError("the step is not a pending member of this group")
        if self._left:
            self.step = self._left[0]
        return not self._left

    def pending(self) -> tuple[S, ...]:
        return tuple(self._left)


# Public names show agents_testing.core, however this module was first imported.
from ..lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
