"""MCP steps in their validated form, built from the ``MCPStepSpec`` dicts a test writes.

A step scripts one ``call_tool`` call: the ``tool`` it expects, an optional ``match`` on
the call, exactly one outcome and an optional ``delay`` before it; ``_script.build``
checks it when the server is made.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from agents_testing.core import detach

from ._results.coerce import fresh_result
from ._spec import Matcher, MCPStepSpec

__all__ = ["KEYS", "OUTCOMES", "OutcomeKind", "Step"]

OUTCOMES = ("result", "responder", "error", "crash")
KEYS = frozenset({"tool", "match", "delay", *OUTCOMES})

OutcomeKind = Literal["result", "responder", "error", "crash"]


@dataclass(frozen=True)
class Step:
    """A validated step; ``value`` is the snapshotted result, the responder, the error or
    ``True`` (a crash); ``delay`` the seconds the server takes before the outcome."""

    input_index: int
    tool: str
    kind: OutcomeKind
    value: Any
    match: Matcher | None
    #: The step's matcher or responder whose signature could not be read when the script
    #: was built: a ``TypeError`` from calling it is reported as a malformed step.
    unchecked: frozenset[str] = frozenset()
    delay: float = 0.0

    def spec(self) -> MCPStepSpec:
        """The step as a fresh ``MCPStepSpec`` dict, for inspection and error reports."""
        value = fresh_result(self.value) if self.kind == "result" else self.value
        spec: dict[str, Any] = {"tool": self.tool, self.kind: value}
        if self.match is not None:
            spec["match"] = detach(self.match) if isinstance(self.match, Mapping) else self.match
        if self.delay:
            spec["delay"] = self.delay
        return spec  # type: ignore[return-value]
