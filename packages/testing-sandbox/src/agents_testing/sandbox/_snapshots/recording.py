"""Recording a call: its arguments snapshotted, and detached copies handed out."""

from __future__ import annotations

from pathlib import PurePath
from types import MappingProxyType
from typing import Any

from agents_testing.core import detach

from .._call import SandboxCall
from .._errors import InvalidSandboxArgument
from .streams import (
    SUPPORTED_STREAMS,
    StreamSnapshot,
    is_stream,
    snapshot_stream,
    stream_problem,
)

__all__ = ["copy_call", "record_call"]

# Values that cannot change after the call, so a snapshot may share them.
_IMMUTABLE: frozenset[type] = frozenset(
    {str, int, float, bool, bytes, type(None), frozenset, range}
)


def _is_immutable(value: object) -> bool:
    return type(value) in _IMMUTABLE or isinstance(value, PurePath)


def _snapshot(method: str, name: str, value: Any) -> Any:
    if _is_immutable(value):
        return value
    if is_stream(value):
        problem = stream_problem(value)
        if problem is not None:
            raise InvalidSandboxArgument(name, SUPPORTED_STREAMS, problem, method)
        return snapshot_stream(value)
    try:
        return detach(value)
    except Exception as error:  # a lock, a generator, cyclic data: it cannot be recorded
        raise InvalidSandboxArgument(
            name, "a value that can be copied", f"a {type(value).__name__}", method
        ) from error


def _hand_out(value: Any) -> Any:
    if isinstance(value, StreamSnapshot):
        return value.fresh()
    return detach(value)


def record_call(
    call_index: int, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[SandboxCall, bool]:
    """Snapshot a call; the flag says whether it holds only immutable values.

    The record is private: hand it out through :func:`copy_call`. A stream argument that
    cannot be captured raises ``InvalidSandboxArgument`` before anything is recorded.
    """
    shared = all(_is_immutable(arg) for arg in args) and all(
        _is_immutable(value) for value in kwargs.values()
    )
    if shared:
        return SandboxCall(call_index, method, args, MappingProxyType(kwargs)), True
    frozen_args = tuple(
        _snapshot(method, f"args[{position}]", arg) for position, arg in enumerate(args)
    )
    frozen_kwargs = {key: _snapshot(method, key, value) for key, value in kwargs.items()}
    return SandboxCall(call_index, method, frozen_args, MappingProxyType(frozen_kwargs)), False


def copy_call(call: SandboxCall, shared: bool) -> SandboxCall:
    """A copy of a recorded call that shares no mutable state with the history.

    Captured streams become fresh streams of the same type, content and position.
    """
    if shared:
        return call
    return SandboxCall(
        call.call_index,
        call.method,
        tuple(_hand_out(arg) for arg in call.args),
        MappingProxyType({key: _hand_out(value) for key, value in call.kwargs.items()}),
    )
