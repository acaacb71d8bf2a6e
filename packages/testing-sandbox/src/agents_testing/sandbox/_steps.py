"""Sandbox steps: the ``SandboxStepSpec`` dict a test writes and its validated form.

A step names one session method and exactly one outcome. Static results are checked
against the method's return type and snapshotted here, when the script is built, so
mutating the original value afterwards changes nothing.
"""

from __future__ import annotations

import inspect
import io
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict, cast

from agents.sandbox.files import FileEntry
from agents.sandbox.session.pty_types import PtyExecUpdate
from agents.sandbox.types import ExecResult
from typing_extensions import NotRequired

from agents_testing.core import compat, detach

from ._call import SandboxCall
from ._errors import InvalidSandboxStep

__all__ = [
    "BASE_METHODS",
    "PTY_METHODS",
    "SandboxStepSpec",
    "Step",
    "build_steps",
    "check_result",
    "fresh_result",
    "scriptable_methods",
]

BASE_METHODS: tuple[str, ...] = (
    "apply_patch",
    "exec",
    "ls",
    "mkdir",
    "pty_exec_start",
    "pty_write_stdin",
    "read",
    "rm",
    "write",
)
PTY_METHODS: frozenset[str] = frozenset({"pty_exec_start", "pty_write_stdin"})

# A responder may be sync or async: it returns the result or an awaitable of it.
Responder = Callable[[SandboxCall], Any]
Matcher = Callable[[SandboxCall], object]


class SandboxStepSpec(TypedDict):
    """One scripted sandbox call: ``method`` plus exactly one of ``result``, ``responder``
    or ``error``, and an optional ``match`` that must not return ``False``."""

    method: str
    result: NotRequired[Any]
    responder: NotRequired[Responder]
    error: NotRequired[BaseException | type[BaseException]]
    match: NotRequired[Matcher]


_OUTCOMES = ("result", "responder", "error")
_KEYS = frozenset({"method", "match", *_OUTCOMES})

OutcomeKind = Literal["result", "responder", "error"]


@dataclass(frozen=True)
class Step:
    """A validated step; ``value`` is the snapshotted result, the responder or the error."""

    input_index: int
    method: str
    kind: OutcomeKind
    value: Any
    match: Matcher | None

    def spec(self) -> SandboxStepSpec:
        """The step as a fresh ``SandboxStepSpec`` dict, for error reports."""
        value = fresh_result(self.method, self.value) if self.kind == "result" else self.value
        spec: dict[str, Any] = {"method": self.method, self.kind: value}
        if self.match is not None:
            spec["match"] = self.match
        return spec  # type: ignore[return-value]


def scriptable_methods() -> frozenset[str]:
    """Every method name a step may script on the installed SDK."""
    return frozenset(BASE_METHODS) | frozenset(compat.sandbox_optional_operations())


# What each method returns: (accepted types, description for messages).
_RESULT_TYPES: dict[str, tuple[tuple[type, ...], str]] = {
    "exec": ((ExecResult,), "an agents.sandbox.ExecResult"),
    "pty_exec_start": ((PtyExecUpdate,), "a PtyExecUpdate"),
    "pty_write_stdin": ((PtyExecUpdate,), "a PtyExecUpdate"),
    "read": (
        (io.BytesIO, io.StringIO, bytes, bytearray, str),
        "io.BytesIO, io.StringIO, bytes or str",
    ),
    "ls": ((list, tuple), "a list of agents.sandbox.files.FileEntry"),
    "apply_patch": ((str,), "a str"),
    "same_file": ((bool,), "a bool"),
    "write": ((type(None),), "None"),
    "mkdir": ((type(None),), "None"),
    "rm": ((type(None),), "None"),
    "mv": ((type(None),), "None"),
}


def check_result(method: str, value: Any) -> str | None:
    """Why ``value`` cannot be a static result of ``method``, or ``None`` when it can."""
    types, expected = _RESULT_TYPES[method]
    if not isinstance(value, types) or (method == "same_file" and type(value) is not bool):
        return f"{method} returns {expected}, got {type(value).__name__}"
    if method == "ls" and not all(isinstance(entry, FileEntry) for entry in cast(list[Any], value)):
        return f"ls returns {expected}; an item is not a FileEntry"
    return None


