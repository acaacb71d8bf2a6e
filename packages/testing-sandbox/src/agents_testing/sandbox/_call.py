"""The recorded form of one call the workflow made on a scripted sandbox session."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

__all__ = ["SandboxCall"]


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


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
