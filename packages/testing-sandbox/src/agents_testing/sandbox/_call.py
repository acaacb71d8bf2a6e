"""The recorded form of one call the workflow made on a scripted sandbox session."""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePath
from types import MappingProxyType
from typing import Any

from agents_testing.core import detach

__all__ = ["SandboxCall", "copy_call", "record_call"]

# Values that cannot change after the call, so a snapshot may share them.
_IMMUTABLE: frozenset[type] = frozenset(
    {str, int, float, bool, bytes, type(None), frozenset, range}
)


@dataclass(frozen=True)
class SandboxCall:
    """One session method call: its 0-based ``call_index``, ``method``, positional ``args``
    and read-only keyword arguments ``kwargs`` (defaults filled in), all detached.

    Stream arguments (the ``data`` of ``write``) are recorded as the bytes they held.
    """

    call_index: int
    method: str
    args: tuple[Any, ...]
    kwargs: Mapping[str, Any]

    def __reduce__(self) -> tuple[object, ...]:
        # A mappingproxy cannot be pickled; rebuild it from a plain dict.
        return (_restore, (self.call_index, self.method, self.args, dict(self.kwargs)))


def _restore(
    call_index: int, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> SandboxCall:
    return SandboxCall(call_index, method, args, MappingProxyType(kwargs))


def _is_immutable(value: object) -> bool:
    return type(value) in _IMMUTABLE or isinstance(value, PurePath)


def _snapshot(value: Any, name: str = "value") -> Any:
    if _is_immutable(value):
        return value
    if isinstance(value, io.IOBase):
        return _drain(value)
    return detach(value, name=name)


def _drain(stream: io.IOBase) -> bytes:
    """The remaining content of ``stream`` as bytes (text is UTF-8 encoded)."""
    data = stream.read()
    if isinstance(data, str):
        return data.encode("utf-8")
    return bytes(data) if data is not None else b""


def record_call(
    call_index: int, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[SandboxCall, bool]:
    """Snapshot a call; the flag says whether it holds only immutable values."""
    shared = all(_is_immutable(arg) for arg in args) and all(
        _is_immutable(value) for value in kwargs.values()
    )
    if shared:
        return SandboxCall(call_index, method, args, MappingProxyType(kwargs)), True
    frozen_args = tuple(_snapshot(arg, f"args[{index}]") for index, arg in enumerate(args))
    frozen_kwargs = {key: _snapshot(value, f"kwargs[{key!r}]") for key, value in kwargs.items()}
    return SandboxCall(call_index, method, frozen_args, MappingProxyType(frozen_kwargs)), False


def copy_call(call: SandboxCall, shared: bool) -> SandboxCall:
    """A copy of a recorded call that shares no mutable state with the history."""
    if shared:
        return call
    return SandboxCall(
        call.call_index,
        call.method,
        tuple(detach(arg) for arg in call.args),
        MappingProxyType({key: detach(value) for key, value in call.kwargs.items()}),
    )