def _snapshot_result(method: str, value: Any) -> Any:
    if method == "read":
        # Keep the content, not the stream: each use gets a fresh stream at position 0.
        if isinstance(value, io.BytesIO):
            return value.getvalue()
        if isinstance(value, io.StringIO):
            return value.getvalue()
        return bytes(value) if isinstance(value, bytearray) else value
    if method == "ls":
        return tuple(detach(entry, name=f"result[{index}]") for index, entry in enumerate(value))
    if method == "exec":
        return ExecResult(stdout=value.stdout, stderr=value.stderr, exit_code=value.exit_code)
    # PtyExecUpdate is frozen; str, bool and None are immutable.
    return value


def fresh_result(method: str, snapshot: Any) -> Any:
    """A value for the caller built from a snapshot, sharing no mutable state with it."""
    if method == "read":
        return io.StringIO(snapshot) if isinstance(snapshot, str) else io.BytesIO(snapshot)
    if method == "ls":
        return [detach(entry) for entry in snapshot]
    if method == "exec":
        return ExecResult(
            stdout=snapshot.stdout, stderr=snapshot.stderr, exit_code=snapshot.exit_code
        )
    return snapshot


def coerce_responded(method: str, value: Any) -> tuple[Any, str | None]:
    """A responder's value as the caller gets it, or the reason it is not acceptable."""
    if method == "read" and isinstance(value, io.IOBase):
        return value, None  # a live stream is the responder's to manage
    problem = check_result(method, value)
    if problem is not None:
        return None, problem
    return fresh_result(method, _snapshot_result(method, value)), None


def _invalid(reason: Any, index: int, method: str | None, detail: str) -> InvalidSandboxStep:
    return InvalidSandboxStep(reason, index, method, detail)


def _build_step(index: int, raw: object, methods: frozenset[str]) -> Step:
    if not isinstance(raw, Mapping):
        raise _invalid("invalid_input", index, None, f"a step is a dict, got {type(raw).__name__}")
    method = raw.get("method")
    if not isinstance(method, str):
        raise _invalid(
            "invalid_input", index, None, "a step needs a 'method' naming a session method"
        )
    unknown = sorted(str(key) for key in raw if key not in _KEYS)
    if unknown:
        raise _invalid(
            "invalid_input",
            index,
            method,
            f"unknown key(s) {', '.join(map(repr, unknown))}; "
            f"use {', '.join(map(repr, sorted(_KEYS)))}",
        )
    if method not in methods:
        raise _invalid(
            "unknown_method",
            index,
            method,
            f"the installed SDK's scriptable methods are {', '.join(sorted(methods))}",
        )
    match = raw.get("match")
    if match is not None and (not callable(match) or inspect.iscoroutinefunction(match)):
        raise _invalid(
            "invalid_matcher",
            index,
            method,
            "'match' must be a plain (not async) callable taking the SandboxCall",
        )
    given = [key for key in _OUTCOMES if key in raw]
    if len(given) != 1:
        found = ", ".join(given) if given else "none"
        raise _invalid(
            "invalid_outcome",
            index,
            method,
            f"give exactly one of 'result', 'responder' or 'error' (found: {found})",
        )
    kind: OutcomeKind = given[0]  # type: ignore[assignment]
    value = raw[kind]
    if kind == "responder" and not callable(value):
        raise _invalid("invalid_outcome", index, method, "'responder' must be callable")
    if kind == "error" and not (
        isinstance(value, BaseException)
        or (isinstance(value, type) and issubclass(value, BaseException))
    ):
        raise _invalid(
            "invalid_outcome", index, method, "'error' must be an exception instance or class"
        )
    if kind == "error" and isinstance(value, type):
        # The class is instantiated at the call; find out now whether it can be.
        try:
            value()
        except Exception as error:
            raise _invalid(
                "invalid_outcome",
                index,
                method,
                f"{value.__name__}() cannot be created without arguments ({error}); "
                "pass an exception instance",
            ) from error
    if kind == "result":
        problem = check_result(method, value)
        if problem is not None:
            raise _invalid("invalid_outcome", index, method, problem)
        value = _snapshot_result(method, value)
    return Step(index, method, kind, value, match)


def build_steps(steps: Iterable[object]) -> list[Step]:
    """Validate every step in order; the first malformed one raises ``InvalidSandboxStep``."""
    if isinstance(steps, (Mapping, str, bytes)) or not isinstance(steps, Iterable):
        raise _invalid(
            "invalid_input",
            0,
            None,
            f"steps is a sequence of step dicts, got {type(steps).__name__}",
        )
    methods = scriptable_methods()
    return [_build_step(index, raw, methods) for index, raw in enumerate(steps)]
