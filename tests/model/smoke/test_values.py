"""The seeded value walk of the default smoke mode: valid, repeatable, clear when stuck."""

from __future__ import annotations

import random
from typing import Any, Literal

import pytest
from agents import function_tool
from pydantic import BaseModel, Field

from agents_testing.core.json_schema import first_violation
from agents_testing.model._smoke.values import Unsatisfiable, value_for


class Leg(BaseModel):
    city: str = Field(min_length=3, max_length=5)
    nights: int = Field(ge=1, le=3)
    tags: list[str] = Field(default_factory=list, max_length=2)


class Node(BaseModel):
    name: str
    children: list[Node] = Field(default_factory=list)


@function_tool
def plan(
    legs: list[Leg],
    cabin: Literal["economy", "business"],
    budget: float | None,
    tree: Node,
    code: str = Field(pattern=r"^[A-Z]{3}$"),
) -> str:
    """Plan a trip."""
    return "ok"


SCHEMAS: list[Any] = [
    plan.params_json_schema,
    {"type": "object", "properties": {"n": {"type": "integer", "multipleOf": 5, "minimum": 7}}},
    {"type": "object", "properties": {"x": {"type": "number", "exclusiveMinimum": 0.5}}},
    {"type": "object", "properties": {"when": {"type": "string", "format": "date-time"}}},
    {
        "type": "object",
        "properties": {
            "ids": {
                "type": "array",
                "items": {"enum": [1, 2, 3]},
                "minItems": 3,
                "uniqueItems": True,
            }
        },
    },
    {
        "type": "object",
        "allOf": [
            {"properties": {"a": {"const": 1}}, "required": ["a"]},
            {"properties": {"b": {"type": "boolean"}}, "required": ["b"]},
        ],
    },
    {"type": "object", "required": ["free"], "additionalProperties": {"type": "integer"}},
    {"type": ["string", "null"], "minLength": 12},
]


@pytest.mark.parametrize("schema", SCHEMAS, ids=range(len(SCHEMAS)))
def test_every_generated_value_fits_its_schema(schema: Any) -> None:
    for seed in range(20):
        value = value_for(schema, random.Random(seed))

        assert first_violation(value, schema) is None, (seed, value)


def test_the_same_seed_gives_the_same_value_and_another_seed_another() -> None:
    schema = plan.params_json_schema

    first = value_for(schema, random.Random("seed-1"))
    again = value_for(schema, random.Random("seed-1"))
    others = [value_for(schema, random.Random(f"seed-{n}")) for n in range(2, 8)]

    assert first == again
    assert any(other != first for other in others)


def test_a_pattern_the_walk_cannot_guess_is_reported_with_its_path() -> None:
    schema = {
        "type": "object",
        "properties": {"iban": {"type": "string", "pattern": r"^GB\d{2}[A-Z]{4}\d{14}$"}},
        "required": ["iban"],
    }

    with pytest.raises(Unsatisfiable) as caught:
        value_for(schema, random.Random(0))

    assert caught.value.path == "$.iban"
    assert "pattern" in caught.value.reason


def test_a_false_schema_cannot_be_satisfied() -> None:
    with pytest.raises(Unsatisfiable, match="allows no value"):
        value_for(
            {"type": "object", "properties": {"x": False}, "required": ["x"]}, random.Random(0)
        )
