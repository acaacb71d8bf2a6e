"""Building a sandbox script: every step checked and its static result snapshotted.

When the script is built, each step's method, the shape of its matcher and responder
and its scripted exception are checked, and its static result is snapshotted, so that
mutating the original value afterwards changes nothing. With ``extra_checks`` the
result's type and fields are checked too, and the exception must be one an async
session method can raise as it is.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping
from typing import Any

from agents_testing.core import (
    AnyOrder,
    GroupEntry,
    build_group,
    cycle_problem,
    exception_problem,
    member_problem,
    safe_repr,
)
from agents_testing.core import (
    callable_problem as _callable_problem,
)

from .._errors import InvalidSandboxStep, invalid_step
from .._snapshots.results import VOID_METHODS, result_problem
from .._snapshots.streams import StreamRefused
from .._snapshots.values import CopyFailed, freeze, holds_stream
from .._steps import KEYS, OUTCOMES, OutcomeKind, Step, scriptable_methods

__all__ = ["build_steps", "callable_problem"]


def callable_problem(value: object, role: str) -> str | None:
    """Why ``value`` cannot be a step's ``role`` ('match' or 'responder'), or ``None``."""
    return _callable_problem(value, role, "SandboxCall")


_invalid = invalid_step


def _read_spec(index: int, raw: object) -> dict[Any, Any]:
    if not isinstance(raw, Mapping):
        raise _invalid(
            "invalid_input",
            index,
            None,
            f"a step is a dict, got {type(raw).__name__}",
            lead="mapping",
        )
    try:
        # One copy, read once: a mapping that changes (or fails) later cannot matter.
        return dict(raw)
    except Exception as error:
        detail = f"the step mapping could not be read ({type(error).__name__})"
        raise _invalid("invalid_input", index, None, detail, lead="mapping") from error


def _build_step(index: int, raw: object, methods: frozenset[str], extra_checks: bool) -> Step:
    spec = _read_spec(index, raw)
    method = spec.get("method")
    if not isinstance(method, str):
        raise _invalid(
            "unknown_method",
            index,
            None,
            "a step needs a 'method' naming a session method",
            lead="method",
        )
    method = str.__str__(method)  # a plain str, whatever subclass was given
    unknown = [key for key in spec if not (type(key) is str and key in KEYS)]
    if unknown:
        raise _invalid(
            "invalid_input",
            index,
            method,
            f"unknown key(s) {', '.join(safe_repr(key, 40) for key in unknown[:5])}; "
            f"use {', '.join(map(repr, sorted(KEYS)))}",
            lead="fields",
        )
    if method not in methods:
        raise _invalid(
            "unknown_method",
            index,
            method,
            f"{safe_repr(method, 40)} is not one; the installed SDK's scriptable methods "
            f"are {', '.join(sorted(methods))}",
            lead="method",
        )
    match = spec.get("match")
    if match is not None:
        problem = callable_problem(match, "match")
        if problem is not None:
            raise _invalid("invalid_matcher", index, method, problem, lead="matcher")
    given = [key for key in OUTCOMES if key in spec]
    if not given and method in VOID_METHODS:
        given, spec["result"] = ["result"], None
    if len(given) != 1:
        found = ", ".join(given) if given else "none"
        raise _invalid(
            "invalid_outcome",
            index,
            method,
            f"give exactly one of 'result', 'responder' or 'error' (found: {found})",
            lead="outcome",
        )
    kind: OutcomeKind = given[0]  # type: ignore[assignment]
    value = spec[kind]
    if kind == "responder":
        problem = callable_problem(value, "responder")
        if problem is not None:
            raise _invalid("invalid_outcome", index, method, problem, lead="responder")
    elif kind == "error":
        problem = _error_problem(value, extra_checks)
        if problem is not None:
            raise _invalid("invalid_outcome", index, method, f"'error': {problem}", lead="error")
    else:
        # Refused in any mode: the SDK's own double fails on such a result as well (it
        # never finishes copying it), and a result is handed out as scripted.
        cycle = cycle_problem(value, "result")
        if cycle is not None:
            raise _invalid("invalid_outcome", index, method, cycle, lead="result")
        snapshot = _snapshot(index, method, value, extra_checks)
        problem = result_problem(method, value) if extra_checks else None
        if problem is not None:
            raise _invalid("invalid_outcome", index, method, problem)
        value = snapshot
    streams = kind == "result" and holds_stream(value)
    return Step(index, method, kind, value, match, streams)


