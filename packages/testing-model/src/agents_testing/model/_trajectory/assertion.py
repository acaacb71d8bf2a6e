"""Trajectory assertions: which tools a run called, with what, in which order, and its handoffs."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import get_args, overload

from agents_testing.core import safe_repr

from .._errors import invalid_argument
from .._script.validation import describe
from .diff import mismatch
from .match import ArgumentMode, OrderMode, match
from .source import steps_of
from .steps import HandoffStep, ToolCallStep, TrajectoryStep

__all__ = ["Trajectory", "assert_trajectory"]

_ORDERS: tuple[str, ...] = get_args(OrderMode)
_ARGUMENTS: tuple[str, ...] = get_args(ArgumentMode)


class Trajectory(Sequence[TrajectoryStep]):
    """The tool calls and handoffs of a run, in the order the model made them.

    Build it with :meth:`of`; it is an immutable sequence of :class:`ToolCallStep` and
    :class:`HandoffStep` values that a test can inspect, compare or snapshot.
    """

    __slots__ = ("_steps",)

    def __init__(self, steps: Sequence[TrajectoryStep] = ()) -> None:
        self._steps = _checked_steps(steps, "Trajectory(steps)")

    @classmethod
    def of(cls, source: object) -> Trajectory:
        """The trajectory of a ``RunResult``, a finished ``RunResultStreaming``, or a model.

        For a :class:`ScriptedModel` (or its ``calls``) the steps are what the model
        answered: the tool calls it returned, and as handoffs the calls of handoffs that
        the request offered. Tool outputs are those the tools returned (for a run
        result) or the text the model was sent back (for a model).
        """
        if isinstance(source, Trajectory):
            return source
        trajectory = object.__new__(cls)
        trajectory._steps = steps_of(source, "Trajectory.of(source)")
        return trajectory

    @property
    def steps(self) -> tuple[TrajectoryStep, ...]:
        """Every step, in order."""
        return self._steps

    @property
    def tool_calls(self) -> tuple[ToolCallStep, ...]:
        """The tool calls only, in order."""
        return tuple(step for step in self._steps if isinstance(step, ToolCallStep))

    @property
    def handoffs(self) -> tuple[HandoffStep, ...]:
        """The handoffs only, in order."""
        return tuple(step for step in self._steps if isinstance(step, HandoffStep))

    @property
    def tool_names(self) -> list[str]:
        """The names of the tools called, in order (repeats kept)."""
        return [step.name for step in self.tool_calls]

    def assert_matches(
        self,
        expected: Sequence[TrajectoryStep],
        *,
        order: OrderMode = "strict",
        arguments: ArgumentMode = "exact",
    ) -> None:
        """Raise :class:`TrajectoryMismatch` unless these steps match ``expected``."""
        if order not in _ORDERS:
            raise invalid_argument(
                "order", f"one of {', '.join(map(repr, _ORDERS))}", safe_repr(order, 60)
            )
        if arguments not in _ARGUMENTS:
            raise invalid_argument(
                "arguments", f"one of {', '.join(map(repr, _ARGUMENTS))}", safe_repr(arguments, 60)
            )
        wanted = _checked_steps(expected, "expected")
        outcome = match(wanted, self._steps, order, arguments)
        if outcome.reason is not None:
            raise mismatch(wanted, self._steps, order, arguments, outcome)

    def __agents_testing_snapshot__(self) -> object:
        """The steps as plain JSON-able data, without the volatile call ids."""
        return [step._snapshot() for step in self._steps]

    @overload
    def __getitem__(self, index: int) -> TrajectoryStep: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[TrajectoryStep, ...]: ...

    def __getitem__(self, index: int | slice) -> TrajectoryStep | tuple[TrajectoryStep, ...]:
        return self._steps[index]

    def __len__(self) -> int:
        return len(self._steps)

    def __iter__(self) -> Iterator[TrajectoryStep]:
        return iter(self._steps)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Trajectory):
            return self._steps == other._steps
        return NotImplemented

    def __repr__(self) -> str:
        return f"Trajectory([{', '.join(map(repr, self._steps))}])"


def assert_trajectory(
    source: object,
    expected: Sequence[TrajectoryStep],
    *,
    order: OrderMode = "strict",
    arguments: ArgumentMode = "exact",
) -> Trajectory:
    """Assert that the run (or model) ``source`` took the ``expected`` steps; return its trajectory.

    ``order``: ``"strict"`` (the same steps in the same order), ``"unordered"`` (the same
    steps in any order), ``"subset"`` (every expected step happened, in that relative
    order, among others) or ``"superset"`` (every step that happened is expected, in
    that relative order; expected steps may not happen). ``arguments``: ``"exact"``
    (the same keys), ``"subset"`` (the expected keys, at any depth; extra keys allowed)
    or ``"ignore"``. Raises :class:`TrajectoryMismatch` with a step-by-step diff.
    """
    trajectory = Trajectory.of(source)
    trajectory.assert_matches(expected, order=order, arguments=arguments)
    return trajectory


def _checked_steps(steps: object, argument: str) -> tuple[TrajectoryStep, ...]:
    if isinstance(steps, Trajectory):
        return steps.steps
    if not isinstance(steps, Sequence) or isinstance(steps, (str, bytes, bytearray)):
        raise invalid_argument(
            argument,
            "a sequence of steps made by tool_call() and handoff_to()",
            describe(steps),
        )
    for index, step in enumerate(steps):
        if not isinstance(step, (ToolCallStep, HandoffStep)):
            raise invalid_argument(
                f"{argument}[{index}]", "a step made by tool_call() or handoff_to()", describe(step)
            )
    return tuple(steps)


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
