"""Builders of expected trajectory steps: :func:`tool_call` and :func:`handoff_to`."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from typing import Any

from agents_testing.core import safe_repr

from .._errors import invalid_argument
from .._script.validation import describe
from .steps import NOT_CHECKED, HandoffStep, ToolCallStep

__all__ = ["handoff_to", "tool_call"]


def tool_call(
    name: str,
    arguments: Any = NOT_CHECKED,
    *,
    output: Any = NOT_CHECKED,
    agent: Any = None,
) -> ToolCallStep:
    """An expected call of the tool ``name``; ``arguments`` and ``output`` are checked when given.

    ``arguments`` is a mapping of JSON data whose values (at any depth) may be matchers
    (any object with its own ``__eq__``, such as ``unittest.mock.ANY``), a matcher for
    the whole arguments, or a JSON string. ``agent`` (a name or an agent) checks which
    agent's model made the call.
    """
    if not isinstance(name, str) or not name:
        raise invalid_argument("tool_call(name)", "a non-empty str", describe(name))
    if isinstance(arguments, str):
        # A str that is not JSON stays text: custom tools take free-form input.
        with contextlib.suppress(ValueError):
            arguments = json.loads(arguments)
    elif arguments is not NOT_CHECKED:
        problem = _json_problem(arguments, "arguments")
        if problem is not None:
            raise invalid_argument(
                "tool_call(arguments)",
                "a mapping of JSON data (values may be matchers), a matcher or a JSON str",
                problem,
            )
    return ToolCallStep(
        name=name,
        arguments=arguments,
        output=output,
        agent=_agent_name(agent, "tool_call(agent)"),
    )


def handoff_to(target: Any, *, source: Any = None) -> HandoffStep:
    """An expected handoff to ``target`` (an agent or its name), optionally from ``source``."""
    name = _agent_name(target, "handoff_to(target)")
    if name is None:
        raise invalid_argument(
            "handoff_to(target)", "an agent or a non-empty agent name", describe(target)
        )
    return HandoffStep(target=name, source=_agent_name(source, "handoff_to(source)"))


def _agent_name(value: Any, argument: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, str) and value:
        return value
    from agents.agent import AgentBase

    if isinstance(value, AgentBase) and isinstance(value.name, str):
        return value.name
    raise invalid_argument(argument, "an agent, a non-empty agent name or None", describe(value))


_JSON_SCALARS = (str, int, float, bool, type(None))
# Objects that keep object's own __eq__ only equal themselves: no use as a matcher.
_OBJECT_EQ: Any = object.__eq__


def _json_problem(value: Any, path: str) -> str | None:
    """What makes ``value`` neither JSON data nor a matcher, or None when it is fine."""
    if isinstance(value, _JSON_SCALARS):
        return None
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"{path} has a non-str key {safe_repr(key, 40)}"
            problem = _json_problem(item, f"{path}[{key!r}]")
            if problem is not None:
                return problem
        return None
    if isinstance(value, (list, tuple)):
        for position, item in enumerate(value):
            problem = _json_problem(item, f"{path}[{position}]")
            if problem is not None:
                return problem
        return None
    if isinstance(value, (set, frozenset, bytes, bytearray)) or type(value).__eq__ is _OBJECT_EQ:
        return f"{path} holds {describe(value)}, which is not JSON data and not a matcher"
    return None


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