def _error_problem(value: object, extra_checks: bool) -> str | None:
    if isinstance(value, type) and issubclass(value, BaseException):
        return (
            f"an exception instance is raised as it is, got the class {value.__name__}; "
            f"write {value.__name__}(...)"
        )
    if not isinstance(value, BaseException):
        return f"expected an exception instance, got {type(value).__name__}"
    if not extra_checks:
        return None
    problem = exception_problem(value)
    if problem is None and isinstance(value, StopIteration):
        problem = (
            "StopIteration cannot be raised from an async session method (Python turns "
            "it into RuntimeError); script the RuntimeError or another exception"
        )
    return problem


def _snapshot(index: int, method: str, value: object, extra_checks: bool) -> object:
    """The step's result, snapshotted; a stream that cannot be captured is refused."""
    try:
        return freeze(value)
    except StreamRefused as refused:
        if refused.closed:
            detail = (
                f"Cannot snapshot a closed sandbox {'text' if refused.text else 'byte'} "
                f"stream. The result is a closed {refused.kind}; pass it open"
            )
        else:
            detail = (
                "Sandbox stream snapshots support only io.BytesIO and io.StringIO. The "
                f"result is a {refused.kind}, a live stream that cannot be replayed; read "
                "its content into an io.BytesIO first"
            )
        stream: InvalidSandboxStep | None = _invalid(
            "invalid_outcome", index, method, detail, lead="result"
        )
        original: BaseException | None = None
    except CopyFailed as failed:
        stream, original = None, failed.original
    # Raised outside the handlers: the value's own exception must not be chained to ours.
    if stream is not None:
        raise stream
    assert original is not None
    if extra_checks:
        detail = (
            f"the result (a {type(value).__name__}) cannot be copied: its copy raised "
            f"{type(original).__name__} (the cause); script a value copy.deepcopy can copy"
        )
        raise _invalid("invalid_outcome", index, method, detail, lead="result") from original
    add_note = getattr(original, "add_note", None)
    if add_note is not None:
        with contextlib.suppress(Exception):  # a courtesy; the error itself is what counts
            add_note(
                f"agents-testing: the result of sandbox step #{index + 1} ({method}) could "
                "not be copied when the script was built"
            )
    raise original


def build_steps(
    steps: Iterable[object], *, extra_checks: bool = False
) -> list[Step | GroupEntry[Step]]:
    """Validate every step (or ``any_order`` group) in order; the first malformed one
    raises ``InvalidSandboxStep``."""
    if isinstance(steps, (Mapping, str, bytes)) or not isinstance(steps, Iterable):
        raise _invalid(
            "invalid_input",
            0,
            None,
            f"steps is a sequence of step dicts, got {type(steps).__name__}",
        )
    methods = scriptable_methods()
    return [_build_entry(index, raw, methods, extra_checks) for index, raw in enumerate(steps)]


def _build_entry(
    index: int, raw: object, methods: frozenset[str], extra_checks: bool
) -> Step | GroupEntry[Step]:
    if not isinstance(raw, AnyOrder):
        return _build_step(index, raw, methods, extra_checks)

    def member(position: int, spec: object) -> Step:
        try:
            return _build_step(index, spec, methods, extra_checks)
        except InvalidSandboxStep as error:
            raise _invalid(
                error.reason,
                index,
                error.method,
                member_problem(position, error.detail),
                lead=error._lead,
            ) from error.__cause__

    entry = build_group(raw, member)
    if isinstance(entry, str):
        raise _invalid("invalid_group", index, None, entry)
    return entry
