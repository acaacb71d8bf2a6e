"""``ScriptedRealtimeModel``: a ``RealtimeModel`` driven by a strict script of sends."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from agents.realtime.model import RealtimeModel, RealtimeModelConfig, RealtimeModelListener
from agents.realtime.model_events import RealtimeModelEvent
from agents.realtime.model_inputs import RealtimeModelSendEvent

from agents_testing.core import AnyOrder, GroupEntry, ScriptedDouble, build_group, member_problem

from ._checks import check_error, check_step, check_strict, checked_events, checked_match
from ._connect import RealtimeConnectCall, detached_call, record_connect
from ._delivery import DeliveryGroup, DeliveryQueue
from ._errors import (
    already_connected,
    conflicting_outcomes,
    disconnected,
    invalid_step,
    unconsumed_steps,
    unexpected_send,
)
from ._events.detach import detach_model_event, detach_send_event
from ._step import VALUE, RealtimeStep, event_sequence, matcher

__all__ = ["ScriptedRealtimeModel"]


class _Scripted:
    """A step as one model holds it: the test's step with this model's copies of its exact
    expectation and its events, taken when the model was built, and its matcher of sends
    (checked with ``extra_checks``)."""

    __slots__ = ("emit", "expect", "kind", "match", "step")

    #: A send names nothing a step must script; the expectation alone chooses.
    target = None

    def __init__(
        self,
        step: RealtimeStep,
        expect: Any,
        emit: tuple[RealtimeModelEvent, ...],
        checked: bool,
    ) -> None:
        self.step = step
        self.kind = step._kind
        self.expect = expect
        self.emit = emit
        self.match = (
            functools.partial(checked_match, self.kind, expect)
            if checked
            else matcher(self.kind, expect)
        )

    def expected(self) -> Any:
        """The expectation to report: a copy of an exact event, else the class or callable."""
        return detach_send_event(self.expect) if self.kind == VALUE else self.expect


def _step_list(steps: object) -> list[object]:
    if isinstance(steps, (str, bytes, Mapping, RealtimeStep, AnyOrder)) or not isinstance(
        steps, Iterable
    ):
        raise invalid_step(
            "invalid_input",
            0,
            "steps",
            f"expected a sequence of RealtimeStep objects, got {type(steps).__name__}",
        )
    return list(steps)


_WRAP_IT = "wrap each expected send in RealtimeStep(expect=..., emit=...)"


class _Unmatched(Exception):
    """A send no step expects, in a model that is not strict: recorded, not refused."""


class ScriptedRealtimeModel(
    ScriptedDouble[_Scripted, RealtimeModelSendEvent, RealtimeStep], RealtimeModel
):
    """An in-memory ``RealtimeModel`` that matches sends against scripted steps.

    Each send consumes the next :class:`RealtimeStep` when it matches, then the step's
    events go to the listeners (or its error is raised). At an ``any_order(...)`` group,
    a send consumes the first pending member that expects it. ``connect_events`` are
    emitted by every ``connect()``, as a server greets every new connection, so a
    closed model can be connected again by another session; ``connect_error`` fails
    every connect and ``close_error`` every close of an open connection (which still
    ends). With ``strict=False`` sends that do not match are recorded and leave the step
    pending. ``extra_checks=True`` adds checks the SDK's own scripted model does not
    make (see the package README). Apart from the constructor, :meth:`emit` and
    :meth:`assert_complete`, all methods are the ``RealtimeModel`` interface and
    read-only inspection properties.

    Events reach the listeners through one queue, in the order their calls were made;
    each call returns once its own events were delivered. ``_delivery_worker`` is the
    task running that queue, ``None`` when it is idle.
    """

    def __init__(
        self,
        steps: Iterable[RealtimeStep | AnyOrder[RealtimeStep]] = (),
        *,
        connect_events: Iterable[RealtimeModelEvent] = (),
        connect_error: BaseException | type[BaseException] | None = None,
        close_error: BaseException | type[BaseException] | None = None,
        strict: bool = True,
        extra_checks: bool = False,
    ) -> None:
        if type(extra_checks) is not bool:
            raise invalid_step(
                "invalid_argument",
                0,
                "extra_checks",
                f"extra_checks must be a bool (True or False), got {type(extra_checks).__name__}",
            )
        greeting = event_sequence(connect_events, "connect_events")
        # Checked before anything else, ``steps`` included, which may be a generator.
        if greeting and connect_error is not None:
            raise conflicting_outcomes("connect_events")
        if extra_checks:
            check_strict(strict)
            check_error(connect_error, "connect_error")
            check_error(close_error, "close_error")
            self._connect_events = checked_events(greeting, "connect_events")
        else:
            self._connect_events = tuple(
                detach_model_event(event, wrap_errors=False) for event in greeting
            )
        self._extra_checks = extra_checks
        self._start_script(self._scripted(steps), remembers=False, checks_calls=False)
        self._connect_error = connect_error
        self._close_error = close_error
        self._strict = strict
        self._listeners: list[RealtimeModelListener] = []
        self._deliveries = DeliveryQueue(self._listeners)
        self._connect_calls: list[RealtimeConnectCall] = []
        self._sent: list[RealtimeModelSendEvent] = []
        self._connected = False
        self._closed = False
        self._close_calls = 0

    def _scripted(
        self, steps: Iterable[RealtimeStep | AnyOrder[RealtimeStep]]
    ) -> list[_Scripted | GroupEntry[_Scripted]]:
        entries: list[_Scripted | GroupEntry[_Scripted]] = []
        for index, item in enumerate(_step_list(steps)):
            if isinstance(item, AnyOrder):
                entry = build_group(item, functools.partial(self._member, index))
                if isinstance(entry, str):
                    raise invalid_step("invalid_group", index, "steps", entry)
                entries.append(entry)
            elif isinstance(item, RealtimeStep):
                entries.append(self._hold(item, f"step {index + 1}: "))
            else:
                detail = f"item {index + 1} is a {type(item).__name__}; {_WRAP_IT}"
                raise invalid_step("invalid_input", index, "steps", detail)
        return entries

    def _member(self, index: int, position: int, member: object) -> _Scripted:
        if not isinstance(member, RealtimeStep):
            problem = member_problem(position, f"a {type(member).__name__}; {_WRAP_IT}")
            raise invalid_step("invalid_input", index, "steps", problem)
        return self._hold(member, f"step {index + 1}, any_order() member {position + 1}: ")

    def _hold(self, step: RealtimeStep, where: str) -> _Scripted:
        """``step`` with this model's copies of its events (checked with ``extra_checks``)."""
        if self._extra_checks:
            return _Scripted(step, *check_step(step, where), checked=True)
        expect = step._expect
        return _Scripted(
            step,
            detach_send_event(expect, wrap_errors=False) if step._kind == VALUE else expect,
            tuple(detach_model_event(event, wrap_errors=False) for event in step._emit),
            checked=False,
        )

    # -- RealtimeModel interface -------------------------------------------------

    async def connect(self, options: RealtimeModelConfig) -> None:
        """Record the (credential-free) options, then connect or raise ``connect_error``.

        Refused with :class:`RealtimeAlreadyConnected` (an ``AssertionError``) while the
        model is connected or events of an earlier connection are still being delivered.
        """
        if self._connected or self._deliveries.worker is not None:
            raise already_connected(delivering=not self._connected)
        extra = self._extra_checks
        self._connect_calls.append(record_connect(options, wrap_errors=extra, extra_checks=extra))
        error = self._connect_error
        if error is not None:
            raise error
        events = tuple(
            detach_model_event(event, wrap_errors=extra) for event in self._connect_events
        )
        self._connected = self._deliveries.open = True
        self._closed = False
        group = self._deliveries.submit(events, None, "connect()")
        if group is None:
            return
        try:
            failure = group.error if group.done else await group.outcome()
        except BaseException:
            # Cancelled: the connect failed as far as the caller can tell.
            self._disconnect()
            raise
        if failure is not None:
            self._disconnect()
            raise failure

    def add_listener(self, listener: RealtimeModelListener) -> None:
        """Register ``listener`` for incoming events (once, like the SDK's own models)."""
        if listener not in self._listeners:
            self._listeners.append(listener)

    def remove_listener(self, listener: RealtimeModelListener) -> None:
        """Unregister ``listener``; unknown listeners are ignored."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    async def send_event(self, event: RealtimeModelSendEvent) -> None:
        """Record ``event`` and play the step it matches, once earlier events are delivered.

        A send made by a listener while events are being delivered returns at once; the
        outer call waits for its events and raises its error.
        """
        group = self._commit(event)
        if group is not None:
            failure = group.error if group.done else await group.outcome()
            if failure is not None:
                raise failure

    async def send_event_if(
        self, event: RealtimeModelSendEvent, send_if: Callable[[], bool]
    ) -> bool:
        """Send ``event`` only if ``send_if()`` holds; nothing awaits in between.

        As with the SDK's own double, a model that is not connected refuses the send
        before the condition is asked.
        """
        if not self._connected:
            raise disconnected("send", event, closed=self._closed)
        if not send_if():
            return False
        group = self._commit(event)
        if group is not None:
            failure = group.error if group.done else await group.outcome()
            if failure is not None:
                raise failure
        return True

    async def close(self) -> None:
        """End the connection; ``close_error`` is raised by every close that ends one.

        A broadcast that is running stops before its next listener, and events queued but
        not yet delivered are not delivered. Closing a model that is not connected only
        counts the call.
        """
        self._close_calls += 1
        if not self._connected:
            return
        self._disconnect()
        error = self._close_error
        if error is not None:
            raise error

    # -- test-facing extras ------------------------------------------------------

    async def emit(self, *events: RealtimeModelEvent) -> None:
        """Push copies of incoming events from the test to every listener, in order.

        The events are copied at once, before waiting for earlier deliveries; with
        ``extra_checks`` each is checked first.
        """
        if not self._connected:
            raise disconnected("emit", None, closed=self._closed)
        if self._extra_checks:
            copies = checked_events(events, "emit")
        else:
            copies = tuple(detach_model_event(event, wrap_errors=False) for event in events)
        group = self._deliveries.submit(copies, None, "emit()")
        if group is not None:
            failure = group.error if group.done else await group.outcome()
            if failure is not None:
                raise failure

    # -- inspection ----------------------------------------------------------------

    @property
    def _delivery_worker(self) -> asyncio.Task[None] | None:
        """The task delivering queued events to the listeners; ``None`` when idle.

        Awaiting it (also through ``asyncio.shield``) returns once the queue is drained.
        """
        return self._deliveries.worker

    @property
    def connect_calls(self) -> tuple[RealtimeConnectCall, ...]:
        """Credential-free, detached records of every ``connect()`` call, in order."""
        return tuple(detached_call(call) for call in self._connect_calls)

    @property
    def sent_events(self) -> tuple[RealtimeModelSendEvent, ...]:
        """Detached copies of every send the model accepted, in call order.

        Sends that matched no step in non-strict mode are included; a send that raised
        (a strict mismatch, a predicate's error, a value that cannot be copied) is not.
        """
        return tuple(detach_send_event(event) for event in self._sent)

    def __agents_testing_snapshot__(self) -> object:
        """What ``to_snapshot`` records of the model: the events sent to it, as ``sent_events``."""
        return self.sent_events

    @property
    def listeners(self) -> tuple[RealtimeModelListener, ...]:
        """The listener objects registered right now."""
        return tuple(self._listeners)

    @property
    def connected(self) -> bool:
        """Whether a ``connect()`` succeeded and no ``close()`` followed it."""
        return self._connected

    @property
    def closed(self) -> bool:
        """Whether the latest connection ended: closed, failed or cancelled while connecting.

        False before the first connect and again after reconnecting.
        """
        return self._closed

    @property
    def close_calls(self) -> int:
        """How many times ``close()`` was called."""
        return self._close_calls

    # -- internals -----------------------------------------------------------------

    def _disconnect(self) -> None:
        self._connected = self._deliveries.open = False
        self._closed = True

    def _commit(self, event: RealtimeModelSendEvent) -> DeliveryGroup | None:
        """Check, copy, match and record one send, then queue its step's delivery.

        Everything that can refuse the send runs before anything is recorded or
        consumed. Returns the delivery group to wait for, or ``None``.
        """
        if not self._connected:
            raise disconnected("send", event, closed=self._closed)
        snapshot = detach_send_event(event, wrap_errors=self._extra_checks)
        # Matchers see the private snapshot (predicates get a copy of it), never the
        # caller's object, so nothing they do can change what is recorded.
        try:
            held = self._take(snapshot)
        except _Unmatched:
            self._sent.append(snapshot)
            return None
        self._sent.append(snapshot)
        return self._deliveries.submit(held.emit, held.step.error, type(event))

    # -- the script ----------------------------------------------------------------------

    def _spec(self, held: _Scripted) -> RealtimeStep:
        return held.step

    def _unconsumed(self, pending: tuple[_Scripted, ...]) -> BaseException:
        return unconsumed_steps(tuple(held.step for held in pending))

    def _unexpected(
        self, call: RealtimeModelSendEvent, candidates: tuple[_Scripted, ...], grouped: bool
    ) -> BaseException:
        return self._unmatched(call)

    def _rejected(
        self, call: RealtimeModelSendEvent, same: tuple[_Scripted, ...], grouped: bool
    ) -> BaseException:
        return self._unmatched(call)

    def _unmatched(self, snapshot: RealtimeModelSendEvent) -> Exception:
        if not self._strict:
            return _Unmatched()
        script = self._script
        pending = script.peek()
        group = script.candidates() if script.in_group() else ()
        return unexpected_send(
            snapshot,
            None if pending is None else pending.expected(),
            send_index=len(self._sent),
            step_index=None if pending is None else script.consumed,
            group_expects=tuple(held.expected() for held in group),
        )


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
