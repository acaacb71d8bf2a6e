"""Realtime faults: the production failures a step can script on the connection.

A :class:`RealtimeFault` goes in ``RealtimeStep(..., faults=[...])``. Each is checked
when it is made (a negative delay, a reorder window under 2) and again against its step
when the step is made (a drop after more events than the step delivers), and turned
into a :class:`FaultPlan`: the order in which the step's events reach the listeners,
how long the connection waits before each, and whether it drops after them.

A drop is what the SDK's own WebSocket model reports when its connection goes: a
``RealtimeModelExceptionEvent`` holding the ``websockets`` ``ConnectionClosedError``
(context ``"WebSocket connection closed unexpectedly"``), or, for a clean close by the
server (codes 1000 and 1001), a ``RealtimeModelConnectionStatusEvent("disconnected")``
and a ``RealtimeModelEndOfStreamEvent`` on the SDK releases that have the latter
(0.21.1 and later; earlier ones report nothing). A send on the dropped connection
raises the ``ConnectionClosed`` exception the socket raises.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from agents_testing.core import delay_problem, exception_problem, safe_repr

from ._errors import InvalidRealtimeStep, invalid_step
from ._frozen import Frozen

__all__ = [
    "FaultPlan",
    "RealtimeFault",
    "closed_error",
    "drop_events",
    "plan_faults",
]

FaultKind = Literal["drop", "delay", "duplicate", "reorder", "fail_next_send"]

# The close code of a connection lost without a close frame (a reset, a dead network).
ABNORMAL_CLOSURE = 1006
_CLEAN_CODES = (1000, 1001)
_UNEXPECTED = "WebSocket connection closed unexpectedly"


def _fault_error(detail: str, position: int = 0) -> InvalidRealtimeStep:
    """The error for a fault: ``position`` is its 0-based place in the step's ``faults``."""
    return invalid_step("invalid_fault", position, "faults", detail)


def _count_problem(value: object, what: str, minimum: int) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return f"{what} must be an int, got {type(value).__name__}"
    if value < minimum:
        return f"{what} must be at least {minimum}, got {value}"
    return None


class RealtimeFault(Frozen):
    """A production failure scripted on one :class:`RealtimeStep`'s delivery.

    Make one with a builder: :meth:`drop`, :meth:`delay`, :meth:`duplicate`,
    :meth:`reorder` or :meth:`fail_next_send`. Faults compare by value, are immutable
    and hash. Bad arguments raise :class:`InvalidRealtimeStep` (reason
    ``invalid_fault``) at once; what does not fit the step (a drop after more events
    than it delivers) is refused when the step is made.
    """

    __slots__ = ("_kind", "_options")

    _kind: FaultKind
    _options: tuple[tuple[str, Any], ...]

    def __init__(self, kind: FaultKind, **options: Any) -> None:
        object.__setattr__(self, "_kind", kind)
        object.__setattr__(self, "_options", tuple(sorted(options.items())))

    # -- builders ---------------------------------------------------------------------

    @classmethod
    def drop(cls, after: int | None = None, *, code: int = 1006, reason: str = "") -> RealtimeFault:
        """The connection drops after the step's first ``after`` delivered events (all of
        them when ``None``; 0: as soon as the send is matched).

        ``code`` is the WebSocket close code: 1006 (the default) is a connection lost
        without a close frame, 1000 and 1001 a clean close by the server, any other code
        a close with an error (1011: the server failed). ``reason`` is the close frame's
        text (none for 1006).
        """
        if after is not None:
            problem = _count_problem(after, "drop(after=...)", 0)
            if problem is not None:
                raise _fault_error(problem)
        _check_close(code, reason)
        return cls("drop", after=after, code=code, reason=reason)

    @classmethod
    def delay(cls, seconds: float, *, before: int | Literal["each"] = 0) -> RealtimeFault:
        """The connection waits ``seconds`` (on the event loop's clock) before the
        delivered event at position ``before`` (0-based, counting the drop's events;
        ``"each"``: before every one). The send that matched the step returns without
        waiting for what comes after a delay, as a real send returns once it is sent.
        """
        problem = delay_problem(seconds)
        if problem is not None:
            raise _fault_error(f"delay(): {problem}")
        if before != "each":
            problem = _count_problem(before, "delay(before=...)", 0)
            if problem is not None:
                raise _fault_error(f"{problem} (or 'each')")
        return cls("delay", seconds=float(seconds), before=before)

    @classmethod
    def duplicate(cls, *events: int) -> RealtimeFault:
        """The step's events at these 0-based positions (of its ``emit``) arrive twice,
        the copy right after the original, as a server that resends them."""
        if not events:
            raise _fault_error("duplicate() needs the position of at least one event")
        for index in events:
            problem = _count_problem(index, "a duplicate() position", 0)
            if problem is not None:
                raise _fault_error(problem)
        if len(set(events)) != len(events):
            raise _fault_error("duplicate() names a position twice")
        return cls("duplicate", events=tuple(sorted(events)))

    @classmethod
    def reorder(cls, window: int, *, seed: int | None = None) -> RealtimeFault:
        """The delivered events are cut into consecutive windows of ``window`` events and
        each window arrives reversed (``window=2`` swaps each pair); with ``seed``, each
        window is shuffled by ``random.Random(seed)`` instead."""
        problem = _count_problem(window, "reorder(window=...)", 2)
        if problem is not None:
            raise _fault_error(f"{problem}: a window of one event reorders nothing")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise _fault_error(
                f"reorder(seed=...) must be an int or None, got {type(seed).__name__}"
            )
        return cls("reorder", window=window, seed=seed)

    @classmethod
    def fail_next_send(
        cls, error: BaseException | type[BaseException] | None = None
    ) -> RealtimeFault:
        """The first send after this step, on the same connection, fails before it
        reaches the script: it is not recorded and consumes no step.

        Without ``error``, that send finds the connection dropped (code 1006): it raises
        the ``ConnectionClosedError`` a real socket raises and the listeners get the
        drop's event. With ``error``, the send raises it and the connection stays up.
        """
        if error is not None:
            problem = exception_problem(error)
            if problem is not None:
                raise _fault_error(f"fail_next_send(error=...): {problem}")
        return cls("fail_next_send", error=error)

    # -- value object -----------------------------------------------------------------

    @property
    def kind(self) -> FaultKind:
        """``"drop"``, ``"delay"``, ``"duplicate"``, ``"reorder"`` or ``"fail_next_send"``."""
        return self._kind

    @property
    def options(self) -> Mapping[str, Any]:
        """The builder's arguments, by name."""
        return dict(self._options)

    def _get(self, name: str) -> Any:
        return dict(self._options)[name]

    def _value(self) -> tuple[Any, ...]:
        return (self._kind, self._options)

    def __hash__(self) -> int:
        return hash((RealtimeFault, self._kind, len(self._options)))

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (self._kind, dict(self._options)))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={safe_repr(value, 60)}" for name, value in self._options)
        return f"RealtimeFault.{self._kind}({shown})"


