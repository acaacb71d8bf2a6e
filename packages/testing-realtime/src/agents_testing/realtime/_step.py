"""One scripted realtime exchange: an expected outgoing event and its outcome."""

from __future__ import annotations

import dataclasses
import inspect
import types
from collections.abc import Callable, Iterable
from typing import Any, TypeAlias, Union, get_args, get_origin

from agents.realtime.model_events import RealtimeModelEvent
from agents.realtime.model_inputs import RealtimeModelSendEvent

from agents_testing.core import exception_problem, safe_repr

from ._errors import InvalidRealtimeStep
from ._events.detach import SEND_EVENT_TYPES, detach_model_event, detach_send_event, is_model_event
from ._events.fields import field_problem

__all__ = ["RealtimeExpectation", "RealtimeStep", "validate_error", "validate_events"]

RealtimeExpectation: TypeAlias = (
    "RealtimeModelSendEvent | type[Any] | types.UnionType"
    " | Callable[[RealtimeModelSendEvent], bool]"
)
"""An exact outgoing event, an event class or a union of them (isinstance) or a predicate."""

_VALUE, _CLASS, _PREDICATE, _UNCHECKED_PREDICATE = 0, 1, 2, 3


def validate_events(events: Any, field: str) -> tuple[RealtimeModelEvent, ...]:
    """Check every item is a well-typed normalized incoming event; return detached copies.

    The copies are what the script keeps, so changing the test's event objects after
    building the script changes nothing that is emitted later. ``None`` means none.
    """
    if events is None:
        return ()
    if isinstance(events, (str, bytes)) or not isinstance(events, Iterable):
        raise InvalidRealtimeStep(
            "invalid_event",
            0,
            field,
            f"expected a sequence of RealtimeModelEvent objects, got {type(events).__name__}",
        )
    checked: list[RealtimeModelEvent] = []
    for index, event in enumerate(events):
        checked.append(_checked_event(event, index, field))
    return tuple(checked)


def _checked_event(event: object, index: int, field: str) -> RealtimeModelEvent:
    name = type(event).__name__
    if not is_model_event(event):
        raise InvalidRealtimeStep(
            "invalid_event",
            index,
            field,
            f"item {index + 1} is a {name}, not a normalized RealtimeModelEvent "
            "(for example RealtimeModelToolCallEvent)",
        )
    problem = field_problem(event)
    if problem is not None:
        path, why = problem
        raise InvalidRealtimeStep(
            "invalid_event",
            index,
            field,
            f"item {index + 1} ({name}): field {path!r} {why}; the session would fail on it",
            event_field=path,
        )
    try:
        return detach_model_event(event)  # type: ignore[return-value]
    except Exception as error:
        raise InvalidRealtimeStep(
            "invalid_event",
            index,
            field,
            f"item {index + 1} ({name}) holds a value that cannot be copied "
            f"({type(error).__name__}); script plain data instead",
        ) from error


def validate_error(error: object, field: str) -> None:
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
        raise InvalidRealtimeStep("invalid_error", 0, field, problem)


def _invalid_expect(detail: str) -> InvalidRealtimeStep:
    return InvalidRealtimeStep("invalid_expect", 0, "expect", detail)


def _expect_kind(expect: object) -> int:
    origin = get_origin(expect)
    # ``A | B`` of outgoing event classes works with isinstance like one class.
    if (origin is Union or origin is types.UnionType) and all(
        isinstance(arm, type) and issubclass(arm, SEND_EVENT_TYPES) for arm in get_args(expect)
    ):
        return _CLASS
    if isinstance(expect, types.GenericAlias) or (
        origin is not None and not isinstance(expect, type)
    ):
        raise _invalid_expect(
            f"{safe_repr(expect)} is a parameterized type, not an outgoing event class or "
            "a predicate; pass a RealtimeModelSendEvent class or a function of one event"
        )
    if isinstance(expect, type):
        if not issubclass(expect, SEND_EVENT_TYPES):
            raise _invalid_expect(
                f"{expect.__name__} is not an outgoing RealtimeModelSendEvent class; "
                "the model only matches what the session sends"
            )
        return _CLASS
    if isinstance(expect, SEND_EVENT_TYPES):
        return _VALUE
    if callable(expect):
        return _predicate_kind(expect)
    raise _invalid_expect(
        f"expected a RealtimeModelSendEvent, an event class or a predicate, "
        f"got {type(expect).__name__}"
    )


