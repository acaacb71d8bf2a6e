"""The step-by-step diff a failed trajectory assertion shows."""

from __future__ import annotations

from collections.abc import Sequence

from agents_testing.core import ordinal

from .._errors import TrajectoryMismatch
from .match import ArgumentMode, OrderMode, Outcome
from .steps import TrajectoryStep

__all__ = ["mismatch"]

_MARK = ">"


def mismatch(
    expected: tuple[TrajectoryStep, ...],
    actual: tuple[TrajectoryStep, ...],
    order: OrderMode,
    arguments: ArgumentMode,
    outcome: Outcome,
) -> TrajectoryMismatch:
    """The error for a failed match, its message listing both trajectories."""
    reason = outcome.reason or ""
    matched = {} if order == "strict" else outcome.pairs
    lines = [
        f"Trajectory does not match (order={order!r}, arguments={arguments!r}): {reason}",
        f"Expected ({_count(expected)}):",
        *_listing(expected, outcome.expected_index, {}),
        f"Actual ({_count(actual)}):",
        *_listing(actual, outcome.actual_index, matched),
        f"({_MARK} marks the first divergence; steps count from 1.)",
    ]
    return TrajectoryMismatch(
        "\n".join(lines),
        expected=expected,
        actual=actual,
        order=order,
        arguments=arguments,
        reason=reason,
        expected_index=outcome.expected_index,
        actual_index=outcome.actual_index,
    )


def _count(steps: Sequence[TrajectoryStep]) -> str:
    return "1 step" if len(steps) == 1 else f"{len(steps)} steps"


def _listing(
    steps: Sequence[TrajectoryStep], marked: int | None, matched: dict[int, int]
) -> list[str]:
    if not steps:
        return ["     (none)"]
    width = len(str(len(steps)))
    lines = []
    for index, step in enumerate(steps):
        mark = _MARK if index == marked else " "
        note = f"  = expected {ordinal(matched[index])}" if index in matched else ""
        lines.append(f"  {mark} {ordinal(index):>{width}}  {step!r}{note}")
    return lines