def _rebuild(kind: FaultKind, options: dict[str, Any]) -> RealtimeFault:
    return RealtimeFault(kind, **options)


def _check_close(code: object, reason: object) -> None:
    if isinstance(code, bool) or not isinstance(code, int):
        raise _fault_error(f"drop(code=...) must be an int close code, got {type(code).__name__}")
    if not isinstance(reason, str):
        raise _fault_error(f"drop(reason=...) must be a str, got {type(reason).__name__}")
    if code == ABNORMAL_CLOSURE:
        if reason:
            raise _fault_error(
                "drop(code=1006) is a connection lost without a close frame, which carries "
                "no reason; give another code to send one"
            )
        return
    from websockets.exceptions import ProtocolError
    from websockets.frames import Close

    try:
        Close(code, reason).check()
    except ProtocolError:
        raise _fault_error(
            f"drop(code={code}) is no close code a server sends; use 1006 (lost), 1000 or "
            "1001 (clean), 1011 (server error) or another code of RFC 6455 (3000-4999 too)"
        ) from None
    if len(reason.encode()) > 123:
        raise _fault_error("drop(reason=...) is longer than a close frame holds (123 bytes)")


@dataclass(frozen=True)
class FaultPlan:
    """How one step's events reach the listeners.

    ``order`` holds positions in the step's ``emit``, in delivery order (a duplicate
    appears twice); ``waits`` the seconds before each delivered entry, the drop counted
    as one last entry; ``drop`` the drop fault, if any; ``fail_next_send`` the fault
    that fails the send after the step.
    """

    order: tuple[int, ...]
    waits: tuple[float, ...]
    drop: RealtimeFault | None
    fail_next_send: RealtimeFault | None

    @property
    def delayed(self) -> bool:
        """Whether the connection waits before any entry."""
        return any(self.waits)


def plan_faults(
    faults: object, events: int, has_error: bool
) -> tuple[tuple[RealtimeFault, ...], FaultPlan | None]:
    """Check ``faults`` against a step with ``events`` emit events; return them and the
    plan (``None`` when there are none). Raises :class:`InvalidRealtimeStep`."""
    given = _fault_list(faults)
    if not given:
        return (), None
    if has_error:
        raise invalid_step(
            "conflicting_outcomes",
            0,
            "faults",
            "a step with an error raises it from the send and delivers nothing, so it takes "
            "no faults; script the failure as RealtimeFault.fail_next_send(error) on the "
            "step before, or drop the error",
        )
    by_kind: dict[str, list[tuple[int, RealtimeFault]]] = {}
    for position, fault in enumerate(given):
        found = by_kind.setdefault(fault.kind, [])
        if found and fault.kind != "delay":
            raise _fault_error(
                f"a step takes one {fault.kind} fault; fault {position + 1} is another", position
            )
        found.append((position, fault))
    order = _delivery_order(by_kind, events)
    drop = _one(by_kind, "drop")
    waits = _waits(by_kind.get("delay", []), len(order) + (drop is not None))
    return given, FaultPlan(tuple(order), waits, drop, _one(by_kind, "fail_next_send"))


