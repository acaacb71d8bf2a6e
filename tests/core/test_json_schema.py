"""The JSON Schema check behind checked tool calls: keywords, paths and messages."""

from __future__ import annotations

import enum
import json
from typing import Any, Literal

import pytest
from agents import function_tool
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, Field

from agents_testing.core.json_schema import first_violation, json_path

# (schema, value, (path, rule, message) or None when valid)
CASES: list[tuple[str, Any, Any, tuple[str, str, str] | None]] = [
    ("type ok", {"type": "string"}, "a", None),
    ("type", {"type": "string"}, 3, ("$", "type", "expected string, got integer 3")),
    ("type list", {"type": ["string", "null"]}, None, None),
    (
        "type list fails",
        {"type": ["string", "null"]},
        True,
        ("$", "type", "expected string or null, got true"),
    ),
    ("integer accepts 2.0", {"type": "integer"}, 2.0, None),
    (
        "integer refuses 2.5",
        {"type": "integer"},
        2.5,
        ("$", "type", "expected integer, got number 2.5"),
    ),
    (
        "bool is no integer",
        {"type": "integer"},
        False,
        ("$", "type", "expected integer, got false"),
    ),
    ("bool is no number", {"type": "number"}, True, ("$", "type", "expected number, got true")),
    ("unknown type name", {"type": "decimal"}, "x", None),
    ("true schema", True, {"any": 1}, None),
    (
        "false schema",
        {"properties": {"a": False}},
        {"a": 1},
        ("$.a", "false", "no value is allowed here"),
    ),
    (
        "required",
        {"type": "object", "required": ["city"]},
        {},
        ("$.city", "required", "'city' is required"),
    ),
    (
        "additionalProperties false",
        {"properties": {"a": {}}, "additionalProperties": False},
        {"a": 1, "b c": 2},
        ("$['b c']", "additionalProperties", "'b c' is not an allowed property (allowed: a)"),
    ),
    (
        "additionalProperties schema",
        {"properties": {"a": {}}, "additionalProperties": {"type": "integer"}},
        {"a": "x", "b": "y"},
        ("$.b", "type", "expected integer, got string 'y'"),
    ),
    (
        "patternProperties",
        {"patternProperties": {"^n_": {"type": "integer"}}, "additionalProperties": False},
        {"n_one": 1, "n_two": "2"},
        ("$.n_two", "type", "expected integer, got string '2'"),
    ),
    (
        "items",
        {"type": "array", "items": {"type": "string"}},
        ["a", 1],
        ("$[1]", "type", "expected string, got integer 1"),
    ),
    (
        "prefixItems then items false",
        {"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": False},
        ["a", 1, 2],
        ("$[2]", "items", "the array allows at most 2 items"),
    ),
    (
        "old tuple items",
        {"items": [{"type": "string"}], "additionalItems": {"type": "integer"}},
        ["a", 1, "b"],
        ("$[2]", "type", "expected integer, got string 'b'"),
    ),
    ("enum", {"enum": ["a", "b"]}, "c", ("$", "enum", "'c' is not one of 'a', 'b'")),
    ("enum tells true from 1", {"enum": [1]}, True, ("$", "enum", "True is not one of 1")),
    ("enum 1 is 1.0", {"enum": [1]}, 1.0, None),
    ("const", {"const": "x"}, "y", ("$", "const", "'y' is not the constant 'x'")),
    ("const deep", {"const": {"a": [1, 2]}}, {"a": [1, 2.0]}, None),
    ("minimum", {"minimum": 1}, 0, ("$", "minimum", "0 is less than the minimum 1")),
    ("maximum", {"maximum": 9}, 10, ("$", "maximum", "10 is greater than the maximum 9")),
    (
        "exclusiveMinimum",
        {"exclusiveMinimum": 0},
        0,
        ("$", "exclusiveMinimum", "0 is not greater than 0"),
    ),
    (
        "exclusiveMaximum",
        {"exclusiveMaximum": 5},
        5.0,
        ("$", "exclusiveMaximum", "5.0 is not less than 5"),
    ),
    (
        "draft 4 exclusive bound",
        {"minimum": 0, "exclusiveMinimum": True},
        0,
        ("$", "exclusiveMinimum", "0 is not greater than 0"),
    ),
    ("multipleOf decimal", {"multipleOf": 0.1}, 0.3, None),
    ("multipleOf", {"multipleOf": 5}, 12, ("$", "multipleOf", "12 is not a multiple of 5")),
    ("minLength", {"minLength": 2}, "a", ("$", "minLength", "'a' is shorter than 2 characters")),
    ("maxLength", {"maxLength": 1}, "ab", ("$", "maxLength", "'ab' is longer than 1 character")),
    ("pattern searches", {"pattern": "[0-9]"}, "a1b", None),
    (
        "pattern",
        {"pattern": "^[0-9]+$"},
        "a1",
        ("$", "pattern", "'a1' does not match the pattern '^[0-9]+$'"),
    ),
    ("pattern python cannot compile", {"pattern": "(?<name"}, "a", None),
    ("format ignored", {"type": "string", "format": "email"}, "not an email", None),
    ("minItems", {"minItems": 2}, [1], ("$", "minItems", "the array has 1 item, fewer than 2")),
    ("maxItems", {"maxItems": 1}, [1, 2], ("$", "maxItems", "the array has 2 items, more than 1")),
    (
        "uniqueItems",
        {"uniqueItems": True},
        [1, 2, 1.0],
        ("$", "uniqueItems", "items 1 and 3 are equal"),
    ),
    (
        "maxProperties",
        {"maxProperties": 1},
        {"a": 1, "b": 2},
        ("$", "maxProperties", "the object has 2 properties, more than 1"),
    ),
    (
        "anyOf none",
        {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        "x",
        ("$", "anyOf", "string 'x' matches none of the alternatives (integer | null)"),
    ),
    (
        "anyOf explains the deepest branch",
        {
            "anyOf": [
                {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                {"type": "null"},
            ]
        },
        {"a": 1},
        ("$.a", "type", "expected string, got integer 1"),
    ),
    (
        "oneOf more than one",
        {"oneOf": [{"type": "integer"}, {"minimum": 0}]},
        3,
        ("$", "oneOf", "3 matches more than one alternative (#1 and #2)"),
    ),
    ("oneOf exactly one", {"oneOf": [{"type": "integer"}, {"type": "string"}]}, "a", None),
    (
        "allOf",
        {"allOf": [{"type": "integer"}, {"minimum": 5}]},
        4,
        ("$", "minimum", "4 is less than the minimum 5"),
    ),
    (
        "not",
        {"not": {"type": "null"}},
        None,
        ("$", "not", "None matches a schema it must not match"),
    ),
    (
        "$ref to $defs",
        {"$defs": {"A": {"type": "integer"}}, "properties": {"a": {"$ref": "#/$defs/A"}}},
        {"a": "1"},
        ("$.a", "type", "expected integer, got string '1'"),
    ),
    (
        "$ref to definitions",
        {"definitions": {"A": {"enum": [1]}}, "items": {"$ref": "#/definitions/A"}},
        [1, 2],
        ("$[1]", "enum", "2 is not one of 1"),
    ),
    (
        "recursive $ref",
        {"type": "object", "properties": {"child": {"$ref": "#"}, "n": {"type": "integer"}}},
        {"child": {"child": {"n": "deep"}}},
        ("$.child.child.n", "type", "expected integer, got string 'deep'"),
    ),
    (
        "$ref cycle without data",
        {"$defs": {"A": {"$ref": "#/$defs/A"}}, "$ref": "#/$defs/A"},
        1,
        None,
    ),
    ("$ref outside the document", {"$ref": "https://example.com/schema"}, 1, None),
    (
        "a pattern re cannot compile may match any key",
        {"patternProperties": {"(?<x": {}}, "additionalProperties": False},
        {"anything": 1},
        None,
    ),
    ("unknown keywords ignored", {"x-vendor": {"type": "string"}}, 1, None),
    (
        "if then",
        {"if": {"type": "string"}, "then": {"minLength": 9}},
        "a",
        ("$", "minLength", "'a' is shorter than 9 characters"),
    ),
    (
        "if else",
        {"if": {"type": "string"}, "then": {"minLength": 9}, "else": {"minimum": 5}},
        3,
        ("$", "minimum", "3 is less than the minimum 5"),
    ),
    (
        "dependentRequired",
        {"dependentRequired": {"card": ["expiry"]}},
        {"card": "4111"},
        ("$", "dependentRequired", "'expiry' is a dependency of 'card'"),
    ),
    (
        "dependentSchemas",
        {"dependentSchemas": {"card": {"required": ["expiry"]}}},
        {"card": "4111"},
        ("$.expiry", "required", "'expiry' is required"),
    ),
    (
        "propertyNames",
        {"propertyNames": {"pattern": "^[a-z]+$"}},
        {"ok": 1, "Bad": 2},
        ("$", "pattern", "'Bad' does not match the pattern '^[a-z]+$'"),
    ),
    (
        "contains",
        {"contains": {"type": "integer"}},
        ["a", "b"],
        ("$", "contains", "['a', 'b'] does not contain items matching the given schema"),
    ),
    ("contains found", {"contains": {"type": "integer"}}, ["a", 2], None),
    (
        "maxContains",
        {"contains": {"type": "integer"}, "maxContains": 1},
        [1, 2],
        ("$", "maxContains", "Too many items match the given schema (expected at most 1)"),
    ),
    (
        "unevaluatedProperties",
        {"properties": {"a": {}}, "unevaluatedProperties": False},
        {"a": 1, "b": 2},
        (
            "$",
            "unevaluatedProperties",
            "Unevaluated properties are not allowed ('b' was unexpected)",
        ),
    ),
    (
        "a remote $ref is not judged, the rest is",
        {"properties": {"a": {"$ref": "https://example.com/s"}, "b": {"type": "integer"}}},
        {"a": 1, "b": "x"},
        ("$.b", "type", "expected integer, got string 'x'"),
    ),
    (
        "draft 7 named in $schema",
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "items": [{"type": "string"}],
            "additionalItems": False,
        },
        ["a", "b"],
        ("$[1]", "items", "the array allows at most 1 item"),
    ),
]


@pytest.mark.parametrize(
    ("schema", "value", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_each_keyword_reports_its_path_rule_and_message(
    schema: Any, value: Any, expected: tuple[str, str, str] | None
) -> None:
    found = first_violation(value, schema)

    if expected is None:
        assert found is None
    else:
        assert found is not None
        assert (found.path, found.rule, found.message) == expected


def test_paths_quote_keys_that_are_not_identifiers() -> None:
    assert json_path(()) == "$"
    assert json_path(("legs", 0, "city")) == "$.legs[0].city"
    assert json_path(("a b", "x.y", 2)) == "$['a b']['x.y'][2]"


def test_a_value_nested_deeper_than_python_can_follow_is_not_judged() -> None:
    value: Any = "leaf"
    for _ in range(5_000):
        value = [value]

    assert first_violation(value, {"items": {"$ref": "#"}, "type": "array"}) is None


def test_a_huge_or_hostile_value_stays_bounded_in_the_message() -> None:
    found = first_violation("x" * 10_000, {"maxLength": 3})

    assert found is not None
    assert len(found.message) < 200
    assert found.value == "x" * 10_000


# -- against the schemas the SDK builds from typed functions ---------------------------------


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Stop(BaseModel):
    name: str = Field(min_length=1, max_length=20)
    minutes: int = Field(ge=0, le=600)
    colour: Colour | None = None


class Route(BaseModel):
    stops: list[Stop]
    grid: list[list[int]]
    mode: Literal["walk", "ride"]
    note: str | None = None


def route(route: Route, tags: list[str], limit: int | None = None) -> str:
    """Plan a route."""
    return ""


STRICT = function_tool(route).params_json_schema
LOOSE = function_tool(route, strict_mode=False).params_json_schema


def _stops() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {
            "name": st.text(min_size=1, max_size=20),
            "minutes": st.integers(0, 600),
            "colour": st.sampled_from([None, "red", "blue"]),
        }
    )


def _arguments() -> st.SearchStrategy[dict[str, Any]]:
    route_value = st.fixed_dictionaries(
        {
            "stops": st.lists(_stops(), max_size=3),
            "grid": st.lists(st.lists(st.integers(), max_size=3), max_size=3),
            "mode": st.sampled_from(["walk", "ride"]),
            "note": st.none() | st.text(max_size=10),
        }
    )
    return st.fixed_dictionaries(
        {
            "route": route_value,
            "tags": st.lists(st.text(max_size=5), max_size=3),
            "limit": st.none() | st.integers(),
        }
    )


@given(_arguments())
def test_arguments_pydantic_accepts_are_valid_for_the_strict_and_loose_schemas(
    arguments: dict[str, Any],
) -> None:
    # Round-tripped through JSON as the model would send them.
    decoded = json.loads(json.dumps(arguments))
    Route.model_validate(decoded["route"])  # the generator makes what pydantic accepts

    assert first_violation(decoded, STRICT) is None
    assert first_violation(decoded, LOOSE) is None


@given(_arguments(), st.data())
def test_a_removed_required_field_is_reported_at_its_path(
    arguments: dict[str, Any], data: st.DataObject
) -> None:
    decoded = json.loads(json.dumps(arguments))
    stops = decoded["route"]["stops"]
    if stops:
        index = data.draw(st.integers(0, len(stops) - 1))
        field = data.draw(st.sampled_from(["name", "minutes"]))
        del stops[index][field]
        expected = f"$.route.stops[{index}].{field}"
    else:
        del decoded["route"]["mode"]
        expected = "$.route.mode"

    for schema in (STRICT, LOOSE):
        found = first_violation(decoded, schema)
        assert found is not None
        assert (found.path, found.rule) == (expected, "required")


@given(_arguments(), st.sampled_from([-1, 601]))
def test_an_out_of_range_number_inside_a_list_is_reported(
    arguments: dict[str, Any], minutes: int
) -> None:
    decoded = json.loads(json.dumps(arguments))
    decoded["route"]["stops"].append({"name": "End", "minutes": minutes, "colour": None})
    last = len(decoded["route"]["stops"]) - 1

    found = first_violation(decoded, STRICT)

    assert found is not None
    assert found.path == f"$.route.stops[{last}].minutes"
    assert found.rule == ("minimum" if minutes < 0 else "maximum")
