"""Checks on scripted values that every boundary needs: safe descriptions, exceptions and
the callables a step takes.

Error messages describe user values, and a message builder must never fail itself:
``repr()`` can raise (an object's own ``__repr__``, or an int too long to print), so
every message goes through :func:`safe_repr`.
"""

from __future__ import annotations

import inspect
import reprlib

__all__ = ["callable_problem", "exception_problem", "safe_repr"]

_REPR = reprlib.Repr()
_REPR.maxstring = 80
_REPR.maxother = 80
_REPR.maxlong = 40


def safe_repr(value: object, limit: int = 120) -> str:
    """A bounded ``repr`` of ``value`` that never raises, for use in error messages."""
    try:
        text = _REPR.repr(value)
    except BaseException as error:  # any failure of a user __repr__
        if isinstance(error, (KeyboardInterrupt, SystemExit)):
            raise
        text = f"<{type(value).__name__} object (repr failed: {type(error).__name__})>"
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return text


def exception_problem(value: object, *, allow_base_exceptions: bool = False) -> str | None:
    """Why ``value`` cannot be scripted as an exception to raise, or ``None`` when it can.

    Accepted: an ``Exception`` instance, or an ``Exception`` subclass that can be created
    without arguments (it is created when raised, so that is checked now). Other
    ``BaseException`` kinds (``KeyboardInterrupt``, ``SystemExit``, ``CancelledError``,
    ...) escape ordinary error handling, so they are refused unless the boundary
    propagates them to the caller (``allow_base_exceptions=True``).
    """
    base = BaseException if allow_base_exceptions else Exception
    if isinstance(value, base):
        return None
    if isinstance(value, type) and issubclass(value, base):
        try:
            value()
        except Exception as error:
            return (
                f"{value.__name__}() cannot be created without arguments "
                f"({type(error).__name__}: {safe_repr(str(error), 80)}); pass an instance"
            )
        return None
    if isinstance(value, BaseException) or (
        isinstance(value, type) and issubclass(value, BaseException)
    ):
        name = value.__name__ if isinstance(value, type) else type(value).__name__
        return (
            f"{name} is a BaseException but not an Exception; scripted errors must be "
            "Exception instances or classes"
        )
    return f"expected an exception instance or class, got {type(value).__name__}"


def callable_problem(value: object, role: str, argument: str) -> str | None:
    """Why ``value`` cannot be a step's ``role`` ('match' or 'responder'), or ``None``.

    Both are called with the one call record, named ``argument`` in the message (e.g.
    ``SandboxCall``); a matcher must answer at once, so it may not be async. Where the
    signature can be read, it must accept that argument.
    """
    if isinstance(value, type):
        return f"'{role}' must be a function taking the {argument}, not the class {value.__name__}"
    if not callable(value):
        return f"'{role}' must be callable, got {type(value).__name__}"
    if inspect.isgeneratorfunction(value) or inspect.isasyncgenfunction(value):
        return f"'{role}' must return its value, not be a generator function"
    if role == "match" and inspect.iscoroutinefunction(value):
        return f"'match' must be a plain (not async) callable taking the {argument}"
    try:
        signature = inspect.signature(value)
    except Exception:  # some builtins and exotic callables have none: checked when called
        return None
    try:
        signature.bind(None)
    except TypeError:
        return f"'{role}' must accept one positional argument (the {argument})"
    return None


# Public names show agents_testing.core, however this module was first imported.
from .lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
