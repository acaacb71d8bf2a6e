"""Building an MCP script: every step checked and its static result snapshotted.

Everything that can be checked is checked when the server is made: the tool name, the
shape of matchers and responders, scripted exceptions and static results, which are then
copied so that changing the original afterwards changes nothing.
"""

from __future__ import annotations

import inspect
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from agents_testing.core import (
    AnyOrder,
    GroupEntry,
    build_group,
    cycle_problem,
    delay_problem,
    detach,
    exception_problem,
    member_problem,
    ordinal,
    safe_repr,
)
from agents_testing.core import (
    callable_problem as _callable_problem,
)

from .._errors import InvalidMCPStep, InvalidMCPStepReason
from .._results.coerce import coerce_result
from .._steps import KEYS, OUTCOMES, OutcomeKind, Step

__all__ = ["build_steps", "callable_problem", "invalid_step", "result_cycle"]


def invalid_step(
    reason: InvalidMCPStepReason, index: int, tool: str | None, detail: str
) -> InvalidMCPStep:
    """The error for step ``index`` (0-based), whose message counts from 1."""
    named = f" ({tool})" if tool is not None else ""
    return InvalidMCPStep(
        f"MCP step #{ordinal(index)}{named} is invalid ({reason}): {detail}",
        reason=reason,
        input_index=index,
        tool=tool,
        detail=detail,
    )


def callable_problem(value: object, role: str) -> str | None:
    """Why ``value`` cannot be a step's ``role`` ('match' or 'responder'), or ``None``."""
    return _callable_problem(value, role, "MCPCall")


def _signature(value: object) -> inspect.Signature | None:
    try:
        return inspect.signature(value)  # type: ignore[arg-type]
    except Exception:  # some builtins and exotic callables have none
        return None


def _read_spec(index: int, raw: object) -> dict[Any, Any]:
    if not isinstance(raw, Mapping):
        raise invalid_step(
            "invalid_input", index, None, f"a step is a dict, got {type(raw).__name__}"
        )
    try:
        # One copy, read once: a mapping that changes (or fails) later cannot matter.
        return dict(raw)
    except Exception as error:
        detail = f"the step mapping could not be read ({type(error).__name__})"
        raise invalid_step("invalid_input", index, None, detail) from error


def _matcher(index: int, tool: str, match: object) -> object:
    if isinstance(match, Mapping):
        try:
            return detach(dict(match), name="match")
        except Exception as error:
            detail = f"the 'match' mapping cannot be copied ({type(error).__name__})"
            raise invalid_step("invalid_matcher", index, tool, detail) from error
    problem = callable_problem(match, "match")
    if problem is not None:
        raise invalid_step(
            "invalid_matcher", index, tool, f"{problem}, or a mapping of the expected arguments"
        )
    return match


def result_cycle(result: object) -> str | None:
    """Why a result that contains itself cannot be sent, or None (``extra_checks``)."""
    problem = cycle_problem(result, "result")
    if problem is None:
        return None
    return f"{problem}: a server sends JSON data, which holds no cycles"


def _build_step(index: int, raw: object, tools: Collection[str] | None, extra_checks: bool) -> Step:
    spec = _read_spec(index, raw)
    tool = spec.get("tool")
    if not isinstance(tool, str) or not tool:
        raise invalid_step("invalid_input", index, None, "a step needs a 'tool' naming the tool")
    tool = str.__str__(tool)  # a plain str, whatever subclass was given
    unknown = [key for key in spec if not (type(key) is str and key in KEYS)]
    if unknown:
        raise invalid_step(
            "invalid_input",
            index,
            tool,
            f"unknown key(s) {', '.join(safe_repr(key, 40) for key in unknown[:5])}; "
            f"use {', '.join(map(repr, sorted(KEYS)))}",
        )
    if tools is not None and tool not in tools:
        listed = ", ".join(sorted(tools)) or "none"
        raise invalid_step(
            "unknown_tool",
            index,
            tool,
            f"the server does not list this tool (it lists: {listed}); add it to tools=, or "
            "fix the name",
        )
    match = spec.get("match")
    if match is not None:
        match = _matcher(index, tool, match)
    given = [key for key in OUTCOMES if key in spec]
    if len(given) != 1:
        found = ", ".join(given) if given else "none"
        raise invalid_step(
            "invalid_outcome",
            index,
            tool,
            f"give exactly one of 'result', 'responder', 'error' or 'crash' (found: {found})",
        )
    kind: OutcomeKind = given[0]  # type: ignore[assignment]
    value = spec[kind]
    delay = spec.get("delay", 0.0)
    problem = delay_problem(delay)
    if problem is not None:
        raise invalid_step("invalid_fault", index, tool, f"'delay': {problem}")
    if kind == "crash":
        if value is not True:
            raise invalid_step(
                "invalid_fault",
                index,
                tool,
                f"'crash' is True (the server dies mid-call), got {safe_repr(value, 40)}",
            )
    elif kind == "responder":
        problem = callable_problem(value, "responder")
        if problem is not None:
            raise invalid_step("invalid_outcome", index, tool, problem)
    elif kind == "error":
        problem = exception_problem(value)
        if problem is None and (
            isinstance(value, StopIteration)
            or (isinstance(value, type) and issubclass(value, StopIteration))
        ):
            problem = (
                "StopIteration cannot be raised from an async method (Python turns it into "
                "RuntimeError); script the RuntimeError or another exception"
            )
        if problem is not None:
            raise invalid_step("invalid_outcome", index, tool, f"'error': {problem}")
    else:
        value, problem = coerce_result(value)
        if problem is None and extra_checks:
            problem = result_cycle(value)
        if problem is not None:
            raise invalid_step("invalid_outcome", index, tool, problem)
    unchecked = frozenset(
        role
        for role, function in (("match", match), ("responder", spec.get("responder")))
        if callable(function) and _signature(function) is None
    )
    return Step(index, tool, kind, value, match, unchecked, float(delay))  # type: ignore[arg-type]


def build_steps(
    steps: Iterable[object], *, tools: Collection[str] | None = None, extra_checks: bool = False
) -> list[Step | GroupEntry[Step]]:
    """Validate every step (or ``any_order`` group) in order; the first malformed one
    raises ``InvalidMCPStep``. With ``tools``, a step for a tool not among them is one;
    with ``extra_checks``, a result that contains itself."""
    if isinstance(steps, (Mapping, str, bytes)) or not isinstance(steps, Iterable):
        raise invalid_step(
            "invalid_input",
            0,
            None,
            f"steps is a sequence of step dicts, got {type(steps).__name__}",
        )
    return [_build_entry(index, raw, tools, extra_checks) for index, raw in enumerate(steps)]


def _build_entry(
    index: int, raw: object, tools: Collection[str] | None, extra_checks: bool
) -> Step | GroupEntry[Step]:
    if not isinstance(raw, AnyOrder):
        return _build_step(index, raw, tools, extra_checks)

    def member(position: int, spec: object) -> Step:
        try:
            return _build_step(index, spec, tools, extra_checks)
        except InvalidMCPStep as error:
            raise invalid_step(
                error.reason, index, error.tool, member_problem(position, error.detail)
            ) from error.__cause__

    entry = build_group(raw, member)
    if isinstance(entry, str):
        raise invalid_step("invalid_group", index, None, entry)
    return entry
