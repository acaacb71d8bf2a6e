"""Building an MCP script: every step checked and its static result snapshotted.

Everything that can be checked is checked when the server is made: the tool name, the
shape of matchers and responders, scripted exceptions and static results, which are then
copied so that changing the original afterwards changes nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from agents_testing.core import (
    GroupEntry,
    Part,
    StepReader,
    callable_problem,
    cycle_problem,
    delay_problem,
    detach,
    exception_problem,
    ordinal,
    safe_repr,
)

from .._errors import InvalidMCPStep, InvalidMCPStepReason
from .._results.coerce import coerce_result
from .._steps import Step

__all__ = ["build_steps", "invalid_step", "result_cycle"]

_REASONS: dict[Part, InvalidMCPStepReason] = {
    "steps": "invalid_input",
    "mapping": "invalid_input",
    "name": "invalid_input",
    "unknown": "unknown_tool",
    "fields": "invalid_input",
    "matcher": "invalid_matcher",
    "outcome": "invalid_outcome",
    "responder": "invalid_outcome",
    "error": "invalid_outcome",
    "result": "invalid_outcome",
    "value": "invalid_outcome",
    "group": "invalid_group",
    "fault": "invalid_fault",
}


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


def result_cycle(result: object) -> str | None:
    """Why a result that contains itself cannot be sent, or None (``extra_checks``)."""
    problem = cycle_problem(result, "result")
    if problem is None:
        return None
    return f"{problem}: a server sends JSON data, which holds no cycles"


class _Reader(StepReader[Step]):
    name_key = "tool"
    name_noun = "the tool"
    call_type = "MCPCall"
    outcomes = ("result", "responder", "error", "crash")
    extra_keys = ("delay",)

    def __init__(self, *, tools: Collection[str] | None, extra_checks: bool) -> None:
        super().__init__(extra_checks=extra_checks)
        self.tools = tools

    def invalid(self, part: Part, index: int, name: str | None, detail: str) -> InvalidMCPStep:
        return invalid_step(_REASONS[part], index, name, detail)

    def make(
        self, index: int, name: str, kind: str, value: Any, match: Any, spec: dict[str, Any]
    ) -> Step:
        delay = spec.get("delay", 0.0)
        problem = delay_problem(delay)
        if problem is not None:
            self.refuse("fault", name, f"'delay': {problem}")
        return Step(index, name, kind, value, match, float(delay))

    def other_outcome(self, name: str, kind: str, value: object) -> object:
        if value is not True:  # the one other outcome: "crash"
            detail = f"'crash' is True (the server dies mid-call), got {safe_repr(value, 40)}"
            self.refuse("fault", name, detail)
        return value

    def check_name(self, index: int, name: str) -> None:
        if not name:
            self.refuse("name", None, "a step needs a 'tool' naming the tool")
        if self.tools is not None and name not in self.tools:
            listed = ", ".join(sorted(self.tools)) or "none"
            self.refuse(
                "unknown",
                name,
                f"the server does not list this tool (it lists: {listed}); add it to tools=, "
                "or fix the name",
            )

    def matcher(self, index: int, name: str, match: object) -> object:
        if isinstance(match, Mapping):
            try:
                return detach(dict(match), name="match")
            except Exception as error:
                detail = f"the 'match' mapping cannot be copied ({type(error).__name__})"
                self.refuse("matcher", name, detail, error)
        problem = callable_problem(match, "match", self.call_type)
        if problem is not None:
            self.refuse("matcher", name, f"{problem}, or a mapping of the expected arguments")
        return match

    def error_problem(self, error: object) -> str | None:
        problem = exception_problem(error)
        if problem is None and (
            isinstance(error, StopIteration)
            or (isinstance(error, type) and issubclass(error, StopIteration))
        ):
            problem = (
                "StopIteration cannot be raised from an async method (Python turns it into "
                "RuntimeError); script the RuntimeError or another exception"
            )
        return problem

    def result(self, index: int, name: str, result: object) -> object:
        value, problem = coerce_result(result)
        if problem is None and self.extra_checks:
            problem = result_cycle(value)
        if problem is not None:
            self.refuse("value", name, problem)
        return value


def build_steps(
    steps: Iterable[object], *, tools: Collection[str] | None = None, extra_checks: bool = False
) -> list[Step | GroupEntry[Step]]:
    """Validate every step (or ``any_order`` group) in order; the first malformed one
    raises ``InvalidMCPStep``. With ``tools``, a step for a tool not among them is one;
    with ``extra_checks``, a result that contains itself."""
    return _Reader(tools=tools, extra_checks=extra_checks).build(steps)
