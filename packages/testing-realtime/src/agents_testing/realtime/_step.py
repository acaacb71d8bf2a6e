"""One scripted realtime exchange: an expected outgoing event and its outcome."""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeAlias, Union, get_args, get_origin

from agents.realtime.model_events import RealtimeModelEvent
from agents.realtime.model_inputs import RealtimeModelSendEvent

from agents_testing.core import safe_repr

from ._errors import conflicting_outcomes, invalid_step
from ._events.detach import SEND_EVENT_TYPES, detach_model_event, detach_send_event
from ._faults import FaultPlan, RealtimeFault, plan_faults
from ._frozen import Frozen

__all__ = [
    "CLASS",
    "PREDICATE",
    "VALUE",
    "RealtimeExpectation",
    "RealtimeStep",
    "event_sequence",
    "matcher",
    "matches",
]

RealtimeExpectation: TypeAlias = (
    "RealtimeModelSendEvent | type[Any] | types.UnionType"
    " | Callable[[RealtimeModelSendEvent], bool]"
)
"""An exact outgoing event, an event class or a union of them (isinstance) or a predicate."""

VALUE, CLASS, PREDICATE = 0, 1, 2
"""The kinds of expectation: compared with ``==``, matched with ``isinstance``, called."""


def _kind_of(expect: object) -> int:
    if isinstance(expect, type):
        return CLASS
    origin = get_origin(expect)
    # ``A | B`` of classes works with isinstance like one class.
    if (origin is Union or origin is types.UnionType) and all(
        isinstance(arm, type) for arm in get_args(expect)
    ):
        return CLASS
    if isinstance(expect, SEND_EVENT_TYPES):
        return VALUE
    return PREDICATE if callable(expect) else VALUE


def matcher(kind: int, expect: Any) -> Callable[[RealtimeModelSendEvent], bool]:
    """The function that tells whether an event meets ``expect``, an expectation of the
    given kind, written for that kind (a model calls it for every send).

    A predicate gets its own copy of the event, so a predicate that changes what it is
    given changes nothing recorded; its result counts by its truth value. An exception
    from a predicate or from comparing values propagates.
    """
    if kind == VALUE:
        return lambda event: bool(event == expect)
    if kind == CLASS:
        return lambda event: isinstance(event, expect)
    return lambda event: bool(expect(detach_send_event(event)))


def matches(kind: int, expect: Any, event: RealtimeModelSendEvent) -> bool:
    """Whether ``event`` meets ``expect``, an expectation of the given kind (see
    :func:`matcher`)."""
    return matcher(kind, expect)(event)


def event_sequence(events: Any, field: str) -> tuple[Any, ...]:
    """The items of ``events`` (``None`` means none) as a tuple, unchecked and uncopied.

    A string, a mapping, a single event or anything else that is not a sequence of
    events is refused: iterating it would script characters, keys or fields as events.
    """
    if events is None:
        return ()
    if (
        isinstance(events, (str, bytes, Mapping))
        or dataclasses.is_dataclass(events)
        or not isinstance(events, Iterable)
    ):
        raise invalid_step(
            "invalid_event",
            0,
            field,
            f"expected a sequence of RealtimeModelEvent objects, got {type(events).__name__}",
        )
    return tuple(events)


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


class RealtimeStep(Frozen):
    """Match one outgoing event, then emit incoming events or raise an error.

    ``expect`` is an exact ``RealtimeModelSendEvent`` (compared with ``==``), an event
    class or a union of them (``isinstance``) or a callable that returns True for a
    matching event (it gets a copy of the sent event). ``emit`` events go to the
    model's listeners in order after the match; ``error`` is raised from the matched
    send instead. A step cannot have both (``ValueError``). Steps compare by value
    (``expect``, ``emit`` and ``error``) and are immutable, so they also hash. A model
    copies a step's events and exact expectation when it is built, and ``expect`` and
    ``emit`` hand out copies; ``ScriptedRealtimeModel(..., extra_checks=True)`` also
    checks their shapes. ``faults`` (our own, opt-in) script production failures of the
    connection on this step's delivery: see :class:`RealtimeFault`.
    """

    __slots__ = ("_emit", "_expect", "_faults", "_kind", "_plan", "error")

    error: BaseException | type[BaseException] | None
    _expect: Any
    _emit: tuple[RealtimeModelEvent, ...]
    _kind: int
    _faults: tuple[RealtimeFault, ...]
    _plan: FaultPlan | None

    def __init__(
        self,
        expect: RealtimeExpectation,
        emit: Iterable[RealtimeModelEvent] = (),
        error: BaseException | type[BaseException] | None = None,
        *,
        faults: Iterable[RealtimeFault] | None = None,
    ) -> None:
        events = event_sequence(emit, "emit")
        if events and error is not None:
            raise conflicting_outcomes("emit")
        given, plan = plan_faults(faults, len(events), error is not None)
        object.__setattr__(self, "_expect", expect)
        object.__setattr__(self, "_emit", events)
        object.__setattr__(self, "error", error)
        object.__setattr__(self, "_kind", _kind_of(expect))
        object.__setattr__(self, "_faults", given)
        object.__setattr__(self, "_plan", plan)

    @property
    def expect(self) -> RealtimeExpectation:
        """The expectation; an exact event is handed out as a copy."""
        if self._kind == VALUE:
            return detach_send_event(self._expect)
        return self._expect  # type: ignore[no-any-return]

    @property
    def emit(self) -> tuple[RealtimeModelEvent, ...]:
        """Copies of the events this step emits, in order."""
        return tuple(detach_model_event(event) for event in self._emit)

    @property
    def faults(self) -> tuple[RealtimeFault, ...]:
        """The faults scripted on this step's delivery (empty without any)."""
        return self._faults

    def _value(self) -> tuple[Any, ...]:
        return (self._expect, self._emit, self.error, self._faults)

    def __hash__(self) -> int:
        # Coarse but consistent with ==: equal steps have the same kind of expectation,
        # as many events and an error or none. Field values may be unhashable.
        return hash((RealtimeStep, self._kind, len(self._emit), self.error is None))

    def __reduce__(self) -> tuple[object, ...]:
        # Rebuilt through the constructor: slot state cannot be set on an immutable step.
        if self._faults:
            return (_rebuild_step, (self._expect, self._emit, self.error, self._faults))
        return (type(self), (self._expect, self._emit, self.error))

    def __repr__(self) -> str:
        expect = self._expect
        shown = _event_repr(expect) if self._kind == VALUE else safe_repr(expect)
        parts = [f"expect={shown}"]
        if self._emit:
            parts.append(f"emit=[{', '.join(_event_repr(event) for event in self._emit)}]")
        if self.error is not None:
            parts.append(f"error={safe_repr(self.error)}")
        if self._faults:
            parts.append(f"faults=[{', '.join(map(repr, self._faults))}]")
        return f"RealtimeStep({', '.join(parts)})"

    def matches(self, event: RealtimeModelSendEvent) -> bool:
        """Whether ``event`` satisfies this step's expectation.

        A predicate gets its own copy of ``event``, so a predicate that changes what it
        is given changes nothing recorded; its result counts by its truth value. An
        exception from a predicate or from comparing values propagates.
        """
        return matches(self._kind, self._expect, event)


def _rebuild_step(
    expect: Any, emit: tuple[Any, ...], error: Any, faults: tuple[RealtimeFault, ...]
) -> RealtimeStep:
    return RealtimeStep(expect, emit, error, faults=faults)


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
