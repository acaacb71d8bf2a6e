from __future__ import annotations

import asyncio

import pytest

from agents_testing.core import exception_problem, safe_repr


class _BrokenRepr:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


class _NeedsArgs(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(code)


def test_safe_repr_survives_a_raising_repr() -> None:
    text = safe_repr(_BrokenRepr())
    assert text.startswith("<_BrokenRepr ")


def test_safe_repr_survives_an_int_too_long_to_print() -> None:
    text = safe_repr(10**5000)
    assert len(text) <= 120


def test_safe_repr_is_bounded() -> None:
    text = safe_repr("x" * 10_000, limit=50)
    assert len(text) == 50
    assert text.endswith("...")


def test_exception_problem_accepts_instances_and_argument_free_classes() -> None:
    assert exception_problem(ValueError("boom")) is None
    assert exception_problem(ValueError) is None


def test_exception_problem_names_a_class_that_needs_arguments() -> None:
    problem = exception_problem(_NeedsArgs)
    assert problem is not None
    assert problem.startswith("_NeedsArgs() cannot be created without arguments")


@pytest.mark.parametrize("value", [KeyboardInterrupt(), SystemExit, asyncio.CancelledError()])
def test_exception_problem_refuses_base_exceptions_unless_allowed(value: object) -> None:
    problem = exception_problem(value)
    assert problem is not None
    assert "not an Exception" in problem
    assert exception_problem(value, allow_base_exceptions=True) is None


def test_exception_problem_refuses_other_values() -> None:
    assert exception_problem("boom") == "expected an exception instance or class, got str"
