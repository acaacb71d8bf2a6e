from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest
from pydantic import BaseModel

from agents_testing.core import cycle_problem, exception_problem, safe_repr


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


def test_cycle_problem_names_where_a_value_refers_back_to_itself() -> None:
    looped: dict[str, Any] = {"k": 1}
    looped["self"] = looped

    assert cycle_problem(looped, "result") == (
        "result['self'] refers back to result, so the value contains itself (a cycle)"
    )
    assert cycle_problem({"a": [1, looped]}, "x") == (
        "x['a'][1]['self'] refers back to x['a'][1], so the value contains itself (a cycle)"
    )


@dataclasses.dataclass
class _Node:
    children: list[Any] = dataclasses.field(default_factory=list)


class _Item(BaseModel):
    parts: list[Any] = []


def test_cycle_problem_follows_dataclass_and_pydantic_fields() -> None:
    node = _Node()
    node.children.append({"parent": node})
    item = _Item()
    item.parts.append((item,))

    assert cycle_problem(node, "event") == (
        "event.children[0]['parent'] refers back to event, so the value contains itself (a cycle)"
    )
    assert cycle_problem(item, "item") is not None
    assert cycle_problem(item, "item").startswith("item.parts[0][0] refers back to item")  # type: ignore[union-attr]


def test_shared_values_and_plain_data_are_no_cycle() -> None:
    shared = [1, {"a": "b"}]
    assert cycle_problem({"x": shared, "y": shared, "z": (shared, [shared])}) is None
    assert cycle_problem([1, "a", b"b", None, 2.5, object()]) is None
    assert cycle_problem("text") is None


def test_cycle_problem_walks_any_depth_without_recursion() -> None:
    deep: list[Any] = []
    current = deep
    for _ in range(1500):  # deeper than the recursion limit
        inner: list[Any] = []
        current.append(inner)
        current = inner
    assert cycle_problem(deep) is None

    current.append(deep)
    problem = cycle_problem(deep, "result")
    assert problem is not None
    assert problem.startswith("result[0][0][0]...<")
    assert problem.endswith("[0] refers back to result, so the value contains itself (a cycle)")
    assert len(problem) < 200
