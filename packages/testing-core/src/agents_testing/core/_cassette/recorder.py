"""What a cassette records while a live boundary runs.

A :class:`CallRecorder` wraps the live object's public operations on that one object
(never its class), keeps each call as cassette JSON, and notes why the recording cannot
be written (a value with no JSON form) instead of failing the run: the run goes on as
with the live boundary alone, and writing the cassette refuses.
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Awaitable, Callable
from typing import Any

from .._values import cycle_problem

__all__ = ["CallRecorder"]

# The recorders whose call is running in this context: a call the live object makes on
# itself belongs to the outer one.
_INSIDE: contextvars.ContextVar[frozenset[int]] = contextvars.ContextVar(
    "agents_testing_recording", default=frozenset()
)

Record = Callable[[Callable[..., Awaitable[Any]], tuple[Any, ...], dict[str, Any]], Awaitable[Any]]
"""Records one outermost call: given the original method and the call's arguments, it
calls the method and returns (or raises) what the method did."""


class CallRecorder:
    """The recording of one live object for one cassette."""

    def __init__(self) -> None:
        #: Why the recording cannot be written; the first is what the cassette says.
        self.unwritable: list[str] = []

    def json(self, value: Any, where: str, encode: Callable[[Any], Any]) -> Any:
        """``encode(value)``, or None when ``value`` contains itself (noted as unwritable)."""
        problem = cycle_problem(value, where)
        if problem is not None:
            self.unwritable.append(problem)
            return None
        return encode(value)

    def wrap(self, live: Any, method: str, record: Record) -> None:
        """Replace ``live.method`` on that object by one that ``record``s its outermost calls."""
        original = getattr(live, method)
        key = id(self)

        @functools.wraps(original)
        async def recorded(*args: Any, **kwargs: Any) -> Any:
            inside = _INSIDE.get()
            if key in inside:
                return await original(*args, **kwargs)
            token = _INSIDE.set(inside | {key})
            try:
                return await record(original, args, kwargs)
            finally:
                _INSIDE.reset(token)

        setattr(live, method, recorded)
