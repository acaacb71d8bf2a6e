"""The call schedule and the wait check every boundary's fault injection shares."""

from __future__ import annotations

import math

import pytest

from agents_testing.core import (
    ArgumentProblem,
    CallSchedule,
    schedule_problem,
    seconds_problem,
)


def _any_entry(entry: object) -> ArgumentProblem | None:
    return None


def _strings_only(entry: object) -> ArgumentProblem | None:
    return None if isinstance(entry, str) else ArgumentProblem("a str", type(entry).__name__)


def test_each_entry_is_handed_out_once_when_its_call_comes() -> None:
    schedule = CallSchedule({5: "cut", 3: "rate limit"})

    assert schedule.pending == {3: "rate limit", 5: "cut"}
    assert [schedule.take(number) for number in range(1, 7)] == [
        None,
        None,
        "rate limit",
        None,
        "cut",
        None,
    ]
    assert schedule.take(3) is None  # once only
    assert schedule.used == ((3, "rate limit"), (5, "cut"))
    assert schedule.pending == {}
    assert len(schedule) == 2


def test_what_is_pending_is_a_copy() -> None:
    schedule = CallSchedule({2: "x"})
    schedule.pending.clear()

    assert schedule.pending == {2: "x"}


@pytest.mark.parametrize(
    ("entries", "problem"),
    [
        (
            {0: "x"},
            ArgumentProblem("call numbers counted from 1 (the first call is call 1)", "0", 0),
        ),
        (
            {-1: "x"},
            ArgumentProblem("call numbers counted from 1 (the first call is call 1)", "-1", -1),
        ),
        ({"2": "x"}, ArgumentProblem("call numbers that are ints counted from 1", "str '2'")),
        ({True: "x"}, ArgumentProblem("call numbers that are ints counted from 1", "bool True")),
        (
            [1, 2],
            ArgumentProblem(
                "a mapping of call numbers to entries, such as {3: ...}", "list [1, 2]"
            ),
        ),
        ({1: "x", 4: 4}, ArgumentProblem("a str", "int", 4)),
    ],
    ids=["zero", "negative", "str", "bool", "list", "entry"],
)
def test_a_schedule_that_is_not_one_says_why(entries: object, problem: ArgumentProblem) -> None:
    assert schedule_problem(entries, _strings_only) == problem


def test_a_good_schedule_has_no_problem() -> None:
    assert schedule_problem({1: "a", 9: "b"}, _strings_only) is None
    assert schedule_problem({}, _any_entry) is None


@pytest.mark.parametrize("seconds", [0, 0.0, 1, 2.5, 600])
def test_a_wait_is_a_finite_number_of_seconds_from_zero(seconds: float) -> None:
    assert seconds_problem(seconds) is None


@pytest.mark.parametrize(
    ("seconds", "problem"),
    [
        (-1, ArgumentProblem("a number of seconds >= 0 (time only moves forward)", "-1")),
        (math.nan, ArgumentProblem("a finite number of seconds", "nan")),
        (math.inf, ArgumentProblem("a finite number of seconds", "inf")),
        (True, ArgumentProblem("a number of seconds", "bool True")),
        ("3", ArgumentProblem("a number of seconds", "str '3'")),
        (None, ArgumentProblem("a number of seconds", "NoneType None")),
    ],
)
def test_a_wait_that_is_not_one_says_why(seconds: object, problem: ArgumentProblem) -> None:
    assert seconds_problem(seconds) == problem