def _fault_list(faults: object) -> tuple[RealtimeFault, ...]:
    if faults is None:
        return ()
    if isinstance(faults, RealtimeFault):
        raise _fault_error("faults takes a list of RealtimeFault objects; wrap the fault in [ ]")
    if isinstance(faults, (str, bytes, Mapping)) or not isinstance(faults, Iterable):
        raise _fault_error(
            f"faults takes a list of RealtimeFault objects, got {type(faults).__name__}"
        )
    given = tuple(faults)
    for position, fault in enumerate(given):
        if not isinstance(fault, RealtimeFault):
            raise _fault_error(
                f"fault {position + 1} is a {type(fault).__name__}; make faults with "
                "RealtimeFault.drop(), .delay(), .duplicate(), .reorder() or .fail_next_send()",
                position,
            )
    return given


def _one(by_kind: dict[str, list[tuple[int, RealtimeFault]]], kind: str) -> RealtimeFault | None:
    found = by_kind.get(kind)
    return found[0][1] if found else None


def _delivery_order(by_kind: dict[str, list[tuple[int, RealtimeFault]]], events: int) -> list[int]:
    """Positions in the step's ``emit`` in delivery order: duplicated, reordered, cut."""
    order = list(range(events))
    for position, duplicate in by_kind.get("duplicate", []):
        twice = duplicate._get("events")
        beyond = [index for index in twice if index >= events]
        if beyond:
            raise _fault_error(
                f"duplicate() names event position {beyond[0]} (0-based), but the step "
                f"emits {events} event(s)",
                position,
            )
        order = [copy for index in order for copy in [index] * (2 if index in twice else 1)]
    for _position, reorder in by_kind.get("reorder", []):
        order = _reordered(order, reorder._get("window"), reorder._get("seed"))
    for position, drop in by_kind.get("drop", []):
        after = drop._get("after")
        if after is not None and after > len(order):
            raise _fault_error(
                f"drop(after={after}) is after more events than the step delivers ({len(order)})",
                position,
            )
        order = order[:after]
    return order


def _waits(delays: list[tuple[int, RealtimeFault]], entries: int) -> tuple[float, ...]:
    """Seconds before each of the ``entries`` delivered (the drop counted last)."""
    waits = [0.0] * entries
    for position, delay in delays:
        before, seconds = delay._get("before"), delay._get("seconds")
        if before == "each":
            if len(delays) > 1:
                raise _fault_error(
                    "delay(before='each') cannot be combined with other delays", position
                )
            return (seconds,) * entries
        if before >= entries:
            what = "nothing" if not entries else f"{entries} event(s), the drop counted"
            raise _fault_error(
                f"delay(before={before}) is before an event the step does not deliver "
                f"(it delivers {what})",
                position,
            )
        waits[before] += seconds
    return tuple(waits)


def _reordered(order: list[int], window: int, seed: int | None) -> list[int]:
    shuffle = random.Random(seed).shuffle if seed is not None else None
    result: list[int] = []
    for start in range(0, len(order), window):
        chunk = order[start : start + window]
        if shuffle is None:
            chunk.reverse()
        else:
            shuffle(chunk)
        result.extend(chunk)
    return result


def closed_error(code: int, reason: str) -> Exception:
    """A fresh ``ConnectionClosed`` as the ``websockets`` client raises it for this close."""
    from websockets.exceptions import ConnectionClosedError, ConnectionClosedOK
    from websockets.frames import Close

    if code == ABNORMAL_CLOSURE:
        return ConnectionClosedError(None, None)
    frame = Close(code, reason)
    kind = ConnectionClosedOK if code in _CLEAN_CODES else ConnectionClosedError
    return kind(frame, frame, True)


def drop_events(code: int, reason: str) -> tuple[Any, ...]:
    """The events the installed SDK's WebSocket model emits when its connection closes
    this way, without ``close()`` having been asked for."""
    from agents.realtime import model_events

    if code not in _CLEAN_CODES:
        return (
            model_events.RealtimeModelExceptionEvent(
                exception=closed_error(code, reason), context=_UNEXPECTED
            ),
        )
    end_of_stream = getattr(model_events, "RealtimeModelEndOfStreamEvent", None)
    if end_of_stream is None:  # before 0.21.1 a clean close is reported with no event
        return ()
    return (
        model_events.RealtimeModelConnectionStatusEvent(status="disconnected"),
        end_of_stream(),
    )


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
