"""What each scripted session method returns: checks, snapshots and fresh copies of results.

A result is checked (type and, for the SDK's result records, every field) before it is
accepted, so a malformed value fails where it was scripted instead of deep inside an
SDK tool. Accepted values are kept as snapshots, and every call gets its own copy.
"""

from __future__ import annotations

import inspect
import io
from collections.abc import Callable
from typing import Any

from agents.sandbox.files import FileEntry
from agents.sandbox.session.pty_types import PtyExecUpdate
from agents.sandbox.types import ExecResult

from agents_testing.core import detach

from .streams import SUPPORTED_STREAMS, StreamSnapshot, snapshot_stream, stream_problem

__all__ = [
    "VOID_METHODS",
    "coerce_responded",
    "fresh_result",
    "snapshot_result",
]

#: Methods whose SDK return type is ``None``: a step for them may leave the outcome out.
VOID_METHODS: frozenset[str] = frozenset({"write", "mkdir", "rm", "mv"})

_MISSING = object()


class _Rejected(Exception):
    """A result that cannot be accepted; the message says why."""


def _field(value: object, name: str) -> object:
    try:
        return getattr(value, name)
    except Exception:  # a property of a subclass that fails is a missing field
        return _MISSING


# Plain copies, read through the base types: subclasses cannot intervene.
def _bytes(value: object) -> bytes | None:
    return bytes(memoryview(value)) if isinstance(value, (bytes, bytearray)) else None


def _int(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return int.__int__(value)
    return None


_NONE = object()


def _optional_int(value: object) -> object:
    return _NONE if value is None else _int(value)


_FIELDS: dict[type, tuple[tuple[str, Callable[[object], object], str], ...]] = {
    ExecResult: (
        ("stdout", _bytes, "bytes"),
        ("stderr", _bytes, "bytes"),
        ("exit_code", _int, "an int"),
    ),
    PtyExecUpdate: (
        ("process_id", _optional_int, "an int or None"),
        ("output", _bytes, "bytes"),
        ("exit_code", _optional_int, "an int or None"),
        ("original_token_count", _optional_int, "an int or None"),
    ),
}


def _record(method: str, value: object, kind: type, label: str) -> dict[str, Any]:
    if not isinstance(value, kind):
        raise _Rejected(f"{method} returns {label}, got {type(value).__name__}")
    fields: dict[str, Any] = {}
    for name, convert, expected in _FIELDS[kind]:
        field = _field(value, name)
        if field is _MISSING:
            raise _Rejected(f"{method} returns {label}; its field {name!r} is missing")
        converted = convert(field)
        if converted is None:
            raise _Rejected(
                f"{method} returns {label}; its field {name!r} must be {expected}, "
                f"got {type(field).__name__}"
            )
        fields[name] = None if converted is _NONE else converted
    return fields


def _snapshot(method: str, value: Any) -> Any:
    if method == "exec":
        return ExecResult(**_record(method, value, ExecResult, "an agents.sandbox.ExecResult"))
    if method in ("pty_exec_start", "pty_write_stdin"):
        return PtyExecUpdate(**_record(method, value, PtyExecUpdate, "a PtyExecUpdate"))
    if method == "read":
        if isinstance(value, io.IOBase):
            problem = stream_problem(value)
            if problem is not None:
                raise _Rejected(f"a read result must be {SUPPORTED_STREAMS}, got {problem}")
            return snapshot_stream(value)  # type: ignore[arg-type]
        if isinstance(value, str):
            return StreamSnapshot(True, str.__str__(value), 0)
        data = _bytes(value)
        if data is None:
            raise _Rejected(
                "read returns an io.BytesIO or io.StringIO (bytes and str are accepted too), "
                f"got {type(value).__name__}"
            )
        return StreamSnapshot(False, data, 0)
    if method == "ls":
        if not isinstance(value, (list, tuple)):
            raise _Rejected(
                f"ls returns a list of agents.sandbox.files.FileEntry, got {type(value).__name__}"
            )
        entries = list(value)
        for position, entry in enumerate(entries, start=1):
            if not isinstance(entry, FileEntry):
                raise _Rejected(
                    "ls returns a list of agents.sandbox.files.FileEntry; "
                    f"item {position} is a {type(entry).__name__}"
                )
        return tuple(detach(entry) for entry in entries)
    if method == "apply_patch":
        if not isinstance(value, str):
            raise _Rejected(f"apply_patch returns a str, got {type(value).__name__}")
        return str.__str__(value)
    if method == "same_file":
        if type(value) is not bool:
            raise _Rejected(f"same_file returns a bool, got {type(value).__name__}")
        return value
    # write, mkdir, rm, mv
    if value is not None:
        raise _Rejected(f"{method} returns None, got {type(value).__name__}")
    return None


def snapshot_result(method: str, value: Any) -> tuple[Any, str | None]:
    """A private snapshot of a result of ``method`` and ``None``, or ``None`` and the reason
    ``value`` cannot be one.

    Each field is read once and copied through its base type, so the snapshot shares
    nothing mutable with ``value`` and a later change to it changes nothing.
    """
    try:
        return _snapshot(method, value), None
    except _Rejected as rejected:
        return None, str(rejected)


def _fresh_exec(snapshot: ExecResult) -> ExecResult:
    return ExecResult(stdout=snapshot.stdout, stderr=snapshot.stderr, exit_code=snapshot.exit_code)


def _fresh_update(snapshot: PtyExecUpdate) -> PtyExecUpdate:
    return PtyExecUpdate(
        process_id=snapshot.process_id,
        output=snapshot.output,
        exit_code=snapshot.exit_code,
        original_token_count=snapshot.original_token_count,
    )


# Methods whose snapshots must be copied for each caller; the others hold immutable values.
_FRESH: dict[str, Callable[[Any], Any]] = {
    "exec": _fresh_exec,
    "pty_exec_start": _fresh_update,
    "pty_write_stdin": _fresh_update,
    "read": lambda snapshot: snapshot.fresh(),
    "ls": lambda snapshot: [detach(entry) for entry in snapshot],
}


def fresh_result(method: str, snapshot: Any) -> Any:
    """A value for the caller built from a snapshot, sharing no mutable state with it."""
    fresh = _FRESH.get(method)
    return snapshot if fresh is None else fresh(snapshot)


def coerce_responded(method: str, value: Any) -> tuple[Any, str | None]:
    """A responder's value as the caller gets it, or the reason it is not acceptable."""
    if inspect.isawaitable(value):
        close = getattr(value, "close", None)
        if callable(close):
            close()  # never awaited: closing it avoids a "never awaited" warning
        return None, (
            f"a responder's awaitable must resolve to the {method} result, not to another awaitable"
        )
    snapshot, problem = snapshot_result(method, value)
    if problem is not None:
        return None, problem
    return fresh_result(method, snapshot), None
