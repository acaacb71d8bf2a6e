"""The steps of a trajectory: tool calls and handoffs.

The same two types describe what a run did (read from it by ``Trajectory.of``) and what
a test expects (built with ``tool_call`` and ``handoff_to``, in ``expect``). Fields an
expectation leaves out are not checked; their value is :data:`NOT_CHECKED`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from agents_testing.core import safe_repr

__all__ = [
    "NOT_CHECKED",
    "HandoffStep",
    "ToolCallStep",
    "TrajectoryStep",
    "plain",
]


class _NotChecked:
    """The value of a step field that an expectation leaves open (and a run did not record)."""

    _instance: _NotChecked | None = None

    def __new__(cls) -> _NotChecked:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NOT_CHECKED"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "NOT_CHECKED"


NOT_CHECKED: Final[Any] = _NotChecked()
"""A step field that is not checked (in an expectation) or was not recorded (in a run)."""


class TrajectoryStep:
    """Base of the two kinds of step, :class:`ToolCallStep` and :class:`HandoffStep`."""

    __slots__ = ()

    def _snapshot(self) -> dict[str, Any]:
        raise NotImplementedError


@dataclass(frozen=True)
class ToolCallStep(TrajectoryStep):
    """One tool call: its name, parsed arguments and, when known, its output.

    ``kind`` is the output item type the model produced (``"function_call"`` for
    function tools, ``"web_search_call"``, ``"mcp_call"``, ... for hosted and built-in
    tools); hosted calls without a tool name are named by that type. ``agent`` is the
    name of the agent whose model made the call and ``call_id`` the model's call id;
    neither is compared unless an expectation gives ``agent``.
    """

    name: str
    arguments: Any = NOT_CHECKED
    output: Any = NOT_CHECKED
    kind: str | None = None
    agent: str | None = None
    call_id: str | None = None

    def __repr__(self) -> str:
        parts = [safe_repr(self.name, 80)]
        if self.arguments is not NOT_CHECKED:
            parts.append(safe_repr(self.arguments, 160))
        if self.output is not NOT_CHECKED:
            parts.append(f"output={safe_repr(self.output, 80)}")
        return f"tool_call({', '.join(parts)})"

    def _snapshot(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"tool": self.name, "kind": self.kind}
        if self.agent is not None:
            entry["agent"] = self.agent
        if self.arguments is not NOT_CHECKED:
            entry["arguments"] = plain(self.arguments)
        if self.output is not NOT_CHECKED:
            entry["output"] = plain(self.output)
        return entry


@dataclass(frozen=True)
class HandoffStep(TrajectoryStep):
    """One handoff: the name of the agent handed to and, when known, of the one handing off."""

    target: str
    source: str | None = None
    call_id: str | None = None

    def __repr__(self) -> str:
        source = "" if self.source is None else f", source={safe_repr(self.source, 80)}"
        return f"handoff_to({safe_repr(self.target, 80)}{source})"

    def _snapshot(self) -> dict[str, Any]:
        return {"handoff": self.target, "source": self.source}


_JSON_SCALARS = (str, int, float, bool, type(None))


def plain(value: Any) -> Any:
    """``value`` as plain JSON-able data; what has no JSON form becomes its bounded repr."""
    if isinstance(value, _JSON_SCALARS):
        return value
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        try:
            return plain(dump(mode="json"))
        except Exception:
            pass  # fall back to the repr below
    return safe_repr(value)


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
