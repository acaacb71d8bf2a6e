"""Matching an expected trajectory against an actual one under an order and an argument mode.

Values are compared with the expected value on the left (``expected == actual``), so
matchers such as ``unittest.mock.ANY`` or dirty-equals objects work at any depth.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from agents_testing.core import ordinal, safe_repr

from .steps import NOT_CHECKED, HandoffStep, ToolCallStep, TrajectoryStep

__all__ = ["ArgumentMode", "Outcome", "OrderMode", "difference", "match"]

OrderMode = Literal["strict", "unordered", "subset", "superset"]
ArgumentMode = Literal["exact", "subset", "ignore"]


@dataclass
class Outcome:
    """Where two trajectories first part ways (nothing set when they match).

    ``pairs`` maps actual indices to the expected indices they matched (0-based).
    """

    reason: str | None = None
    expected_index: int | None = None
    actual_index: int | None = None
    pairs: dict[int, int] = field(default_factory=dict)


def match(
    expected: Sequence[TrajectoryStep],
    actual: Sequence[TrajectoryStep],
    order: OrderMode,
    arguments: ArgumentMode,
) -> Outcome:
    """Compare the trajectories; ``Outcome.reason`` is None when they match."""
    if order == "strict":
        return _strict(expected, actual, arguments)
    if order == "subset":
        return _in_order(expected, actual, arguments)
    if order == "superset":
        return _in_order(expected, actual, arguments, actual_side=True)
    return _unordered(expected, actual, arguments)


def _origin_difference(expected: str | None, actual: str | None, what: str, did: str) -> str | None:
    """Whether the agent a step came from is ``expected`` (None: any agent)."""
    if expected is None:
        return None
    if actual is None:
        return (
            f"expected {what} {safe_repr(expected, 80)}, but which agent {did} is not known "
            f"(a model's calls do not record it)"
        )
    if expected != actual:
        return f"expected {what} {safe_repr(expected, 80)}, got it from {safe_repr(actual, 80)}"
    return None


def difference(
    expected: TrajectoryStep, actual: TrajectoryStep, arguments: ArgumentMode
) -> str | None:
    """What makes ``actual`` fail ``expected``, or None when it matches."""
    if isinstance(expected, HandoffStep):
        if not isinstance(actual, HandoffStep):
            return f"expected a handoff to {safe_repr(expected.target, 80)}, got a tool call"
        if expected.target != actual.target:
            return (
                f"expected a handoff to {safe_repr(expected.target, 80)}, got one to "
                f"{safe_repr(actual.target, 80)}"
            )
        return _origin_difference(expected.source, actual.source, "the handoff from", "handed off")
    if not isinstance(expected, ToolCallStep) or not isinstance(actual, ToolCallStep):
        return f"expected a call of {safe_repr(getattr(expected, 'name', None), 80)}, got a handoff"
    if expected.name not in (actual.name, actual.kind):
        return (
            f"expected a call of {safe_repr(expected.name, 80)}, got a call of "
            f"{safe_repr(actual.name, 80)}"
        )
    problem = _origin_difference(expected.agent, actual.agent, "the call from agent", "made it")
    if problem is not None:
        return problem
    if arguments != "ignore" and expected.arguments is not NOT_CHECKED:
        problem = _value_difference(
            expected.arguments, actual.arguments, "arguments", subset=arguments == "subset"
        )
        if problem is not None:
            return problem
    if expected.output is not NOT_CHECKED:
        if actual.output is NOT_CHECKED:
            return f"expected output {safe_repr(expected.output, 80)}, but no output was recorded"
        if not _equal(expected.output, actual.output):
            return (
                f"output: expected {safe_repr(expected.output, 80)}, got "
                f"{safe_repr(actual.output, 80)}"
            )
    return None


def _value_difference(expected: Any, actual: Any, path: str, *, subset: bool) -> str | None:
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            return f"{path}: expected a mapping, got {safe_repr(actual, 80)}"
        for key in expected:
            if key not in actual:
                return f"{path}: missing key {safe_repr(key, 40)}"
        if not subset:
            for key in actual:
                if key not in expected:
                    return (
                        f"{path}: unexpected key {safe_repr(key, 40)} "
                        f"(value {safe_repr(actual[key], 60)})"
                    )
        for key, value in expected.items():
            problem = _value_difference(value, actual[key], f"{path}[{key!r}]", subset=subset)
            if problem is not None:
                return problem
        return None
    if isinstance(expected, (list, tuple)):
        if not isinstance(actual, (list, tuple)):
            return f"{path}: expected a list, got {safe_repr(actual, 80)}"
        if len(expected) != len(actual):
            return f"{path}: expected {len(expected)} item(s), got {len(actual)}"
        for position, (item, got) in enumerate(zip(expected, actual, strict=True)):
            problem = _value_difference(item, got, f"{path}[{position}]", subset=subset)
            if problem is not None:
                return problem
        return None
    if not _equal(expected, actual):
        return f"{path}: expected {safe_repr(expected, 80)}, got {safe_repr(actual, 80)}"
    return None


def _equal(expected: Any, actual: Any) -> bool:
    # The expected value decides: a matcher's __eq__ runs even against a plain value.
    return bool(expected == actual)


def _strict(
    expected: Sequence[TrajectoryStep], actual: Sequence[TrajectoryStep], arguments: ArgumentMode
) -> Outcome:
    for index, (want, got) in enumerate(zip(expected, actual, strict=False)):
        problem = difference(want, got, arguments)
        if problem is not None:
            return Outcome(f"step {ordinal(index)} differs: {problem}.", index, index)
    if len(expected) == len(actual):
        return Outcome()
    index = min(len(expected), len(actual))
    if len(expected) > len(actual):
        reason = f"expected step {ordinal(index)} {expected[index]!r} did not happen."
        return Outcome(
            f"expected {len(expected)} step(s), got {len(actual)}: {reason}", index, None
        )
    reason = f"actual step {ordinal(index)} {actual[index]!r} was not expected."
    return Outcome(f"expected {len(expected)} step(s), got {len(actual)}: {reason}", None, index)


def _in_order(
    expected: Sequence[TrajectoryStep],
    actual: Sequence[TrajectoryStep],
    arguments: ArgumentMode,
    *,
    actual_side: bool = False,
) -> Outcome:
    """Subset: each expected step occurs in ``actual``, in order; superset: the reverse.

    Taking the earliest match for each step is optimal for an in-order match: any later
    match could be swapped for it without losing a match further on.
    """
    needles, haystack = (actual, expected) if actual_side else (expected, actual)
    pairs: dict[int, int] = {}
    position = 0
    for index, needle in enumerate(needles):
        found = next(
            (
                spot
                for spot in range(position, len(haystack))
                if _matches(needle, haystack[spot], arguments, actual_side)
            ),
            None,
        )
        if found is None:
            after = "" if position == 0 else f" after {_other(actual_side)} step {position}"
            hint = _nearest(needle, haystack[position:], position, arguments, actual_side)
            if actual_side:
                reason = (
                    f"actual step {ordinal(index)} {needle!r} is not among the expected "
                    f"steps{after}{hint}."
                )
                return Outcome(reason, None, index, pairs)
            reason = f"expected step {ordinal(index)} {needle!r} did not happen{after}{hint}."
            return Outcome(reason, index, None, pairs)
        if actual_side:
            pairs[index] = found
        else:
            pairs[found] = index
        position = found + 1
    return Outcome(pairs=pairs)


def _unordered(
    expected: Sequence[TrajectoryStep], actual: Sequence[TrajectoryStep], arguments: ArgumentMode
) -> Outcome:
    """Both hold the same steps in any order: a perfect matching (augmenting paths)."""
    fits = [
        [spot for spot, got in enumerate(actual) if difference(want, got, arguments) is None]
        for want in expected
    ]
    owner: dict[int, int] = {}  # actual index -> expected index

    def assign(index: int, seen: set[int]) -> bool:
        for spot in fits[index]:
            if spot in seen:
                continue
            seen.add(spot)
            if spot not in owner or assign(owner[spot], seen):
                owner[spot] = index
                return True
        return False

    unmatched = [index for index in range(len(expected)) if not assign(index, set())]
    pairs = dict(sorted(owner.items()))
    if unmatched:
        index = unmatched[0]
        free = [spot for spot in range(len(actual)) if spot not in owner]
        hint = _nearest_among(expected[index], actual, free, arguments)
        reason = f"expected step {ordinal(index)} {expected[index]!r} did not happen{hint}."
        return Outcome(reason, index, free[0] if free else None, pairs)
    extra = [spot for spot in range(len(actual)) if spot not in owner]
    if extra:
        spot = extra[0]
        reason = f"actual step {ordinal(spot)} {actual[spot]!r} was not expected."
        return Outcome(reason, None, spot, pairs)
    return Outcome(pairs=pairs)


def _matches(
    needle: TrajectoryStep, candidate: TrajectoryStep, arguments: ArgumentMode, actual_side: bool
) -> bool:
    if actual_side:
        return difference(candidate, needle, arguments) is None
    return difference(needle, candidate, arguments) is None


def _other(actual_side: bool) -> str:
    return "expected" if actual_side else "actual"


def _same_subject(a: TrajectoryStep, b: TrajectoryStep) -> bool:
    if isinstance(a, ToolCallStep) and isinstance(b, ToolCallStep):
        return a.name == b.name or a.name == b.kind or b.name == a.kind
    if isinstance(a, HandoffStep) and isinstance(b, HandoffStep):
        return a.target == b.target
    return False


def _nearest(
    needle: TrajectoryStep,
    rest: Sequence[TrajectoryStep],
    offset: int,
    arguments: ArgumentMode,
    actual_side: bool,
) -> str:
    """Why the first step of the same tool (or target) did not match, as a hint."""
    for spot, candidate in enumerate(rest):
        if _same_subject(needle, candidate):
            want, got = (candidate, needle) if actual_side else (needle, candidate)
            problem = difference(want, got, arguments)
            side = _other(actual_side)
            return f" (nearest: {side} step {ordinal(offset + spot)}, {problem})"
    return ""


def _nearest_among(
    needle: TrajectoryStep,
    actual: Sequence[TrajectoryStep],
    free: list[int],
    arguments: ArgumentMode,
) -> str:
    for spot in free:
        if _same_subject(needle, actual[spot]):
            problem = difference(needle, actual[spot], arguments)
            return f" (nearest: actual step {ordinal(spot)}, {problem})"
    return ""
