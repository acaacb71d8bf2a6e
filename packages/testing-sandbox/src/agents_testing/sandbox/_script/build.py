"""Building a sandbox script: every step checked and its static result snapshotted.

Everything that can be checked is checked when the script is built: the method, the
shape of matchers and responders, scripted exceptions, and static results (type and
fields), which are then snapshotted so that mutating the original value afterwards
changes nothing.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping
from typing import Any

from agents_testing.core import (
    AnyOrder,
    GroupEntry,
    build_group,
    exception_problem,
    member_problem,
    safe_repr,
)

from .._errors import InvalidSandboxStep, InvalidSandboxStepReason
from .._snapshots.results import VOID_METHODS, snapshot_result
from .._steps import KEYS, OUTCOMES, OutcomeKind, Step, scriptable_methods

__all__ = ["build_steps", "callable_problem"]


def callable_problem(value: object, role: str) -> str | None:
    """Why ``value`` cannot be a step's ``role`` ('match' or 'responder'), or ``None``.

    Both are called with the one ``SandboxCall``; a matcher must answer at once, so it
    may not be async. Where the signature can be read, it must accept that argument.
    """
    if isinstance(value, type):
        return f"'{role}' must be a function taking the SandboxCall, not the class {value.__name__}"
    if not callable(value):
        return f"'{role}' must be callable, got {type(value).__name__}"
    if inspect.isgeneratorfunction(value) or inspect.isasyncgenfunction(value):
        return f"'{role}' must return its value, not be a generator function"
    if role == "match" and inspect.iscoroutinefunction(value):
        return "'match' must be a plain (not async) callable taking the SandboxCall"
    signature = _signature(value)
    if signature is None:
        return None  # checked when called
    try:
        signature.bind(None)
    except TypeError:
        return f"'{role}' must accept one positional argument (the SandboxCall)"
    return None


def _signature(value: object) -> inspect.Signature | None:
    try:
        return inspect.signature(value)  # type: ignore[arg-type]
    except Exception:  # some builtins and exotic callables have none
        return None


def _invalid(
    reason: InvalidSandboxStepReason, index: int, method: str | None, detail: str
) -> InvalidSandboxStep:
    return InvalidSandboxStep(reason, index, method, detail)


def _read_spec(index: int, raw: object) -> dict[Any, Any]:
    if not isinstance(raw, Mapping):
        raise _invalid("invalid_input", index, None, f"a step is a dict, got {type(raw).__name__}")
    try:
        # One copy, read once: a mapping that changes (or fails) later cannot matter.
        return dict(raw)
    except Exception as error:
        detail = f"the step mapping could not be read ({type(error).__name__})"
        raise _invalid("invalid_input", index, None, detail) from error


def _build_step(index: int, raw: object, methods: frozenset[str]) -> Step:
    spec = _read_spec(index, raw)
    method = spec.get("method")
    if not isinstance(method, str):
        raise _invalid(
            "invalid_input", index, None, "a step needs a 'method' naming a session method"
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
        )
    if method not in methods:
        raise _invalid(
            "unknown_method",
            index,
            method,
            f"the installed SDK's scriptable methods are {', '.join(sorted(methods))}",
        )
    match = spec.get("match")
    if match is not None:
        problem = callable_problem(match, "match")
        if problem is not None:
            raise _invalid("invalid_matcher", index, method, problem)
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
        )
    kind: OutcomeKind = given[0]  # type: ignore[assignment]
    value = spec[kind]
    if kind == "responder":
        problem = callable_problem(value, "responder")
        if problem is not None:
            raise _invalid("invalid_outcome", index, method, problem)
    elif kind == "error":
        problem = exception_problem(value)
        if problem is None and (
            isinstance(value, StopIteration)
            or (isinstance(value, type) and issubclass(value, StopIteration))
        ):
            problem = (
                "StopIteration cannot be raised from an async session method (Python turns "
                "it into RuntimeError); script the RuntimeError or another exception"
            )
        if problem is not None:
            raise _invalid("invalid_outcome", index, method, f"'error': {problem}")
    else:
        value, problem = snapshot_result(method, value)
        if problem is not None:
            raise _invalid("invalid_outcome", index, method, problem)
    unchecked = frozenset(
        role
        for role, function in (("match", match), ("responder", spec.get("responder")))
        if function is not None and _signature(function) is None
    )
    return Step(index, method, kind, value, match, unchecked)


def build_steps(steps: Iterable[object]) -> list[Step | GroupEntry[Step]]:
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
    return [_build_entry(index, raw, methods) for index, raw in enumerate(steps)]


def _build_entry(index: int, raw: object, methods: frozenset[str]) -> Step | GroupEntry[Step]:
    if not isinstance(raw, AnyOrder):
        return _build_step(index, raw, methods)

    def member(position: int, spec: object) -> Step:
        try:
            return _build_step(index, spec, methods)
        except InvalidSandboxStep as error:
            raise _invalid(
                error.reason, index, error.method, member_problem(position, error.detail)
            ) from error.__cause__

    entry = build_group(raw, member)
    if isinstance(entry, str):
        raise _invalid("invalid_group", index, None, entry)
    return entry
