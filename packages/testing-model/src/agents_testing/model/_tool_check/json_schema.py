"""A small JSON Schema validator for the schemas tools are offered with.

It knows the keywords that the SDK's ``function_tool``, pydantic and MCP servers put in
tool parameter schemas: ``type`` (a name or a list, ``"null"`` included), ``properties``,
``required``, ``additionalProperties`` and ``patternProperties``, ``items`` (a schema, a
bool or the old list form with ``additionalItems``), ``prefixItems``, ``enum``,
``const``, ``anyOf`` / ``oneOf`` / ``allOf`` / ``not``, ``$ref`` to a JSON pointer in the
same document (``#/$defs/...``, ``#/definitions/...``, ``#``), the numeric bounds
(``minimum``, ``maximum``, ``exclusiveMinimum``, ``exclusiveMaximum``, ``multipleOf``),
``minLength`` / ``maxLength`` / ``pattern``, ``minItems`` / ``maxItems`` / ``uniqueItems``
and ``minProperties`` / ``maxProperties``. Other keywords (``format``, ``if``, ...),
``$ref`` outside the document, unknown type names and patterns ``re`` cannot compile are
ignored: where it cannot judge, it accepts. It reports the first violation it finds.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from agents_testing.core import safe_repr

__all__ = ["SchemaViolation", "first_violation", "json_path"]

_Segment = str | int
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_PYTHON_TYPES: tuple[tuple[type, str], ...] = (
    (int, "integer"),
    (float, "number"),
    (str, "string"),
    (list, "array"),
    (dict, "object"),
)
_TYPE_NAMES = ("object", "array", "string", "integer", "number", "boolean", "null")


@dataclass(frozen=True)
class SchemaViolation:
    """Where a value breaks its schema: the JSON path, the keyword and what is wrong."""

    path: str
    rule: str
    message: str
    value: Any


def json_path(segments: Sequence[_Segment]) -> str:
    """``$.legs[0].city`` for ``("legs", 0, "city")``; odd keys are quoted, ``$['a b']``."""
    parts = ["$"]
    for segment in segments:
        if isinstance(segment, int):
            parts.append(f"[{segment}]")
        elif _IDENTIFIER.match(segment):
            parts.append(f".{segment}")
        else:
            parts.append(f"[{safe_repr(segment, 60)}]")
    return "".join(parts)


def first_violation(value: Any, schema: Any) -> SchemaViolation | None:
    """The first place where JSON ``value`` breaks ``schema``, or None when it is valid."""
    try:
        found = _Validator(schema).check(value, schema, ())
    except RecursionError:
        return None  # nested deeper than Python can follow: cannot judge
    if found is None:
        return None
    segments, rule, message, bad = found
    return SchemaViolation(json_path(segments), rule, message, bad)


_Path = tuple[_Segment, ...]
_Found = tuple[_Path, str, str, Any]
_Schema = Mapping[str, Any]


def json_type(value: Any) -> str:
    """The JSON type name of a decoded JSON value (``integer`` for whole numbers)."""
    if value is None or isinstance(value, bool):
        return "null" if value is None else "boolean"
    for kind, name in _PYTHON_TYPES:
        if isinstance(value, kind):
            return name
    return type(value).__name__


def _is_type(value: Any, name: str) -> bool:
    if name == "integer":
        if isinstance(value, float):
            # JSON Schema counts 2.0 as an integer, as pydantic does for int fields.
            return math.isfinite(value) and value.is_integer()
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return json_type(value) == name


def json_equal(left: Any, right: Any) -> bool:
    """Equality as JSON sees it: ``true`` is not ``1``, ``1`` is ``1.0``, deep for containers."""
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left is right
    if isinstance(left, (int, float)) and isinstance(right, (int, float)):
        return bool(left == right)
    if isinstance(left, list) and isinstance(right, (list, tuple)):
        return len(left) == len(right) and all(map(json_equal, left, right))
    if isinstance(left, dict) and isinstance(right, Mapping):
        return left.keys() == right.keys() and all(json_equal(left[k], right[k]) for k in left)
    return type(left) is type(right) and bool(left == right)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


class _Validator:
    """One validation against one root document (``$ref`` targets are looked up in it)."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.patterns: dict[str, re.Pattern[str] | None] = {}
        # ($ref, path) pairs being followed: a reference cycle that consumes no data
        # would otherwise recurse forever.
        self.following: set[tuple[str, _Path]] = set()

    def check(self, value: Any, schema: Any, path: _Path) -> _Found | None:
        if schema is False:
            return (path, "false", "no value is allowed here", value)
        if not isinstance(schema, Mapping):
            return None  # true, or not a schema at all: anything goes
        for keyword_check in (
            self._ref,
            self._type,
            self._enum_const,
            self._numeric,
            self._string,
            self._array,
            self._object,
            self._combinators,
        ):
            found = keyword_check(value, schema, path)
            if found is not None:
                return found
        return None

    # -- keywords ------------------------------------------------------------------

    def _ref(self, value: Any, schema: _Schema, path: _Path) -> _Found | None:
        ref = schema.get("$ref")
        if not isinstance(ref, str) or (ref, path) in self.following:
            return None
        target = self._resolve(ref)
        if target is None:
            return None
        self.following.add((ref, path))
        try:
            return self.check(value, target, path)
        finally:
            self.following.discard((ref, path))

    def _resolve(self, ref: str) -> Any:
        if ref == "#":
            return self.root
        if not ref.startswith("#/"):
            return None
        node = self.root
        for raw in ref[2:].split("/"):
            key = raw.replace("~1", "/").replace("~0", "~")
            if isinstance(node, Mapping) and key in node:
                node = node[key]
            elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
                node = node[int(key)]
            else:
                return None
        return node

    def _type(self, value: Any, schema: _Schema, path: _Path) -> _Found | None:
        declared = schema.get("type")
        names = [declared] if isinstance(declared, str) else declared
        if not isinstance(names, list) or not names:
            return None
        if any(name not in _TYPE_NAMES for name in names):
            return None  # an unknown type name: cannot judge
        if any(_is_type(value, name) for name in names):
            return None
        expected = " or ".join(names)
        return (path, "type", f"expected {expected}, got {_shown(value)}", value)

    def _enum_const(self, value: Any, schema: _Schema, path: _Path) -> _Found | None:
        options = schema.get("enum")
        if isinstance(options, list) and not any(json_equal(value, o) for o in options):
            allowed = ", ".join(safe_repr(option, 40) for option in options[:10])
            more = ", ..." if len(options) > 10 else ""
            return (path, "enum", f"{safe_repr(value)} is not one of {allowed}{more}", value)
        if "const" in schema and not json_equal(value, schema["const"]):
            message = f"{safe_repr(value)} is not the constant {safe_repr(schema['const'])}"
            return (path, "const", message, value)
        return None

    def _numeric(self, value: Any, schema: _Schema, path: _Path) -> _Found | None:
        if not _number(value):
            return None
        shown = safe_repr(value)
        low, high = schema.get("minimum"), schema.get("maximum")
        low_x, high_x = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
        # Draft 4 spelled exclusive bounds as booleans beside minimum / maximum.
        if low_x is True and _number(low):
            low, low_x = None, low
        if high_x is True and _number(high):
            high, high_x = None, high
        if _number(low) and value < low:
            return (path, "minimum", f"{shown} is less than the minimum {low}", value)
        if _number(high) and value > high:
            return (path, "maximum", f"{shown} is greater than the maximum {high}", value)
        if _number(low_x) and not isinstance(low_x, bool) and value <= low_x:
            return (path, "exclusiveMinimum", f"{shown} is not greater than {low_x}", value)
        if _number(high_x) and not isinstance(high_x, bool) and value >= high_x:
            return (path, "exclusiveMaximum", f"{shown} is not less than {high_x}", value)
        step: Any = schema.get("multipleOf")
        if _number(step) and step > 0 and not _multiple(value, step):
            return (path, "multipleOf", f"{shown} is not a multiple of {step}", value)
        return None

    def _string(self, value: Any, schema: _Schema, path: _Path) -> _Found | None:
        if not isinstance(value, str):
            return None
        shown = safe_repr(value)
        shortest, longest = _count(schema.get("minLength")), _count(schema.get("maxLength"))
        if shortest is not None and len(value) < shortest:
            message = f"{shown} is shorter than {_plural(shortest, 'character')}"
            return (path, "minLength", message, value)
        if longest is not None and len(value) > longest:
            message = f"{shown} is longer than {_plural(longest, 'character')}"
            return (path, "maxLength", message, value)
        pattern = schema.get("pattern")
        if isinstance(pattern, str):
            compiled = self._compiled(pattern)
            if compiled is not None and compiled.search(value) is None:
                message = f"{shown} does not match the pattern {safe_repr(pattern, 60)}"
                return (path, "pattern", message, value)
        return None

    def _compiled(self, pattern: str) -> re.Pattern[str] | None:
        if pattern not in self.patterns:
            try:
                self.patterns[pattern] = re.compile(pattern)
            except (re.error, RecursionError, OverflowError):
                self.patterns[pattern] = None  # an ECMA-only construct: cannot judge
        return self.patterns[pattern]

    def _array(self, value: Any, schema: _Schema, path: _Path) -> _Found | None:
        if not isinstance(value, list):
            return None
        fewest, most = _count(schema.get("minItems")), _count(schema.get("maxItems"))
        size = _plural(len(value), "item")
        if fewest is not None and len(value) < fewest:
            return (path, "minItems", f"the array has {size}, fewer than {fewest}", value)
        if most is not None and len(value) > most:
            return (path, "maxItems", f"the array has {size}, more than {most}", value)
        if schema.get("uniqueItems") is True:
            for later in range(len(value)):
                for earlier in range(later):
                    if json_equal(value[earlier], value[later]):
                        message = f"items {earlier + 1} and {later + 1} are equal"
                        return (path, "uniqueItems", message, value)
        items = schema.get("items")
        prefix = schema.get("prefixItems")
        rest: Any = items
        if isinstance(items, list):  # the pre-2020 tuple form
            prefix, rest = items, schema.get("additionalItems", True)
        prefix = prefix if isinstance(prefix, list) else []
        for index, item in enumerate(value):
            if index < len(prefix):
                found = self.check(item, prefix[index], (*path, index))
            elif rest is False:
                message = f"the array allows at most {_plural(len(prefix), 'item')}"
                return ((*path, index), "items", message, item)
            else:
                found = self.check(item, rest, (*path, index))
            if found is not None:
                return found
        return None

    def _object(self, value: Any, schema: _Schema, path: _Path) -> _Found | None:
        if not isinstance(value, dict):
            return None
        properties = schema.get("properties")
        properties = properties if isinstance(properties, Mapping) else {}
        patterns = schema.get("patternProperties")
        patterns = patterns if isinstance(patterns, Mapping) else {}
        extra = schema.get("additionalProperties", True)
        for key in value:
            known = key in properties or self._matching(patterns, key)
            # A pattern re cannot compile might match: only then is a key surely extra.
            if extra is False and not known and not self._unjudged(patterns):
                names = [str(name)[:40] for name in list(properties)[:20]]
                allowed = ", ".join(names) + (", ..." if len(properties) > 20 else "")
                message = (
                    f"{safe_repr(key)} is not an allowed property (allowed: {allowed or 'none'})"
                )
                return ((*path, key), "additionalProperties", message, value[key])
        required = schema.get("required")
        for name in required if isinstance(required, list) else ():
            if isinstance(name, str) and name not in value:
                return ((*path, name), "required", f"{safe_repr(name)} is required", value)
        fewest, most = _count(schema.get("minProperties")), _count(schema.get("maxProperties"))
        size = f"{len(value)} propert{'y' if len(value) == 1 else 'ies'}"
        if fewest is not None and len(value) < fewest:
            return (path, "minProperties", f"the object has {size}, fewer than {fewest}", value)
        if most is not None and len(value) > most:
            return (path, "maxProperties", f"the object has {size}, more than {most}", value)
        for key, item in value.items():
            subschemas = self._matching(patterns, key)
            if key in properties:
                subschemas.insert(0, properties[key])
            elif not subschemas and isinstance(extra, Mapping):
                subschemas = [extra]
            for subschema in subschemas:
                found = self.check(item, subschema, (*path, key))
                if found is not None:
                    return found
        return None

    def _unjudged(self, patterns: _Schema) -> bool:
        return any(self._compiled(pattern) is None for pattern in patterns)

    def _matching(self, patterns: _Schema, key: str) -> list[Any]:
        """The ``patternProperties`` subschemas whose pattern finds ``key``."""
        return [
            subschema
            for pattern, subschema in patterns.items()
            if (compiled := self._compiled(pattern)) is not None and compiled.search(key)
        ]

    def _combinators(self, value: Any, schema: _Schema, path: _Path) -> _Found | None:
        every = schema.get("allOf")
        for subschema in every if isinstance(every, list) else ():
            found = self.check(value, subschema, path)
            if found is not None:
                return found
        for keyword in ("anyOf", "oneOf"):
            options = schema.get(keyword)
            if isinstance(options, list) and options:
                found = self._alternatives(value, options, path, keyword)
                if found is not None:
                    return found
        negated = schema.get("not")
        if (negated is True or isinstance(negated, Mapping)) and (
            self.check(value, negated, path) is None
        ):
            message = f"{safe_repr(value)} matches a schema it must not match"
            return (path, "not", message, value)
        return None

    def _alternatives(
        self, value: Any, options: list[Any], path: _Path, keyword: str
    ) -> _Found | None:
        failures = [self.check(value, option, path) for option in options]
        passed = [number for number, found in enumerate(failures, 1) if found is None]
        if keyword == "oneOf" and len(passed) > 1:
            message = (
                f"{safe_repr(value)} matches more than one alternative "
                f"(#{passed[0]} and #{passed[1]})"
            )
            return (path, keyword, message, value)
        if passed:
            return None
        # The alternative that got furthest into the value explains the problem best
        # (an optional object missing a field); otherwise none of them fits at all.
        deepest = max((f for f in failures if f is not None), key=lambda f: len(f[0]))
        if len(deepest[0]) > len(path):
            return deepest
        kinds = " | ".join(_summary(option) for option in options)
        message = f"{_shown(value)} matches none of the alternatives ({kinds})"
        return (path, keyword, message, value)


def _summary(option: Any) -> str:
    if not isinstance(option, Mapping):
        return "anything" if option is True else "nothing"
    declared = option.get("type")
    if isinstance(declared, (str, list)):
        return " | ".join(
            str(name) for name in ([declared] if isinstance(declared, str) else declared)
        )
    if "const" in option:
        return safe_repr(option["const"], 30)
    if isinstance(option.get("$ref"), str):
        return str(option["$ref"]).rsplit("/", 1)[-1]
    if isinstance(option.get("enum"), list):
        return "one of " + safe_repr(option["enum"], 40)
    return "a schema"


def _shown(value: Any) -> str:
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    return f"{json_type(value)} {safe_repr(value)}"


def _multiple(value: float, step: float) -> bool:
    try:
        # Decimal of the shortest repr: 0.3 is a multiple of 0.1, as people expect.
        return Decimal(repr(value)) % Decimal(repr(step)) == 0
    except (InvalidOperation, ValueError):
        return True  # inf, nan or an exponent out of range: cannot judge
