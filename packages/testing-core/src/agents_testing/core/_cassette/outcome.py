"""A recorded call's outcome when it failed: the exception as cassette data, and back.

A recording writes an exception's type (``module.QualName``) and message, and whatever
the boundary adds (an HTTP status, a protocol error); a replay raises it again: the
recorded type when its module is already imported and it can be made from the data,
otherwise the boundary's ``Replayed…Error`` (a :class:`ReplayedError`) carrying both.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["ReplayedError", "error_json", "exception_type", "rebuilt_error"]

Rebuild = Callable[[type[Exception], str, Mapping[str, Any]], "Exception | None"]
"""Makes a recorded exception of a known type from its message and data (None: cannot)."""


class ReplayedError(Exception):
    """A recorded error whose original type cannot be rebuilt on replay.

    ``error_type`` is the recorded ``module.QualName`` and ``message`` its text.
    """

    def __init__(self, error_type: str, message: str) -> None:
        self.error_type = error_type
        self.message = message
        super().__init__(f"{error_type}: {message}")

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.error_type, self.message))


def error_json(error: BaseException, message: str | None = None) -> dict[str, Any]:
    """The exception as cassette data: its type and its message (``str(error)`` unless
    given)."""
    kind = type(error)
    return {
        "type": f"{kind.__module__}.{kind.__qualname__}",
        "message": str(error) if message is None else message,
    }


def exception_type(name: str) -> type[Exception] | None:
    """The ``Exception`` class named ``module.QualName``, when its module is imported.

    Only modules already imported are looked in: loading a cassette never imports code.
    """
    module_name, _, qualname = name.rpartition(".")
    while module_name:
        module = sys.modules.get(module_name)
        if module is not None:
            found: Any = module
            for part in qualname.split("."):
                found = getattr(found, part, None)
            # Only Exception kinds: a scripted step may not raise other BaseExceptions.
            return found if isinstance(found, type) and issubclass(found, Exception) else None
        module_name, _, head = module_name.rpartition(".")
        qualname = f"{head}.{qualname}"
    return None


def rebuilt_error(
    data: Mapping[str, Any], replayed: type[ReplayedError], rebuild: Rebuild | None = None
) -> Exception:
    """The exception recorded as ``data`` (see :func:`error_json`), to raise on replay.

    ``rebuild`` makes one of a known type (by default from the message alone); when it
    cannot, the error is ``replayed(type, message)``. Raises ``ValueError`` when the
    data holds no type and message.
    """
    name, message = data.get("type"), data.get("message")
    if not isinstance(name, str) or not isinstance(message, str):
        raise ValueError("a recorded error needs a 'type' and a 'message' string")
    kind = exception_type(name)
    if kind is not None:
        made = (rebuild or _from_message)(kind, message, data)
        if made is not None:
            return made
    return replayed(name, message)


def _from_message(kind: type[Exception], message: str, data: Mapping[str, Any]) -> Exception | None:
    try:
        return kind(message)
    except Exception:
        return None
