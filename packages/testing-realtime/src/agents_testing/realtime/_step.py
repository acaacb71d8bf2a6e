"""One scripted realtime exchange: an expected outgoing event and its outcome."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from typing import Any, TypeAlias

from agents.realtime.model_events import RealtimeModelEvent
from agents.realtime.model_inputs import RealtimeModelSendEvent

from ._errors import InvalidRealtimeStep
from ._events import SEND_EVENT_TYPES, is_model_event

__all__ = ["RealtimeExpectation", "RealtimeStep", "validate_error", "validate_events"]

RealtimeExpectation: TypeAlias = (
    "RealtimeModelSendEvent | type[Any] | Callable[[RealtimeModelSendEvent], bool]"
)
"""An exact outgoing event, an event class (isinstance) or a predicate."""

_VALUE, _CLASS, _PREDICATE = 0, 1, 2


def validate_events(events: Iterable[Any], field: str) -> tuple[RealtimeModelEvent, ...]:
    """Check that every item is a normalized incoming event; return them as a tuple."""
    if isinstance(events, (str, bytes)) or not isinstance(events, Iterable):
        raise InvalidRealtimeStep(
            "invalid_event",
            0,
            field,
            f"expected a sequence of RealtimeModelEvent objects, got {type(events).__name__}",
        )
    checked = tuple(events)
    for index, event in enumerate(checked):
        if not is_model_event(event):
            raise InvalidRealtimeStep(
                "invalid_event",
                index,
                field,
                f"item {index + 1} is a {type(event).__name__}, not a normalized "
                "RealtimeModelEvent (for example RealtimeModelToolCallEvent)",
            )
    return checked


def validate_error(error: object, field: str) -> None:
    """Check that ``error`` is an exception instance or class (or ``None``)."""
    if error is None or isinstance(error, BaseException):
        return
    if isinstance(error, type) and issubclass(error, BaseException):
        return
    raise InvalidRealtimeStep(
        "invalid_error",
        0,
        field,
        f"expected an exception instance or class, got {type(error).__name__}",
    )


def _expect_kind(expect: object) -> int:
    if isinstance(expect, type):
        if not issubclass(expect, SEND_EVENT_TYPES):
            raise InvalidRealtimeStep(
                "invalid_expect",
                0,
                "expect",
                f"{expect.__name__} is not an outgoing RealtimeModelSendEvent class; "
                "the model only matches what the session sends",
            )
        return _CLASS
    if isinstance(expect, SEND_EVENT_TYPES):
        return _VALUE
    if callable(expect):
        if inspect.iscoroutinefunction(expect):
            raise InvalidRealtimeStep(
                "invalid_expect",
                0,
                "expect",
                "a predicate must be a plain function returning a bool, not a coroutine",
            )
        return _PREDICATE
    raise InvalidRealtimeStep(
        "invalid_expect",
        0,
        "expect",
        f"expected a RealtimeModelSendEvent, an event class or a predicate, "
        f"got {type(expect).__name__}",
    )


class RealtimeStep:
    """Match one outgoing event, then emit incoming events or raise an error.

    ``expect`` is an exact ``RealtimeModelSendEvent`` (compared with ``==``), an event
    class (``isinstance``) or a callable that returns True for a matching event.
    ``emit`` events go to the model's listeners in order after the match; ``error``
    is raised from the matched send instead. A step cannot have both.
    """

    __slots__ = ("_kind", "emit", "error", "expect")

    expect: RealtimeExpectation
    emit: tuple[RealtimeModelEvent, ...]
    error: BaseException | type[BaseException] | None
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
        object.__setattr__(self, "expect", expect)
        object.__setattr__(self, "emit", events)
        object.__setattr__(self, "error", error)
        object.__setattr__(self, "_kind", kind)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"RealtimeStep is immutable; cannot set {name!r}")

    def __reduce__(self) -> tuple[object, ...]:
        # Rebuilt through the constructor: slot state cannot be set on an immutable step.
        return (type(self), (self.expect, self.emit, self.error))

    def __repr__(self) -> str:
        parts = [f"expect={self.expect!r}"]
        if self.emit:
            parts.append(f"emit={list(self.emit)!r}")
        if self.error is not None:
            parts.append(f"error={self.error!r}")
        return f"RealtimeStep({', '.join(parts)})"

    def matches(self, event: RealtimeModelSendEvent) -> bool:
        """Whether ``event`` satisfies this step's expectation."""
        kind = self._kind
        if kind == _VALUE:
            return bool(event == self.expect)
        if kind == _CLASS:
            return isinstance(event, self.expect)  # type: ignore[arg-type]
        result = self.expect(event)  # type: ignore[operator]
        if inspect.isawaitable(result):
            close = getattr(result, "close", None)
            if close is not None:
                close()
            raise InvalidRealtimeStep(
                "invalid_expect",
                0,
                "expect",
                "the predicate returned an awaitable; predicates run synchronously "
                "inside send_event and must return a bool",
            )
        return bool(result)