def _predicate_kind(expect: Callable[..., Any]) -> int:
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
            "a predicate must be a plain function returning a bool, not a coroutine or "
            "generator function"
        )
    try:
        signature = inspect.signature(expect)
    except (TypeError, ValueError):
        # A builtin without signature metadata: its shape is checked when it is called.
        return _UNCHECKED_PREDICATE
    try:
        signature.bind(None)
    except TypeError:
        raise _invalid_expect(
            f"the predicate {safe_repr(expect)} cannot be called with one argument (the sent "
            f"event); its signature is {safe_repr(signature, 80)}"
        ) from None
    return _PREDICATE


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
            "the predicate returned an awaitable; predicates run synchronously inside "
            "send_event and must return a bool"
        )
    raise _invalid_expect(
        f"the predicate returned {safe_repr(result, 80)} ({kind.__name__}); a predicate "
        "must return True for a matching event and False otherwise"
    )


def _event_repr(event: object) -> str:
    """``Name(field=value, ...)`` of an event, each value through :func:`safe_repr`."""
    if not dataclasses.is_dataclass(event) or isinstance(event, type):
        return safe_repr(event)
    fields = ", ".join(
        f"{field.name}={safe_repr(getattr(event, field.name, None), 60)}"
        for field in dataclasses.fields(event)
        if field.name != "type"
    )
    return f"{type(event).__name__}({fields})"


class RealtimeStep:
    """Match one outgoing event, then emit incoming events or raise an error.

    ``expect`` is an exact ``RealtimeModelSendEvent`` (compared with ``==``), an event
    class or a union of them (``isinstance``) or a callable that returns True for a
    matching event (it gets a copy of the sent event). ``emit`` events go to the
    model's listeners in order after the match; ``error`` is raised from the matched
    send instead. A step cannot have both. Events are copied when the step is built
    and again whenever they are handed out.
    """

    __slots__ = ("_emit", "_expect", "_kind", "error")

    error: BaseException | type[BaseException] | None
    _expect: Any
    _emit: tuple[RealtimeModelEvent, ...]
    _kind: int

    def __init__(
        self,
        expect: RealtimeExpectation,
        emit: Iterable[RealtimeModelEvent] = (),
        error: BaseException | type[BaseException] | None = None,
    ) -> None:
        kind = _expect_kind(expect)
        events = validate_events(emit, "emit")
        validate_error(error, "error")
        if events and error is not None:
            raise InvalidRealtimeStep(
                "conflicting_outcomes",
                0,
                "emit",
                "a step either emits events or raises an error, not both; split it "
                "into two steps or drop one outcome",
            )
        if kind == _VALUE:
            try:
                expect = detach_send_event(expect)  # type: ignore[arg-type]
            except Exception as failure:
                raise _invalid_expect(
                    f"the expected {type(expect).__name__} holds a value that cannot be "
                    f"copied ({type(failure).__name__}); script plain data instead"
                ) from failure
        object.__setattr__(self, "_expect", expect)
        object.__setattr__(self, "_emit", events)
        object.__setattr__(self, "error", error)
        object.__setattr__(self, "_kind", kind)

    @property
    def expect(self) -> RealtimeExpectation:
        """The expectation; an exact event is handed out as a copy."""
        if self._kind == _VALUE:
            return detach_send_event(self._expect)
        return self._expect  # type: ignore[no-any-return]

    @property
    def emit(self) -> tuple[RealtimeModelEvent, ...]:
        """Copies of the events this step emits, in order."""
        return tuple(detach_model_event(event) for event in self._emit)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"RealtimeStep is immutable; cannot set {name!r}")

    def __reduce__(self) -> tuple[object, ...]:
        # Rebuilt through the constructor: slot state cannot be set on an immutable step.
        return (type(self), (self._expect, self._emit, self.error))

    def __repr__(self) -> str:
        expect = self._expect
        shown = _event_repr(expect) if self._kind == _VALUE else safe_repr(expect)
        parts = [f"expect={shown}"]
        if self._emit:
            parts.append(f"emit=[{', '.join(_event_repr(event) for event in self._emit)}]")
        if self.error is not None:
            parts.append(f"error={safe_repr(self.error)}")
        return f"RealtimeStep({', '.join(parts)})"

    def matches(self, event: RealtimeModelSendEvent) -> bool:
        """Whether ``event`` satisfies this step's expectation.

        A predicate gets its own copy of ``event``, so a predicate that changes what it
        is given changes nothing recorded. An exception from a predicate propagates;
        a predicate that cannot be called with the event, or returns something other
        than a bool, raises :class:`InvalidRealtimeStep`.
        """
        kind = self._kind
        if kind == _VALUE:
            try:
                return bool(event == self._expect)
            except Exception:  # values that cannot even be compared are not equal
                return False
        if kind == _CLASS:
            return isinstance(event, self._expect)
        view = detach_send_event(event)
        if kind == _UNCHECKED_PREDICATE:
            try:
                result = self._expect(view)
            except TypeError as error:
                raise _invalid_expect(
                    f"calling the predicate {safe_repr(self._expect)} with the sent event "
                    f"failed ({type(error).__name__}); pass a function of one event"
                ) from error
        else:
            result = self._expect(view)
        return _judged(result)
