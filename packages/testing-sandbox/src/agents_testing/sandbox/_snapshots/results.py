"""What each scripted session method returns: the type checks that ``extra_checks`` adds.

A bare session hands back whatever a step scripts, as the SDK's built-in one does. With
``extra_checks=True`` a result is checked (type and, for the SDK's result records, every
field) before it is accepted, so a malformed value fails where it was scripted instead
of deep inside an SDK tool.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from agents.sandbox.files import FileEntry
from agents.sandbox.session.pty_types import PtyExecUpdate
from agents.sandbox.types import ExecResult

__all__ = ["VOID_METHODS", "result_problem"]

#: Methods whose SDK return type is ``None``: a step for them may leave the outcome out.
VOID_METHODS: frozenset[str] = frozenset({"write", "mkdir", "rm", "mv"})

_MISSING = object()


def _field(value: object, name: str) -> object:
    try:
        return getattr(value, name)
    except Exception:  # a property of a subclass that fails is a missing field
        return _MISSING


def _is_bytes(value: object) -> bool:
    return isinstance(value, (bytes, bytearray))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_optional_int(value: object) -> bool:
    return value is None or _is_int(value)


_FIELDS: dict[type, tuple[tuple[str, Callable[[object], bool], str], ...]] = {
    ExecResult: (
        ("stdout", _is_bytes, "bytes"),
        ("stderr", _is_bytes, "bytes"),
        ("exit_code", _is_int, "an int"),
    ),
    PtyExecUpdate: (
        ("process_id", _is_optional_int, "an int or None"),
        ("output", _is_bytes, "bytes"),
        ("exit_code", _is_optional_int, "an int or None"),
        ("original_token_count", _is_optional_int, "an int or None"),
    ),
}


def _record_problem(method: str, value: object, kind: type, label: str) -> str | None:
    if not isinstance(value, kind):
        return f"{method} returns {label}, got {type(value).__name__}"
    for name, accepts, expected in _FIELDS[kind]:
        field = _field(value, name)
        if field is _MISSING:
            return f"{method} returns {label}; its field {name!r} is missing"
        if not accepts(field):
            return (
                f"{method} returns {label}; its field {name!r} must be {expected}, "
                f"got {type(field).__name__}"
            )
    return None


def _read_problem(value: object, responded: bool) -> str | None:
    if not responded and isinstance(value, (io.BytesIO, io.StringIO)):
        return None  # captured when the script was built, or refused there when closed
    if responded and isinstance(value, io.IOBase):
        try:
            closed = value.closed is not False
        except Exception:  # a broken stream is as unusable as a closed one
            closed = True
        return (
            f"read returns an open stream, got a closed {type(value).__name__}" if closed else None
        )
    if isinstance(value, (str, bytes, bytearray)):
        return (
            f"read returns a stream the SDK reads from, got {type(value).__name__}; wrap it "
            f"as io.{'StringIO' if isinstance(value, str) else 'BytesIO'}(...)"
        )
    return f"read returns an io.BytesIO or io.StringIO, got {type(value).__name__}"


def result_problem(method: str, value: object, *, responded: bool = False) -> str | None:
    """Why ``value`` is not what ``method`` returns, or ``None`` when it is.

    ``responded`` is true for a responder's value, which may be any open stream for
    ``read`` (a static result must be one that can be replayed).
    """
    if method == "exec":
        return _record_problem(method, value, ExecResult, "an agents.sandbox.ExecResult")
    if method in ("pty_exec_start", "pty_write_stdin"):
        return _record_problem(method, value, PtyExecUpdate, "a PtyExecUpdate")
    if method == "read":
        return _read_problem(value, responded)
    if method == "ls":
        if not isinstance(value, (list, tuple)):
            return (
                f"ls returns a list of agents.sandbox.files.FileEntry, got {type(value).__name__}"
            )
        for position, entry in enumerate(value, start=1):
            if not isinstance(entry, FileEntry):
                return (
                    "ls returns a list of agents.sandbox.files.FileEntry; "
                    f"item {position} is a {type(entry).__name__}"
                )
        return None
    if method == "apply_patch":
        if not isinstance(value, str):
            return f"apply_patch returns a str, got {type(value).__name__}"
        return None
    if method == "same_file":
        if type(value) is not bool:
            return f"same_file returns a bool, got {type(value).__name__}"
        return None
    # write, mkdir, rm, mv
    if value is not None:
        return f"{method} returns None, got {type(value).__name__}"
    return None
