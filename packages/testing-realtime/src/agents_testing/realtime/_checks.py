"""The stricter checks of ``ScriptedRealtimeModel(..., extra_checks=True)``.

A bare model accepts what the SDK's own scripted model accepts. With ``extra_checks``
it also refuses, when it is built, scripts that would misbehave later: expectations
that can never match a send, events whose fields have the wrong type or that contain
themselves, errors that cannot be raised through a session, a ``strict`` that is not a
bool; and, when a send arrives, predicates whose answer is not a bool. Every refusal is an
:class:`InvalidRealtimeStep` naming the step, field and event; messages name classes,
never field values.
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable
from typing import Any, Union, get_args, get_origin

from agents.realtime.model_events import RealtimeModelEvent
from agents.realtime.model_inputs import RealtimeModelSendEvent

from agents_testing.core import cycle_problem, exception_problem, safe_repr

from ._errors import InvalidRealtimeStep, invalid_step
from ._events.detach import SEND_EVENT_TYPES, detach_model_event, detach_send_event, is_model_event
from ._events.fields import field_problem
from ._step import PREDICATE, VALUE, RealtimeStep, event_sequence, matches

__all__ = ["checked_events", "checked_match", "check_error", "check_step", "check_strict"]


def check_strict(strict: object) -> None:
    """Refuse a ``strict`` that is not ``True`` or ``False`` (``1`` or ``"yes"``, say)."""
    if type(strict) is not bool:
        raise invalid_step(
            "invalid_argument",
            0,
            "strict",
            f"strict must be a bool (True or False), got {type(strict).__name__}",
        )


def checked_events(events: Any, field: str, where: str = "") -> tuple[RealtimeModelEvent, ...]:
    """Copies of ``events`` after checking each is a well-typed normalized incoming event.

    ``where`` ("step 2: ") starts every detail, to name the step the events belong to.
    """
    return tuple(
        _checked_event(event, index, field, where)
        for index, event in enumerate(event_sequence(events, field))
    )


def _checked_event(event: object, index: int, field: str, where: str) -> RealtimeModelEvent:
    name = type(event).__name__
    if not is_model_event(event):
        raise invalid_step(
            "invalid_event",
            index,
            field,
            f"{where}item {index + 1} is a {name}, not a normalized RealtimeModelEvent "
            "(for example RealtimeModelToolCallEvent)",
        )
    cycle = cycle_problem(event, f"item {index + 1}")
    if cycle is not None:
        raise invalid_step(
            "invalid_event",
            index,
            field,
            f"{where}{cycle}; the session hands events on as data, so script a tree",
        )
    problem = field_problem(event)
    if problem is not None:
        path, why = problem
        raise invalid_step(
            "invalid_event",
            index,
            field,
            f"{where}item {index + 1} ({name}): field {path!r} {why}; the session would fail on it",
            event_field=path,
        )
    try:
        return detach_model_event(event)  # type: ignore[return-value]
    except Exception as error:
        raise invalid_step(
            "invalid_event",
            index,
            field,
            f"{where}item {index + 1} ({name}) holds a value that cannot be copied "
            f"({type(error).__name__}); script plain data instead",
        ) from error


def check_error(error: object, field: str, where: str = "") -> None:
    """Check that ``error`` can be raised from a send, connect or close (or is ``None``).

    Only ``Exception`` kinds are accepted: a ``BaseException`` such as
    ``CancelledError`` raised inside the session's background tasks would end them
    silently and leave the test waiting. ``StopIteration`` kinds cannot leave a
    coroutine as themselves, and a class is created when raised, so it must work
    without arguments.
    """
    if error is None:
        return
    problem = exception_problem(error)
    if problem is None and (
        isinstance(error, (StopIteration, StopAsyncIteration))
        or (isinstance(error, type) and issubclass(error, (StopIteration, StopAsyncIteration)))
    ):
        problem = (
            "StopIteration and StopAsyncIteration cannot be raised from a coroutine "
            "(Python turns them into RuntimeError); script another exception"
        )
    if problem is not None:
        raise invalid_step("invalid_error", 0, field, where + problem)


def check_step(step: RealtimeStep, where: str) -> tuple[Any, tuple[RealtimeModelEvent, ...]]:
    """Run every build-time check on ``step``; return copies of its expectation and events.

    ``where`` ("step 2: ") starts every detail, to name the step. An exact expectation is
    copied (the model matches against its copy); any other is returned as it is.
    """
    expect = step._expect
    _check_expect(expect, where)
    check_error(step.error, "error", where)
    events = checked_events(step._emit, "emit", where)
    if step._kind != VALUE:
        return expect, events
    try:
        return detach_send_event(expect), events
    except Exception as error:
        raise _invalid_expect(
            where,
            f"the expected {type(expect).__name__} holds a value that cannot be copied "
            f"({type(error).__name__}); script plain data instead",
        ) from error


def _invalid_expect(where: str, detail: str) -> InvalidRealtimeStep:
    return invalid_step("invalid_expect", 0, "expect", where + detail)


def _name(value: object) -> str:
    name = getattr(value, "__qualname__", None)
    return name if isinstance(name, str) else type(value).__qualname__


def _check_expect(expect: object, where: str) -> None:
    origin = get_origin(expect)
    if origin is Union or origin is types.UnionType:
        arms = get_args(expect)
        if all(isinstance(arm, type) and issubclass(arm, SEND_EVENT_TYPES) for arm in arms):
            return
        raise _invalid_expect(
            where,
            "a union expectation may only name outgoing RealtimeModelSendEvent classes",
        )
    if isinstance(expect, types.GenericAlias) or (
        origin is not None and not isinstance(expect, type)
    ):
        raise _invalid_expect(
            where,
            f"{safe_repr(expect)} is a parameterized type, not an outgoing event class or "
            "a predicate; pass a RealtimeModelSendEvent class or a function of one event",
        )
    if isinstance(expect, type):
        if not issubclass(expect, SEND_EVENT_TYPES):
            raise _invalid_expect(
                where,
                f"{expect.__name__} is not an outgoing RealtimeModelSendEvent class; "
                "the model only matches what the session sends",
            )
        return
    if isinstance(expect, SEND_EVENT_TYPES):
        return
    if callable(expect):
        _check_predicate(expect, where)
        return
    raise _invalid_expect(
        where,
        f"expected a RealtimeModelSendEvent, an event class or a predicate, "
        f"got {type(expect).__name__}",
    )


def _check_predicate(expect: Callable[..., Any], where: str) -> None:
    call = getattr(expect, "__call__", None)  # noqa: B004 - the bound method is inspected
    if any(
        check(expect) or check(call)
        for check in (
            inspect.iscoroutinefunction,
            inspect.isasyncgenfunction,
            inspect.isgeneratorfunction,
        )
    ):
        raise _invalid_expect(
            where,
            "a predicate must be a plain function returning a bool, not a coroutine or "
            "generator function",
        )
    try:
        signature = inspect.signature(expect)
    except (TypeError, ValueError):
        return  # a builtin without signature metadata: its shape is checked when called
    try:
        signature.bind(None)
    except TypeError:
        raise _invalid_expect(
            where,
            f"the predicate {_name(expect)} cannot be called with one argument (the sent "
            f"event); its parameters are ({', '.join(signature.parameters)})",
        ) from None


def checked_match(kind: int, expect: Any, event: RealtimeModelSendEvent) -> bool:
    """:func:`matches`, refusing predicates that do not answer with a bool.

    Values that cannot even be compared count as different; a predicate that cannot be
    called with the event, or returns anything but ``True``/``False`` (or a numpy bool),
    raises :class:`InvalidRealtimeStep`.
    """
    if kind == VALUE:
        try:
            return bool(event == expect)
        except Exception:  # values that cannot even be compared are not equal
            return False
    if kind != PREDICATE:
        return matches(kind, expect, event)
    predicate = expect
    view = detach_send_event(event)
    try:
        result = predicate(view)
    except TypeError as error:
        try:
            inspect.signature(predicate)
        except (TypeError, ValueError):
            # A builtin without signature metadata: its shape is only known now.
            raise _invalid_expect(
                "",
                f"calling the predicate {_name(predicate)} with the sent event failed "
                f"({type(error).__name__}); pass a function of one event",
            ) from error
        raise
    return _judged(result)


def _judged(result: object) -> bool:
    """A predicate's verdict: only ``True`` and ``False`` (or a numpy bool) count."""
    if result is True:
        return True
    if result is False:
        return False
    kind = type(result)
    if kind.__module__ == "numpy" and kind.__name__ in ("bool_", "bool"):
        return result.__bool__()  # type: ignore[attr-defined, no-any-return]
    if inspect.isawaitable(result):
        close = getattr(result, "close", None)
        if callable(close):
            close()
        raise _invalid_expect(
            "",
            "the predicate returned an awaitable; predicates run synchronously inside "
            "send_event and must return a bool",
        )
    # Only the type: the result may be a value taken from the sent event.
    raise _invalid_expect(
        "",
        f"the predicate returned a {kind.__name__}; a predicate must return True for a "
        "matching event and False otherwise",
    )
