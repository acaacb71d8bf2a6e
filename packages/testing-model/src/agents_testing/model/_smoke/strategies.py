"""Hypothesis strategies of tool arguments, built from each tool's JSON Schema.

The property-based smoke mode: a test decorated with ``@given(smoke_arguments(agent))``
draws whole argument sets and plays them through a :class:`SmokeModel`. The strategies
are made of Hypothesis's public strategies only (``fixed_dictionaries``, ``lists``,
``from_regex``, ...), so they shrink and replay as any other; every drawn value is kept
only if :func:`agents_testing.core.json_schema.first_violation` accepts it.

``hypothesis-jsonschema`` does the same job in general, but its last release (0.23.1)
reaches into Hypothesis internals that Hypothesis 6.170 removed, and fails on every
object schema; the subset that tool schemas use is small enough to translate here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from agents_testing.core.json_schema import first_violation

from .._errors import invalid_argument
from .._script.validation import describe
from .values import _FORMATS, _array_shape, _implied_type, _merged

if TYPE_CHECKING:
    from agents.agent import Agent
    from hypothesis.strategies import SearchStrategy

__all__ = ["smoke_arguments", "tool_arguments"]

_INSTALL = (
    "The property-based smoke mode needs hypothesis: pip install "
    "'agents-testing-model[hypothesis]' (or add hypothesis to your test dependencies)."
)
_DEFAULT_MAX_ITEMS = 3
_DEFAULT_MAX_LENGTH = 24


def tool_arguments(tool: object) -> SearchStrategy[dict[str, Any]]:
    """A Hypothesis strategy of argument objects valid for ``tool``'s parameter schema.

    ``tool`` is a ``FunctionTool`` (``@function_tool``, an MCP tool once listed, an agent
    as a tool) or a JSON Schema mapping.
    """
    schema = _schema_of(tool, "tool_arguments(tool)")
    return _strategy_for_root(schema)


def smoke_arguments(
    agent_or_tools: Agent[Any] | Iterable[object],
    *,
    tools: Iterable[str] | None = None,
    calls_per_tool: int = 1,
) -> SearchStrategy[dict[str, list[dict[str, Any]]]]:
    """A strategy of whole argument sets for :class:`SmokeModel` (``arguments=``).

    Each drawn value maps every function tool of ``agent_or_tools`` (an ``Agent``, whose
    ``tools`` are read, or a list of tools) to ``calls_per_tool`` argument objects.
    ``tools`` limits it to those names (an unknown name raises ``InvalidModelArgument``).
    """
    from agents.agent import Agent
    from agents.tool import FunctionTool

    if (
        isinstance(calls_per_tool, bool)
        or not isinstance(calls_per_tool, int)
        or calls_per_tool < 1
    ):
        raise invalid_argument("calls_per_tool", "an int of 1 or more", describe(calls_per_tool))
    offered: list[object]
    if isinstance(agent_or_tools, Agent):
        offered = list(agent_or_tools.tools)
    elif isinstance(agent_or_tools, Iterable) and not isinstance(agent_or_tools, (str, bytes)):
        offered = list(agent_or_tools)
    else:
        raise invalid_argument(
            "smoke_arguments(agent_or_tools)",
            "an Agent or a list of tools",
            describe(agent_or_tools),
        )
    by_name = {tool.name: tool for tool in offered if isinstance(tool, FunctionTool)}
    chosen = list(by_name) if tools is None else list(tools)
    unknown = [name for name in chosen if name not in by_name]
    if unknown:
        raise invalid_argument(
            "smoke_arguments(tools)",
            f"names of the agent's function tools ({', '.join(by_name) or 'none'})",
            ", ".join(repr(name) for name in unknown),
        )
    st = _hypothesis()
    drawn: SearchStrategy[dict[str, list[dict[str, Any]]]] = st.fixed_dictionaries(
        {
            name: st.lists(
                tool_arguments(by_name[name]), min_size=calls_per_tool, max_size=calls_per_tool
            )
            for name in chosen
        }
    )
    return drawn


def _schema_of(tool: object, argument: str) -> Any:
    from agents.tool import FunctionTool

    if isinstance(tool, FunctionTool):
        return tool.params_json_schema
    if isinstance(tool, Mapping):
        return tool
    raise invalid_argument(argument, "a FunctionTool or a JSON Schema mapping", describe(tool))


def _hypothesis() -> Any:
    try:
        from hypothesis import strategies
    except ImportError as error:
        raise ImportError(_INSTALL) from error
    return strategies


def _strategy_for_root(schema: Any) -> SearchStrategy[Any]:
    st = _hypothesis()
    built = _Builder(schema, st).strategy(schema, 0)
    valid: SearchStrategy[Any] = built.filter(lambda value: first_violation(value, schema) is None)
    return valid


class _Builder:
    def __init__(self, root: Any, st: Any) -> None:
        self.root = root
        self.st = st
        self.refs: dict[str, Any] = {}

    def strategy(self, schema: Any, depth: int) -> Any:
        st = self.st
        if schema is True or schema == {}:
            return st.text(max_size=_DEFAULT_MAX_LENGTH) | st.integers() | st.booleans()
        if schema is False or not isinstance(schema, Mapping):
            return st.nothing()
        ref = schema.get("$ref")
        if isinstance(ref, str):
            rest = {key: value for key, value in schema.items() if key != "$ref"}
            if rest:
                return self.strategy(_merged([self.resolve(ref), rest]), depth + 1)
            return self.reference(ref, depth)
        if "const" in schema:
            return st.just(schema["const"])
        if isinstance(schema.get("enum"), list) and schema["enum"]:
            return st.sampled_from(schema["enum"])
        if isinstance(schema.get("allOf"), list) and schema["allOf"]:
            parts = [self.resolve(p["$ref"]) if _is_ref(p) else p for p in schema["allOf"]]
            rest = {key: value for key, value in schema.items() if key != "allOf"}
            return self.strategy(_merged([*parts, rest]), depth + 1)
        for keyword in ("anyOf", "oneOf"):
            options = schema.get(keyword)
            if isinstance(options, list) and options:
                rest = {key: value for key, value in schema.items() if key != keyword}
                return st.one_of(
                    [self.strategy(_merged([o, rest]) if rest else o, depth + 1) for o in options]
                )
        kind = schema.get("type")
        if isinstance(kind, list):
            return st.one_of([self.strategy({**schema, "type": one}, depth) for one in kind])
        kind = _implied_type(schema) if kind is None else str(kind)
        maker = getattr(self, f"_{kind}", None)
        return st.nothing() if maker is None else maker(schema, depth)

    def resolve(self, ref: str) -> Any:
        target: Any = self.root
        for raw in ref[1:].split("/")[1:] if ref.startswith("#") else [None]:
            part = None if raw is None else raw.replace("~1", "/").replace("~0", "~")
            if isinstance(target, Mapping) and part in target:
                target = target[part]
            else:
                return False  # not resolvable here: nothing can be drawn for it
        return target

    def reference(self, ref: str, depth: int) -> Any:
        # Recursive schemas refer to themselves: one deferred strategy per reference.
        known = self.refs.get(ref)
        if known is None:
            known = self.refs[ref] = self.st.deferred(
                lambda: self.strategy(self.resolve(ref), depth + 1)
            )
        return known

    def _null(self, schema: Mapping[str, Any], depth: int) -> Any:
        return self.st.none()

    def _boolean(self, schema: Mapping[str, Any], depth: int) -> Any:
        return self.st.booleans()

    def _integer(self, schema: Mapping[str, Any], depth: int) -> Any:
        low, high = _limits(schema)
        low = None if low is None else math.ceil(low)
        high = None if high is None else math.floor(high)
        multiple = schema.get("multipleOf")
        if isinstance(multiple, int) and not isinstance(multiple, bool) and multiple > 0:
            first = None if low is None else math.ceil(low / multiple)
            last = None if high is None else math.floor(high / multiple)
            return self.st.integers(first, last).map(lambda n: n * multiple)
        return self.st.integers(low, high)

    def _number(self, schema: Mapping[str, Any], depth: int) -> Any:
        low, high = _limits(schema)
        multiple = schema.get("multipleOf")
        if isinstance(multiple, (int, float)) and not isinstance(multiple, bool) and multiple > 0:
            return self._integer(schema, depth)
        return self.st.floats(
            low,
            high,
            allow_nan=False,
            allow_infinity=False,
            exclude_min=low is not None and _exclusive(schema, "Minimum"),
            exclude_max=high is not None and _exclusive(schema, "Maximum"),
        ) | self.st.integers(
            None if low is None else math.floor(low), None if high is None else math.ceil(high)
        )

    def _string(self, schema: Mapping[str, Any], depth: int) -> Any:
        low = schema.get("minLength", 0)
        high = schema.get("maxLength")
        low = low if isinstance(low, int) and not isinstance(low, bool) else 0
        high = high if isinstance(high, int) and not isinstance(high, bool) else None
        pattern = schema.get("pattern")
        if isinstance(pattern, str):
            try:
                re.compile(pattern)
            except re.error:
                return self.st.nothing()
            # Python's ``$`` also matches before a final newline; JSON Schema's (ECMA's)
            # and pydantic's do not, so such strings are left out.
            return self.st.from_regex(pattern).filter(
                lambda text: (
                    len(text) >= low
                    and (high is None or len(text) <= high)
                    and not text.endswith("\n")
                )
            )
        samples = _FORMATS.get(str(schema.get("format")))
        if samples is not None:
            return self.st.sampled_from(samples)
        return self.st.text(
            min_size=low, max_size=high if high is not None else max(low, _DEFAULT_MAX_LENGTH)
        )

    def _array(self, schema: Mapping[str, Any], depth: int) -> Any:
        st = self.st
        prefix, items, low, high = _array_shape(schema)
        rest_high = max(low, _DEFAULT_MAX_ITEMS) if high is None else high
        unique = schema.get("uniqueItems") is True
        head = st.tuples(*(self.strategy(item, depth + 1) for item in prefix)).map(list)
        tail_items = st.nothing() if items is False else self.strategy(items, depth + 1)
        tail = st.lists(
            tail_items,
            min_size=max(0, low - len(prefix)),
            max_size=max(0, rest_high - len(prefix)),
            unique_by=(lambda value: repr(value)) if unique else None,
        )
        return st.tuples(head, tail).map(lambda parts: parts[0] + parts[1])

    def _object(self, schema: Mapping[str, Any], depth: int) -> Any:
        properties = schema.get("properties")
        properties = properties if isinstance(properties, Mapping) else {}
        required = [name for name in schema.get("required", []) if isinstance(name, str)]
        return self.st.fixed_dictionaries(
            {name: self.strategy(properties.get(name, True), depth + 1) for name in required},
            optional={
                name: self.strategy(sub, depth + 1)
                for name, sub in properties.items()
                if name not in required
            },
        )


def _is_ref(schema: Any) -> bool:
    return isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str)


def _exclusive(schema: Mapping[str, Any], side: str) -> bool:
    return (
        schema.get(f"exclusive{side}") is not None and schema.get(f"exclusive{side}") is not False
    )


def _limits(schema: Mapping[str, Any]) -> tuple[float | None, float | None]:
    def number(value: object) -> float | None:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return value
        return None

    low = number(schema.get("minimum"))
    high = number(schema.get("maximum"))
    exclusive_low = number(schema.get("exclusiveMinimum"))
    exclusive_high = number(schema.get("exclusiveMaximum"))
    if exclusive_low is not None:
        low = exclusive_low if low is None else max(low, exclusive_low)
    if exclusive_high is not None:
        high = exclusive_high if high is None else min(high, exclusive_high)
    return low, high


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
