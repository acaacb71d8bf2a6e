"""MCP steps: the ``MCPStepSpec`` dict a test writes and its validated form.

A step scripts one ``call_tool`` call: the ``tool`` it expects, an optional ``match`` on
the call, and exactly one outcome; ``_script.build`` checks it when the server is made.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from typing_extensions import NotRequired

from agents_testing.core import detach

from ._call import MCPCall
from ._results.coerce import fresh_result

if TYPE_CHECKING:
    from mcp.types import CallToolResult

__all__ = ["KEYS", "OUTCOMES", "MCPStepSpec", "Matcher", "OutcomeKind", "Responder", "Step"]

# A responder may be sync or async: it returns the result or an awaitable of it.
Responder = Callable[[MCPCall], Any]
Matcher = Callable[[MCPCall], object] | Mapping[str, Any]


class MCPStepSpec(TypedDict):
    """One scripted ``call_tool`` call: the ``tool`` name, exactly one of ``result`` (a
    ``CallToolResult`` or a str), ``responder`` (a function of the ``MCPCall`` returning
    one) or ``error`` (an exception to raise), and an optional ``match``: a function of the
    ``MCPCall`` that rejects the call by returning ``False``, or a mapping the call's
    arguments must equal."""

    tool: str
    result: NotRequired[CallToolResult | str]
    responder: NotRequired[Responder]
    error: NotRequired[BaseException | type[BaseException]]
    match: NotRequired[Matcher]


OUTCOMES = ("result", "responder", "error")
KEYS = frozenset({"tool", "match", *OUTCOMES})

OutcomeKind = Literal["result", "responder", "error"]


@dataclass(frozen=True)
class Step:
    """A validated step; ``value`` is the snapshotted result, the responder or the error."""

    input_index: int
    tool: str
    kind: OutcomeKind
    value: Any
    match: Matcher | None
    #: The step's matcher or responder whose signature could not be read when the script
    #: was built: a ``TypeError`` from calling it is reported as a malformed step.
    unchecked: frozenset[str] = frozenset()

    def spec(self) -> MCPStepSpec:
        """The step as a fresh ``MCPStepSpec`` dict, for inspection and error reports."""
        value = fresh_result(self.value) if self.kind == "result" else self.value
        spec: dict[str, Any] = {"tool": self.tool, self.kind: value}
        if self.match is not None:
            spec["match"] = detach(self.match) if isinstance(self.match, Mapping) else self.match
        return spec  # type: ignore[return-value]
