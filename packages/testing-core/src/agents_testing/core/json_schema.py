"""Checking JSON values against the JSON Schemas tools are offered with (public API for the
boundary packages).

The validation is :mod:`jsonschema`'s (draft 2020-12 unless the schema names another
draft in ``$schema``), so every keyword it knows is judged: ``if``/``then``/``else``,
``dependentRequired``, ``dependentSchemas``, ``propertyNames``, ``contains``,
``unevaluatedProperties`` and the rest. What this module adds is what a test failure
needs: the *first* violation, in a stable order (references, type, values, bounds, then
nested data, then combinators), at a JSON path such as ``$.legs[0].city`` that names the
offending key itself for ``required`` and ``additionalProperties``, with a short message
whose values are bounded in length.

Where a schema cannot be judged, the check accepts rather than guessing: a ``$ref`` that
does not resolve within the document (nothing is ever fetched), an unknown type name, a
``pattern`` Python's ``re`` cannot compile, data nested deeper than the interpreter can
follow. ``format`` is an annotation, as the specification says by default, and is not
checked. Two older spellings that tool schemas still use are understood: draft 4's
boolean ``exclusiveMinimum`` / ``exclusiveMaximum`` beside ``minimum`` / ``maximum``, and the
list form of ``items`` with ``additionalItems``. ``multipleOf`` is exact for decimals
(``0.3`` is a multiple of ``0.1``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import cache, lru_cache
from typing import Any

from ._values import safe_repr

__all__ = ["SchemaViolation", "first_violation", "json_path", "json_type"]

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_TYPE_NAMES = frozenset({"object", "array", "string", "integer", "number", "boolean", "null"})
_MESSAGE_LIMIT = 160

# The order in which the keywords of one schema are reported, earliest first; keywords not
# listed (``if``, ``dependentRequired``, ``unevaluatedProperties``, ...) come last, in the
# schema's own order.
_KEYWORD_ORDER = {
    keyword: rank
    for rank, group in enumerate(
        (
            ("$ref", "$dynamicRef"),
            ("type",),
            ("enum", "const"),
            ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"),
            ("minLength", "maxLength", "pattern"),
            ("minItems", "maxItems", "uniqueItems", "prefixItems", "items", "additionalItems"),
            ("contains", "minContains", "maxContains"),
            ("additionalProperties:key",),
            ("required",),
            ("minProperties", "maxProperties"),
            ("properties", "patternProperties", "additionalProperties", "propertyNames"),
            ("allOf", "anyOf", "oneOf", "not"),
        )
    )
    for keyword in group
}
_LAST = len(set(_KEYWORD_ORDER.values()))


@dataclass(frozen=True)
class SchemaViolation:
    """Where a value breaks its schema: the JSON path, the keyword and what is wrong."""

    path: str
    rule: str
    message: str
    value: Any


def json_path(segments: Sequence[str | int]) -> str:
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


def json_type(value: Any) -> str:
    """The JSON type name of a decoded JSON value (``integer`` for whole numbers)."""
    for kind, name in _JSON_TYPES:
        if isinstance(value, kind):
            return name
    return type(value).__name__


# In this order: a bool is an int too.
_JSON_TYPES: tuple[tuple[type, str], ...] = (
    (type(None), "null"),
    (bool, "boolean"),
    (int, "integer"),
    (float, "number"),
    (str, "string"),
    (list, "array"),
    (dict, "object"),
)


def first_violation(value: Any, schema: Any) -> SchemaViolation | None:
    """The first place where JSON ``value`` breaks ``schema``, or None when it is valid
    (or when the schema cannot be judged)."""
    if schema is True or not isinstance(schema, (Mapping, bool)):
        return None  # anything goes, or not a schema at all
    try:
        validator = _validator_class(_draft_of(schema))(schema)
        errors = list(validator.iter_errors(value))
        if not errors:
            return None
        error = _first(errors)
        return SchemaViolation(json_path(list(error.absolute_path)), *_described(error))
    except RecursionError:
        return None  # nested deeper than Python can follow, or a reference cycle


def _draft_of(schema: Any) -> str | None:
    declared = schema.get("$schema") if isinstance(schema, Mapping) else None
    return declared if isinstance(declared, str) else None


# -- choosing the error to report ----------------------------------------------------------


def _rank(error: Any) -> int:
    keyword = error.relative_schema_path[0] if error.relative_schema_path else error.validator
    if keyword == "additionalProperties" and error.validator == "additionalProperties":
        keyword = "additionalProperties:key"  # the extra key itself, before nested values
    return _KEYWORD_ORDER.get(str(keyword), _LAST)


def _first(errors: Sequence[Any]) -> Any:
    """The error to report: the earliest keyword; for a failed ``anyOf``/``oneOf``, the
    alternative that got furthest into the value, when one did."""
    error = min(errors, key=_rank)  # min keeps the first of equals: the schema's order
    if error.validator in ("anyOf", "oneOf") and error.context:
        depth = len(error.absolute_path)
        deepest = max(error.context, key=lambda sub: len(sub.absolute_path))
        if len(deepest.absolute_path) > depth:
            same_depth = [
                sub for sub in error.context if len(sub.absolute_path) == len(deepest.absolute_path)
            ]
            return _first(same_depth)
    return error


def _described(error: Any) -> tuple[str, str, Any]:
    """(rule, message, offending value) of the error chosen for the report."""
    rule = "false" if error.validator is None else str(error.validator)
    describe = _MESSAGES.get(rule)
    if describe is not None:
        message = describe(error)
    else:
        # A keyword without a message of ours: jsonschema's own, bounded.
        message = error.message
        if len(message) > _MESSAGE_LIMIT:
            message = message[: _MESSAGE_LIMIT - 3] + "..."
    if rule == "additionalProperties" and getattr(error, "_extra_key", None) is not None:
        return rule, message, error.instance[error._extra_key]
    return rule, message, error.instance


# -- messages ------------------------------------------------------------------------------


def _shown(value: Any) -> str:
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    return f"{json_type(value)} {safe_repr(value)}"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _type_message(error: Any) -> str:
    names = (
        [error.validator_value] if isinstance(error.validator_value, str) else error.validator_value
    )
    return f"expected {' or '.join(map(str, names))}, got {_shown(error.instance)}"


def _enum_message(error: Any) -> str:
    options = list(error.validator_value)
    allowed = ", ".join(safe_repr(option, 40) for option in options[:10])
    more = ", ..." if len(options) > 10 else ""
    return f"{safe_repr(error.instance)} is not one of {allowed}{more}"


def _bound(phrase: str) -> Callable[[Any], str]:
    return lambda error: phrase.format(value=safe_repr(error.instance), bound=error.validator_value)


def _length(comparison: str) -> Callable[[Any], str]:
    return lambda error: (
        f"{safe_repr(error.instance)} is {comparison} than "
        f"{_plural(error.validator_value, 'character')}"
    )


def _size(noun: str, comparison: str) -> Callable[[Any], str]:
    def message(error: Any) -> str:
        count = len(error.instance)
        size = (
            _plural(count, noun)
            if noun == "item"
            else (f"{count} propert{'y' if count == 1 else 'ies'}")
        )
        kind = "array" if noun == "item" else "object"
        return f"the {kind} has {size}, {comparison} than {error.validator_value}"

    return message


_MESSAGES: dict[str, Callable[[Any], str]] = {
    "type": _type_message,
    "enum": _enum_message,
    "const": lambda error: (
        f"{safe_repr(error.instance)} is not the constant {safe_repr(error.validator_value)}"
    ),
    "minimum": _bound("{value} is less than the minimum {bound}"),
    "maximum": _bound("{value} is greater than the maximum {bound}"),
    "exclusiveMinimum": lambda error: (
        f"{safe_repr(error.instance)} is not greater than {error._bound}"
    ),
    "exclusiveMaximum": lambda error: (
        f"{safe_repr(error.instance)} is not less than {error._bound}"
    ),
    "multipleOf": _bound("{value} is not a multiple of {bound}"),
    "minLength": _length("shorter"),
    "maxLength": _length("longer"),
    "pattern": lambda error: (
        f"{safe_repr(error.instance)} does not match the pattern "
        f"{safe_repr(error.validator_value, 60)}"
    ),
    "minItems": _size("item", "fewer"),
    "maxItems": _size("item", "more"),
    "minProperties": _size("property", "fewer"),
    "maxProperties": _size("property", "more"),
    "uniqueItems": lambda error: error.message,
    "items": lambda error: error.message,
    "required": lambda error: error.message,
    "additionalProperties": lambda error: error.message,
    "false": lambda error: "no value is allowed here",
    "not": lambda error: f"{safe_repr(error.instance)} matches a schema it must not match",
    "anyOf": lambda error: error.message,
    "oneOf": lambda error: error.message,
}


# -- keywords judged our way ---------------------------------------------------------------
#
# Each receives jsonschema's (validator, keyword value, instance, schema) and yields
# ValidationErrors; they replace jsonschema's own only where a tool schema needs a
# different judgement or the report needs to know more than jsonschema's error keeps.


def _error(message: str, **fields: Any) -> Any:
    from jsonschema.exceptions import ValidationError

    return ValidationError(message, **fields)


def _descend(
    validator: Any,
    instance: Any,
    schema: Any,
    path: str | int,
    schema_path: str | int | None = None,
) -> Iterator[Any]:
    """jsonschema's ``descend``, except that a ``false`` subschema's error keeps its path."""
    if schema is False:
        yield _error("false", path=[path], validator=None, instance=instance, schema=False)
        return
    yield from validator.descend(instance, schema, path=path, schema_path=schema_path)


def _kw_properties(validator: Any, properties: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if not isinstance(instance, dict) or not isinstance(properties, Mapping):
        return
    for name, subschema in properties.items():
        if name in instance:
            yield from _descend(validator, instance[name], subschema, name, name)


def _kw_type(validator: Any, types: Any, instance: Any, schema: Any) -> Iterator[Any]:
    names = [types] if isinstance(types, str) else types
    if not isinstance(names, list) or not names or any(n not in _TYPE_NAMES for n in names):
        return  # an unknown type name: cannot judge
    if not any(validator.is_type(instance, name) for name in names):
        yield _error("type")


def _kw_multiple_of(validator: Any, step: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if not validator.is_type(instance, "number") or not validator.is_type(step, "number"):
        return
    if step <= 0:
        return
    try:
        # Decimal of the shortest repr: 0.3 is a multiple of 0.1, as people expect.
        remainder = Decimal(repr(instance)) % Decimal(repr(step))
    except (InvalidOperation, ValueError):
        return  # inf, nan or an exponent out of range: cannot judge
    if remainder != 0:
        yield _error("multipleOf")


def _kw_bound(keyword: str) -> Callable[[Any, Any, Any, Any], Iterator[Any]]:
    """``minimum``/``maximum`` and their exclusive forms, draft 4's boolean spelling included."""
    exclusive = keyword.startswith("exclusive")
    below = keyword in ("minimum", "exclusiveMinimum")
    partner = ("minimum" if below else "maximum") if exclusive else None

    def check(validator: Any, bound: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if not validator.is_type(instance, "number"):
            return
        if exclusive and isinstance(bound, bool):
            if not bound:
                return
            bound = schema.get(partner)  # draft 4: ``exclusiveMinimum: true`` beside ``minimum``
            if not validator.is_type(bound, "number"):
                return
        elif not validator.is_type(bound, "number"):
            return
        elif not exclusive and schema.get("exclusive" + keyword.capitalize()) is True:
            return  # draft 4: the exclusive keyword reports this bound
        if exclusive:
            failed = instance <= bound if below else instance >= bound
        else:
            failed = instance < bound if below else instance > bound
        if failed:
            error = _error(keyword)
            error._bound = bound
            yield error

    return check


@lru_cache(maxsize=512)
def _compiled(pattern: str) -> re.Pattern[str] | None:
    try:
        return re.compile(pattern)
    except (re.error, RecursionError, OverflowError):
        return None  # an ECMA-only construct: cannot judge


def _kw_pattern(validator: Any, pattern: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if not isinstance(instance, str) or not isinstance(pattern, str):
        return
    compiled = _compiled(pattern)
    if compiled is not None and compiled.search(instance) is None:
        yield _error("pattern")


def _matching(patterns: Any, key: str) -> list[Any]:
    if not isinstance(patterns, Mapping):
        return []
    return [
        subschema
        for pattern, subschema in patterns.items()
        if isinstance(pattern, str)
        and (found := _compiled(pattern)) is not None
        and found.search(key)
    ]


def _kw_pattern_properties(
    validator: Any, patterns: Any, instance: Any, schema: Any
) -> Iterator[Any]:
    if not isinstance(instance, dict) or not isinstance(patterns, Mapping):
        return
    for key, item in instance.items():
        for pattern, subschema in patterns.items():
            compiled = _compiled(pattern) if isinstance(pattern, str) else None
            if compiled is not None and compiled.search(key):
                yield from _descend(validator, item, subschema, key, pattern)


def _kw_additional_properties(
    validator: Any, extra: Any, instance: Any, schema: Any
) -> Iterator[Any]:
    if not isinstance(instance, dict):
        return
    properties = schema.get("properties")
    properties = properties if isinstance(properties, Mapping) else {}
    patterns = schema.get("patternProperties")
    patterns = patterns if isinstance(patterns, Mapping) else {}
    unjudged = any(not isinstance(p, str) or _compiled(p) is None for p in patterns)
    for key, item in instance.items():
        if key in properties or _matching(patterns, key):
            continue
        if extra is False:
            # A pattern re cannot compile might match: only then is a key surely extra.
            if unjudged:
                continue
            names = [str(name)[:40] for name in list(properties)[:20]]
            allowed = ", ".join(names) + (", ..." if len(properties) > 20 else "")
            error = _error(
                f"{safe_repr(key)} is not an allowed property (allowed: {allowed or 'none'})",
                path=[key],
            )
            error._extra_key = key
            yield error
            return
        if isinstance(extra, Mapping):
            yield from _descend(validator, item, extra, key)


def _kw_required(validator: Any, required: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if not isinstance(instance, dict) or not isinstance(required, list):
        return
    for name in required:
        if isinstance(name, str) and name not in instance:
            yield _error(f"{safe_repr(name)} is required", path=[name])


def _kw_unique_items(validator: Any, unique: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if unique is not True or not isinstance(instance, list):
        return
    for later in range(len(instance)):
        for earlier in range(later):
            if _json_equal(instance[earlier], instance[later]):
                yield _error(f"items {earlier + 1} and {later + 1} are equal")
                return


def _json_equal(left: Any, right: Any) -> bool:
    """Equality as JSON sees it: ``true`` is not ``1``, ``1`` is ``1.0``, deep for containers."""
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left is right
    if isinstance(left, (int, float)) and isinstance(right, (int, float)):
        return bool(left == right)
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(map(_json_equal, left, right))
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(_json_equal(left[k], right[k]) for k in left)
    return type(left) is type(right) and bool(left == right)


def _kw_items(validator: Any, items: Any, instance: Any, schema: Any) -> Iterator[Any]:
    """``items`` in both spellings: a schema for the items after ``prefixItems``, or the
    pre-2020 list of schemas by position followed by ``additionalItems``."""
    if not isinstance(instance, list):
        return
    if isinstance(items, list):
        prefix, rest = items, schema.get("additionalItems", True)
    else:
        prefix = schema.get("prefixItems") if isinstance(schema.get("prefixItems"), list) else []
        rest = items
    for index, item in enumerate(instance):
        if index < len(prefix):
            if isinstance(items, list):
                yield from _descend(validator, item, prefix[index], index, index)
            continue  # judged by prefixItems
        if rest is False:
            yield _error(f"the array allows at most {_plural(len(prefix), 'item')}", path=[index])
            return
        yield from _descend(validator, item, rest, index)


def _kw_ignored(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[Any]:
    """``additionalItems`` is judged together with the list form of ``items``."""
    return iter(())


def _kw_reference(keyword: str, original: Any) -> Callable[[Any, Any, Any, Any], Iterator[Any]]:
    """A ``$ref`` that does not resolve within the document cannot be judged: accept."""

    def check(validator: Any, ref: Any, instance: Any, schema: Any) -> Iterator[Any]:
        try:
            yield from original(validator, ref, instance, schema)
        except Exception as error:
            if not _unresolvable(error):
                raise

    return check


def _unresolvable(error: Exception) -> bool:
    # Matched by name: where ``referencing`` was imported afresh (a test that clears
    # sys.modules), jsonschema raises the first copy's class, not the one importable now.
    return any(
        kind.__name__ == "Unresolvable" and kind.__module__ == "referencing.exceptions"
        for kind in type(error).__mro__
    )


def _kw_not(original: Any) -> Callable[[Any, Any, Any, Any], Iterator[Any]]:
    def check(validator: Any, negated: Any, instance: Any, schema: Any) -> Iterator[Any]:
        for _ in original(validator, negated, instance, schema):
            yield _error("not")
            return

    return check


def _kw_any_of(validator: Any, options: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if not isinstance(options, list) or not options:
        return
    failures: list[Any] = []
    for index, option in enumerate(options):
        errors = list(validator.descend(instance, option, schema_path=index))
        if not errors:
            return
        failures.extend(errors)
    kinds = " | ".join(_summary(option) for option in options)
    yield _error(f"{_shown(instance)} matches none of the alternatives ({kinds})", context=failures)


def _kw_one_of(validator: Any, options: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if not isinstance(options, list) or not options:
        return
    failures: list[Any] = []
    passed: list[int] = []
    for index, option in enumerate(options):
        errors = list(validator.descend(instance, option, schema_path=index))
        if errors:
            failures.extend(errors)
        else:
            passed.append(index + 1)
    if len(passed) > 1:
        yield _error(
            f"{safe_repr(instance)} matches more than one alternative "
            f"(#{passed[0]} and #{passed[1]})"
        )
    elif not passed:
        kinds = " | ".join(_summary(option) for option in options)
        yield _error(
            f"{_shown(instance)} matches none of the alternatives ({kinds})", context=failures
        )


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


@cache
def _validator_class(draft: str | None) -> Any:
    """jsonschema's validator for ``draft`` (2020-12 by default), with our keywords."""
    from jsonschema import Draft202012Validator, validators

    base = Draft202012Validator
    if draft is not None:
        base = validators.validator_for({"$schema": draft}, default=Draft202012Validator)
    own = dict(base.VALIDATORS)
    replaced: dict[str, Any] = {
        "type": _kw_type,
        "properties": _kw_properties,
        "multipleOf": _kw_multiple_of,
        "minimum": _kw_bound("minimum"),
        "maximum": _kw_bound("maximum"),
        "exclusiveMinimum": _kw_bound("exclusiveMinimum"),
        "exclusiveMaximum": _kw_bound("exclusiveMaximum"),
        "pattern": _kw_pattern,
        "patternProperties": _kw_pattern_properties,
        "additionalProperties": _kw_additional_properties,
        "required": _kw_required,
        "uniqueItems": _kw_unique_items,
        "items": _kw_items,
        "additionalItems": _kw_ignored,
        "anyOf": _kw_any_of,
        "oneOf": _kw_one_of,
        "not": _kw_not(own["not"]),
    }
    for keyword in ("$ref", "$dynamicRef"):
        if keyword in own:
            replaced[keyword] = _kw_reference(keyword, own[keyword])
    # ``format`` stays an annotation: no format checker is given.
    return validators.extend(base, replaced)
