"""The recorded form of one call the workflow made on a scripted sandbox session."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePath
from types import MappingProxyType
from typing import Any

from agents_testing.core import detach

from ._errors import InvalidSandboxArgument
from ._streams import (
    SUPPORTED_STREAMS,
    StreamSnapshot,
    is_stream,
    snapshot_stream,
    stream_problem,
)

__all__ = ["SandboxCall", "copy_call", "record_call"]

# Values that cannot change after the call, so a snapshot may share them.
_IMMUTABLE: frozenset[type] = frozenset(
    {str, int, float, bool, bytes, type(None), frozenset, range}
)


@dataclass(frozen=True)
class SandboxCall:
    """One session method call: its 0-based ``call_index``, ``method``, positional ``args``
    and read-only keyword arguments ``kwargs`` (defaults filled in), all detached.

    A stream argument (the ``data`` of ``write``) is captured with its content and
    position; each copy of the call holds a fresh ``io.BytesIO`` / ``io.StringIO``.
    """

    call_index: int
    method: str
    args: tuple[Any, ...]
    kwargs: Mapping[str, Any]

    def __agents_testing_snapshot__(self) -> object:
        """The call as plain data for ``to_snapshot``; its position is its index."""
        return {"method": self.method, "args": list(self.args), "kwargs": dict(self.kwargs)}

    def __reduce__(self) -> tuple[object, ...]:
        # A mappingproxy cannot be pickled; rebuild it from a plain dict.
        return (_restore, (self.call_index, self.method, self.args, dict(self.kwargs)))


def _restore(
    call_index: int, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> SandboxCall:
    return SandboxCall(call_index, method, args, MappingProxyType(kwargs))


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
