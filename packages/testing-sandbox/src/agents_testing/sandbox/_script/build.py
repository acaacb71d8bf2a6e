"""Building a sandbox script: every step checked and its static result snapshotted.

When the script is built, each step's method, the shape of its matcher and responder
and its scripted exception are checked, and its static result is snapshotted, so that
mutating the original value afterwards changes nothing. With ``extra_checks`` the
result's type and fields are checked too, and the exception must be one an async
session method can raise as it is.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from typing import Any

from agents_testing.core import (
    GroupEntry,
    OutcomeKind,
    Part,
    StepReader,
    cycle_problem,
    exception_problem,
    safe_repr,
)

from .._errors import InvalidSandboxStep, InvalidSandboxStepReason, invalid_step
from .._snapshots.results import VOID_METHODS, result_problem
from .._snapshots.values import frozen, holds_stream
from .._steps import Step, scriptable_methods

__all__ = ["build_steps"]

# The reason and the SDK double's sentence (a key of the errors' leads) of each refusal.
_REFUSALS: dict[Part, tuple[InvalidSandboxStepReason, str | None]] = {
    "steps": ("invalid_input", None),
    "mapping": ("invalid_input", "mapping"),
    "name": ("unknown_method", "method"),
    "unknown": ("unknown_method", "method"),
    "fields": ("invalid_input", "fields"),
    "matcher": ("invalid_matcher", "matcher"),
    "outcome": ("invalid_outcome", "outcome"),
    "responder": ("invalid_outcome", "responder"),
    "error": ("invalid_outcome", "error"),
    "result": ("invalid_outcome", "result"),
    "value": ("invalid_outcome", None),
    "group": ("invalid_group", None),
}


class _Reader(StepReader[Step]):
    name_key = "method"
    name_noun = "a session method"
    call_type = "SandboxCall"

    def __init__(self, *, extra_checks: bool) -> None:
        super().__init__(extra_checks=extra_checks)
        self.methods = scriptable_methods()

    def invalid(self, part: Part, index: int, name: str | None, detail: str) -> InvalidSandboxStep:
        reason, lead = _REFUSALS[part]
        return invalid_step(reason, index, name, detail, lead=lead)

    def make(
        self, index: int, name: str, kind: str, value: Any, match: Any, spec: dict[str, Any]
    ) -> Step:
        return Step(index, name, kind, value, match, kind == "result" and holds_stream(value))

    def check_name(self, index: int, name: str) -> None:
        if name not in self.methods:
            self.refuse(
                "unknown",
                name,
                f"{safe_repr(name, 40)} is not one; the installed SDK's scriptable methods "
                f"are {', '.join(sorted(self.methods))}",
            )

    def absent_outcome(self, name: str) -> tuple[OutcomeKind, object] | None:
        # Methods that return None may leave the outcome out.
        return ("result", None) if name in VOID_METHODS else None

    def error_problem(self, error: object) -> str | None:
        if isinstance(error, type) and issubclass(error, BaseException):
            return (
                f"an exception instance is raised as it is, got the class {error.__name__}; "
                f"write {error.__name__}(...)"
            )
        if not isinstance(error, BaseException):
            return f"expected an exception instance, got {type(error).__name__}"
        if not self.extra_checks:
            return None
        problem = exception_problem(error)
        if problem is None and isinstance(error, StopIteration):
            problem = (
                "StopIteration cannot be raised from an async session method (Python turns "
                "it into RuntimeError); script the RuntimeError or another exception"
            )
        return problem

    def result(self, index: int, name: str, result: object) -> object:
        # Refused in any mode: the SDK's own double fails on such a result as well (it
        # never finishes copying it), and a result is handed out as scripted.
        cycle = cycle_problem(result, "result")
        if cycle is not None:
            self.refuse("result", name, cycle)
        snapshot = self._snapshot(index, name, result)
        problem = result_problem(name, result) if self.extra_checks else None
        if problem is not None:
            self.refuse("value", name, problem)
        return snapshot

    def _snapshot(self, index: int, method: str, value: object) -> object:
        """The step's result, snapshotted; a stream that cannot be captured is refused."""
        snapshot, stream, original = frozen(value)
        if stream is not None:
            if stream.closed:
                detail = (
                    f"Cannot snapshot a closed sandbox {'text' if stream.text else 'byte'} "
                    f"stream. The result is a closed {stream.kind}; pass it open"
                )
            else:
                detail = (
                    "Sandbox stream snapshots support only io.BytesIO and io.StringIO. The "
                    f"result is a {stream.kind}, a live stream that cannot be replayed; read "
                    "its content into an io.BytesIO first"
                )
            self.refuse("result", method, detail)
        if original is None:
            return snapshot
        if self.extra_checks:
            detail = (
                f"the result (a {type(value).__name__}) cannot be copied: its copy raised "
                f"{type(original).__name__} (the cause); script a value copy.deepcopy can copy"
            )
            self.refuse("result", method, detail, original)
        add_note = getattr(original, "add_note", None)
        if add_note is not None:
            with contextlib.suppress(Exception):  # a courtesy; the error itself is what counts
                add_note(
                    f"agents-testing: the result of sandbox step #{index + 1} ({method}) "
                    "could not be copied when the script was built"
                )
        raise original


def build_steps(
    steps: Iterable[object], *, extra_checks: bool = False
) -> list[Step | GroupEntry[Step]]:
    """Validate every step (or ``any_order`` group) in order; the first malformed one
    raises ``InvalidSandboxStep``."""
    return _Reader(extra_checks=extra_checks).build(steps)
