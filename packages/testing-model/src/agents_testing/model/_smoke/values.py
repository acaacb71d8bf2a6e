"""Seeded, deterministic values for a JSON Schema: the arguments of the default smoke mode.

Hypothesis draws values only inside ``@given`` (its ``.example()`` warns outside an
interactive session, is not seeded and is refused inside a test, and ``find()`` shrinks
for seconds), and its choices change between its releases. A smoke run must give the
same arguments for the same seed on every install, in microseconds, so the default
mode walks the schema itself with a :class:`random.Random`. Every value is checked with
:func:`agents_testing.core.json_schema.first_violation` before it is used; where this
walk cannot satisfy a schema (a ``pattern`` it cannot guess, contradicting keywords) it
says where, and the test gives those arguments itself or uses the property-based mode.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

from agents_testing.core.json_schema import first_violation

__all__ = ["Unsatisfiable", "value_for"]

_WORDS = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel")
_FORMATS: dict[str, tuple[str, ...]] = {
    "date": ("2030-01-15", "2031-06-30"),
    "date-time": ("2030-01-15T09:30:00Z", "2031-06-30T18:00:00Z"),
    "time": ("09:30:00", "18:00:00"),
    "email": ("alpha@example.com", "bravo@example.org"),
    "uri": ("https://example.com/alpha", "https://example.org/bravo"),
    "url": ("https://example.com/alpha", "https://example.org/bravo"),
    "uuid": ("00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"),
    "ipv4": ("192.0.2.1", "198.51.100.7"),
    "ipv6": ("2001:db8::1", "2001:db8::7"),
    "hostname": ("example.com", "example.org"),
    "duration": ("P1D", "PT2H"),
}
# Strings tried for a ``pattern``: codes and words of the shapes tool schemas ask for.
_PATTERN_GUESSES = (
    "A",
    "AB",
    "ABC",
    "ABCD",
    "a",
    "abc",
    "0",
    "00",
    "000",
    "0000",
    "AB12",
    "ABC123",
    "BK0001",
    "AB1234",
    "alpha",
    "alpha-bravo",
    "alpha_bravo",
    "alpha@example.com",
    "2030-01-15",
    "+15550100",
    "",
)
# Past this depth a recursive schema takes its smallest choices: no optional
# properties, the fewest items, a non-recursive alternative.
_SHALLOW_DEPTH = 4
_MAX_DEPTH = 24
_ATTEMPTS = 8


class Unsatisfiable(Exception):
    """No value was found for a schema: ``path`` says where, ``reason`` what stood in the way."""

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"at {path}: {reason}")


def value_for(schema: Any, rng: random.Random) -> Any:
    """A value valid for ``schema``, chosen with ``rng``; raises :class:`Unsatisfiable`."""
    last: Unsatisfiable | None = None
    for _ in range(_ATTEMPTS):
        try:
            value = _Walk(schema, rng).value(schema, "$", 0)
        except Unsatisfiable as problem:
            last = problem
            continue
        violation = first_violation(value, schema)
        if violation is None:
            return value
        last = Unsatisfiable(violation.path, f"{violation.message} (schema rule: {violation.rule})")
    assert last is not None
    raise last


class _Walk:
    """One pass over a schema, with its root for ``$ref`` lookups."""

    def __init__(self, root: Any, rng: random.Random) -> None:
        self.root = root
        self.rng = rng

    def value(self, schema: Any, path: str, depth: int) -> Any:
        if depth > _MAX_DEPTH:
            raise Unsatisfiable(path, "the schema nests deeper than 24 levels")
        if schema is True or schema == {}:
            return self.rng.choice(_WORDS)
        if schema is False:
            raise Unsatisfiable(path, "the schema allows no value here (false)")
        if not isinstance(schema, Mapping):
            raise Unsatisfiable(path, f"not a schema: {type(schema).__name__}")
        ref = schema.get("$ref")
        if isinstance(ref, str):
            target = self.resolve(ref, path)
            rest = {key: value for key, value in schema.items() if key != "$ref"}
            return self.value(_merged([target, rest]) if rest else target, path, depth + 1)
        if "const" in schema:
            return schema["const"]
        if isinstance(schema.get("enum"), list) and schema["enum"]:
            return self.rng.choice(schema["enum"])
        if isinstance(schema.get("allOf"), list) and schema["allOf"]:
            parts = [self.resolved(part, path) for part in schema["allOf"]]
            rest = {key: value for key, value in schema.items() if key != "allOf"}
            return self.value(_merged([*parts, rest]), path, depth + 1)
        for keyword in ("anyOf", "oneOf"):
            options = schema.get(keyword)
            if isinstance(options, list) and options:
                rest = {key: value for key, value in schema.items() if key != keyword}
                return self.value(
                    _merged([self.choose(options, depth), rest])
                    if rest
                    else self.choose(options, depth),
                    path,
                    depth + 1,
                )
        kind = schema.get("type")
        if isinstance(kind, list):
            kinds = [name for name in kind if isinstance(name, str)]
            if not kinds:
                raise Unsatisfiable(path, "the type list is empty")
            kind = self.choose_type(kinds, depth)
        if kind is None:
            kind = _implied_type(schema)
        maker = _MAKERS.get(str(kind))
        if maker is None:
            raise Unsatisfiable(path, f"unknown type {kind!r}")
        return maker(self, schema, path, depth)

    def resolve(self, ref: str, path: str) -> Any:
        if not ref.startswith("#"):
            raise Unsatisfiable(path, f"the reference {ref!r} points outside the schema")
        target: Any = self.root
        for raw in ref[1:].split("/")[1:] if ref != "#" else []:
            part = raw.replace("~1", "/").replace("~0", "~")
            if isinstance(target, Mapping) and part in target:
                target = target[part]
            elif isinstance(target, list) and part.isdigit() and int(part) < len(target):
                target = target[int(part)]
            else:
                raise Unsatisfiable(path, f"the reference {ref!r} does not resolve")
        return target

    def resolved(self, schema: Any, path: str) -> Any:
        if isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str):
            return self.resolved(self.resolve(schema["$ref"], path), path)
        return schema

    def choose(self, options: Sequence[Any], depth: int) -> Any:
        if depth >= _SHALLOW_DEPTH:
            # Deep inside a recursive schema: prefer an option that ends it.
            plain = [option for option in options if not _refers(option)]
            if plain:
                return plain[0]
        return self.rng.choice(list(options))

    def choose_type(self, kinds: list[str], depth: int) -> str:
        if depth >= _SHALLOW_DEPTH:
            for simple in ("null", "boolean", "integer", "number", "string"):
                if simple in kinds:
                    return simple
        return self.rng.choice(kinds)


def _merged(parts: Sequence[Any]) -> dict[str, Any]:
    """The keywords of ``parts`` together: properties joined, ``required`` united."""
    merged: dict[str, Any] = {}
    for part in parts:
        if not isinstance(part, Mapping):
            continue
        for key, value in part.items():
            if key == "properties" and isinstance(value, Mapping):
                merged["properties"] = {**merged.get("properties", {}), **value}
            elif key == "required" and isinstance(value, list):
                merged["required"] = list(dict.fromkeys([*merged.get("required", []), *value]))
            else:
                merged[key] = value
    return merged


def _refers(schema: Any) -> bool:
    if isinstance(schema, Mapping):
        return any(key == "$ref" or _refers(value) for key, value in schema.items())
    if isinstance(schema, list):
        return any(_refers(value) for value in schema)
    return False


def _implied_type(schema: Mapping[str, Any]) -> str:
    if any(key in schema for key in ("properties", "required", "additionalProperties")):
        return "object"
    if any(key in schema for key in ("items", "prefixItems", "minItems", "maxItems")):
        return "array"
    if any(key in schema for key in ("minimum", "maximum", "multipleOf")):
        return "number"
    return "string"


def _null(walk: _Walk, schema: Mapping[str, Any], path: str, depth: int) -> Any:
    return None


def _boolean(walk: _Walk, schema: Mapping[str, Any], path: str, depth: int) -> Any:
    return walk.rng.choice((True, False))


def _bounds(schema: Mapping[str, Any], integer: bool) -> tuple[float, float]:
    low: float = -math.inf
    high: float = math.inf
    minimum, maximum = schema.get("minimum"), schema.get("maximum")
    exclusive_low, exclusive_high = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    step = 1 if integer else 0.01
    if isinstance(minimum, (int, float)) and not isinstance(minimum, bool):
        low = minimum + (step if exclusive_low is True else 0)
    if isinstance(exclusive_low, (int, float)) and not isinstance(exclusive_low, bool):
        low = max(low, exclusive_low + step)
    if isinstance(maximum, (int, float)) and not isinstance(maximum, bool):
        high = maximum - (step if exclusive_high is True else 0)
    if isinstance(exclusive_high, (int, float)) and not isinstance(exclusive_high, bool):
        high = min(high, exclusive_high - step)
    # Values of the size people type, inside whatever bounds the schema sets.
    if low == -math.inf and high == math.inf:
        return 1, 100
    if low == -math.inf:
        return min(high - 99, high), high
    if high == math.inf:
        return low, low + 99
    return low, high


def _integer(walk: _Walk, schema: Mapping[str, Any], path: str, depth: int) -> Any:
    low, high = _bounds(schema, integer=True)
    first, last = math.ceil(low), math.floor(high)
    multiple = schema.get("multipleOf")
    if isinstance(multiple, (int, float)) and not isinstance(multiple, bool) and multiple > 0:
        start, stop = math.ceil(first / multiple), math.floor(last / multiple)
        if start > stop:
            raise Unsatisfiable(path, f"no multiple of {multiple} lies within the bounds")
        value = walk.rng.randint(start, min(stop, start + 99)) * multiple
        return int(value) if float(value).is_integer() else value
    if first > last:
        raise Unsatisfiable(path, "the bounds leave no integer")
    return walk.rng.randint(first, min(last, first + 999))


def _number(walk: _Walk, schema: Mapping[str, Any], path: str, depth: int) -> Any:
    multiple = schema.get("multipleOf")
    if isinstance(multiple, (int, float)) and not isinstance(multiple, bool) and multiple > 0:
        return _integer(walk, schema, path, depth)
    low, high = _bounds(schema, integer=False)
    if low > high:
        raise Unsatisfiable(path, "the bounds leave no number")
    return round(walk.rng.uniform(low, high), 2) if high - low >= 0.01 else low


def _string(walk: _Walk, schema: Mapping[str, Any], path: str, depth: int) -> Any:
    low = schema.get("minLength", 0)
    high = schema.get("maxLength")
    low = low if isinstance(low, int) and not isinstance(low, bool) else 0
    high = high if isinstance(high, int) and not isinstance(high, bool) else None
    pattern = schema.get("pattern")
    samples = _FORMATS.get(str(schema.get("format")))
    if isinstance(pattern, str):
        candidates = [*(samples or ()), *_PATTERN_GUESSES]
        try:
            compiled = re.compile(pattern)
        except re.error:
            compiled = None
        fitting = [
            text
            for text in candidates
            if (compiled is None or compiled.search(text))
            and len(text) >= low
            and (high is None or len(text) <= high)
        ]
        if not fitting:
            raise Unsatisfiable(
                path, f"no string this walk can make matches the pattern {pattern!r}"
            )
        return walk.rng.choice(fitting)
    if samples is not None:
        return walk.rng.choice(samples)
    text = walk.rng.choice(_WORDS)
    while len(text) < low:
        text += "-" + walk.rng.choice(_WORDS)
    if high is not None and len(text) > high:
        text = text[:high]
    return text


def _array_shape(schema: Mapping[str, Any]) -> tuple[list[Any], Any, int, int | None]:
    """An array schema's item schemas by position, the schema of the others, and the
    least and most items (``None``: no most)."""
    prefix = schema.get("prefixItems")
    items = schema.get("items", True)
    if isinstance(items, list):  # the pre-2020 form: a schema per position
        prefix, items = items, schema.get("additionalItems", True)
    low = schema.get("minItems", 0)
    high = schema.get("maxItems")
    return (
        prefix if isinstance(prefix, list) else [],
        items,
        low if isinstance(low, int) and not isinstance(low, bool) else 0,
        high if isinstance(high, int) and not isinstance(high, bool) else None,
    )


def _array(walk: _Walk, schema: Mapping[str, Any], path: str, depth: int) -> Any:
    prefix, items, low, high = _array_shape(schema)
    count = (
        low
        if depth >= _SHALLOW_DEPTH
        else walk.rng.randint(low, max(low, min(len(prefix) or 2, high if high is not None else 2)))
    )
    if items is False:
        count = min(count, len(prefix))
    values: list[Any] = []
    for index in range(max(count, low)):
        schema_here = prefix[index] if index < len(prefix) else items
        value = walk.value(schema_here, f"{path}[{index}]", depth + 1)
        if schema.get("uniqueItems") is True:
            for _ in range(_ATTEMPTS):
                if value not in values:
                    break
                value = walk.value(schema_here, f"{path}[{index}]", depth + 1)
        values.append(value)
    return values


def _object(walk: _Walk, schema: Mapping[str, Any], path: str, depth: int) -> Any:
    properties = schema.get("properties")
    properties = properties if isinstance(properties, Mapping) else {}
    required = [name for name in schema.get("required", []) if isinstance(name, str)]
    least = schema.get("minProperties", 0)
    least = least if isinstance(least, int) and not isinstance(least, bool) else 0
    value: dict[str, Any] = {}
    for name, subschema in properties.items():
        wanted = name in required or (depth < _SHALLOW_DEPTH and walk.rng.random() < 0.5)
        if wanted or len(value) + (len(required) - sum(n in value for n in required)) < least:
            value[name] = walk.value(subschema, _member(path, name), depth + 1)
    for name in required:
        if name not in value:
            # Required but not described: any value its additionalProperties allows.
            extra = schema.get("additionalProperties", True)
            value[name] = walk.value(
                True if extra is False else extra, _member(path, name), depth + 1
            )
    return value


def _member(path: str, name: str) -> str:
    return (
        f"{path}.{name}" if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) else f"{path}[{name!r}]"
    )


_MAKERS = {
    "null": _null,
    "boolean": _boolean,
    "integer": _integer,
    "number": _number,
    "string": _string,
    "array": _array,
    "object": _object,
}
