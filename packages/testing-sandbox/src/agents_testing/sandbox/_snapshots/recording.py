"""Recording a call: its arguments snapshotted, and detached copies handed out."""

from __future__ import annotations

import contextlib
from types import MappingProxyType
from typing import Any

from agents_testing.core import cycle_problem, ordinal

from .._call import SandboxCall
from .._errors import unrecordable_argument
from .values import frozen, is_plain, thaw

__all__ = ["copy_call", "record_call"]


def _frozen(method: str, call_index: int, argument: str, value: Any, wrap_errors: bool) -> Any:
    if cycle_problem(value) is not None:
        # The SDK's own double never finishes copying such a value; this says why.
        raise unrecordable_argument("cyclic", type(value).__name__, method, call_index, argument)
    snapshot, stream, original = frozen(value)
    if stream is not None:
        if stream.closed:
            text = "text" if stream.text else "byte"
            raise unrecordable_argument(
                "closed_stream", stream.kind, method, call_index, argument, stream=text
            )
        raise unrecordable_argument("unsupported_stream", stream.kind, method, call_index, argument)
    if original is None:
        return snapshot
    if wrap_errors:
        failure = type(original).__name__
        raise unrecordable_argument(
            "uncopyable", type(value).__name__, method, call_index, argument, failure=failure
        ) from original
    add_note = getattr(original, "add_note", None)
    if add_note is not None:
        # A courtesy that must never replace the error itself. The note names the
        # argument's position and type only: argument values may hold secrets.
        with contextlib.suppress(Exception):
            add_note(
                f"agents-testing: sandbox {method} call #{ordinal(call_index)} argument "
                f"{argument!r} (a {type(value).__name__}) could not be copied for the "
                "recorded history; nothing was recorded or consumed."
            )
    raise original


def record_call(
    call_index: int,
    method: str,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    *,
    wrap_errors: bool,
) -> tuple[SandboxCall, bool]:
    """Snapshot a call; the flag says whether it holds only immutable values.

    The record is private: hand it out through :func:`copy_call`. An argument that
    cannot be captured raises before anything is recorded: a stream other than an open
    ``io.BytesIO`` / ``io.StringIO`` raises a ``TypeError`` (``InvalidSandboxArgument``);
    a value whose copy fails raises its own exception, or, with ``wrap_errors``,
    ``InvalidSandboxArgument`` caused by it.
    """
    if all(map(is_plain, args)) and all(map(is_plain, kwargs.values())):
        return SandboxCall(call_index, method, args, MappingProxyType(kwargs)), True
    frozen_args = tuple(
        [
            _frozen(method, call_index, f"args[{position}]", arg, wrap_errors)
            for position, arg in enumerate(args)
        ]
    )
    frozen_kwargs = {
        key: _frozen(method, call_index, key, value, wrap_errors) for key, value in kwargs.items()
    }
    return SandboxCall(call_index, method, frozen_args, MappingProxyType(frozen_kwargs)), False


def copy_call(call: SandboxCall, shared: bool) -> SandboxCall:
    """A copy of a recorded call that shares no mutable state with the history.

    Captured streams become fresh plain streams of the same content and position.
    """
    if shared:
        return call
    return SandboxCall(
        call.call_index,
        call.method,
        thaw(call.args),
        MappingProxyType({key: thaw(value) for key, value in call.kwargs.items()}),
    )
