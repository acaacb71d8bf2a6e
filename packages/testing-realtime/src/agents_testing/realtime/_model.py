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
from ._delivered import DeliveredEvent, delivered_record
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
from ._faults import FaultPlan, RealtimeFault, closed_error, drop_events
from ._step import VALUE, RealtimeStep, event_sequence, matcher

__all__ = ["ScriptedRealtimeModel"]


class _Scripted:
    """A step as one model holds it: the test's step with this model's copies of its exact
    expectation and its events, taken when the model was built, and its matcher of sends
    (checked with ``extra_checks``)."""

    __slots__ = ("emit", "expect", "kind", "match", "plan", "step")

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
        plan: FaultPlan | None = step._plan
        self.plan = plan
        if plan is not None:
            # The events in the order the faults deliver them; a duplicate is a copy of
            # its own, as a resent message is parsed anew.
            seen: set[int] = set()
            ordered = []
            for index in plan.order:
                event = emit[index]
                ordered.append(
                    detach_model_event(event, wrap_errors=False) if index in seen else event
                )
                seen.add(index)
            emit = tuple(ordered)
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
    task running that queue, ``None`` when it is idle. ``delivered_events`` records what
    went out and when; a step's ``faults`` (:class:`RealtimeFault`) delay, duplicate,
    reorder or drop what it delivers, or fail the next send.
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
        # The close code and reason of a connection that dropped (a scripted fault),
        # until close(); and the fault that fails the next send, once a step armed it.
        self._drop: tuple[int, str] | None = None
        self._failing_send: RealtimeFault | None = None

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
        if self._drop is not None:
            raise already_connected(delivering=False, dropped=True)
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
        self._deliveries.dropped = False
        self._failing_send = None  # a broken socket was the old connection's
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
        await self._settle(self._commit(event))

    async def send_event_if(
        self, event: RealtimeModelSendEvent, send_if: Callable[[], bool]
    ) -> bool:
        """Send ``event`` only if ``send_if()`` holds; nothing awaits in between.

        As with the SDK's own double, a model that is not connected refuses the send
        before the condition is asked.
        """
        if not self._connected and self._drop is None:
            raise disconnected("send", event, closed=self._closed)
        if not send_if():
            return False
        await self._settle(self._commit(event))
        return True

    async def close(self) -> None:
        """End the connection; ``close_error`` is raised by every close that ends one.

        A broadcast that is running stops before its next listener, and events queued but
        not yet delivered are not delivered. Closing a model that is not connected only
        counts the call.
        """
        self._close_calls += 1
        if self._drop is not None:
            # The connection already ended when it dropped: nothing more to close.
            self._drop = None
            self._disconnect()
            return
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
            raise disconnected("emit", None, closed=self._closed, dropped=self._drop is not None)
        if self._extra_checks:
            copies = checked_events(events, "emit")
        else:
            copies = tuple(detach_model_event(event, wrap_errors=False) for event in events)
        await self._settle(self._deliveries.submit(copies, None, "emit()"))

    # -- inspection ----------------------------------------------------------------

    @property
    def _delivery_worker(self) -> asyncio.Task[None] | None:
        """The task delivering queued events to the listeners; ``None`` when idle.

        Awaiting it (also through ``asyncio.shield``) returns once the queue is drained.
        """
        return self._deliveries.worker

    @property
    def delivered_events(self) -> tuple[DeliveredEvent, ...]:
        """Every incoming event that went to the listeners, in order, with the event
        loop's time it went out (the virtual clock's, under it) and what put it there.

        Detached copies; a duplicated event appears twice, an event a closed or dropped
        connection never delivered not at all.
        """
        return tuple(delivered_record(entry) for entry in self._deliveries.history)

    @property
    def dropped(self) -> bool:
        """Whether the connection dropped (a scripted fault) and ``close()`` has not run
        since: sends raise the socket's ``ConnectionClosed`` error, ``connect()`` is
        refused until ``close()``."""
        return self._drop is not None

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

    async def _settle(self, group: DeliveryGroup | None) -> None:
        """Wait until ``group``'s events (if any) were delivered; raise the failure of its
        delivery, or of a delivery no caller waits for any more."""
        failure = None
        if group is not None:
            failure = group.error if group.done else await group.outcome()
        failure = failure or self._deliveries.take_orphaned()
        if failure is not None:
            raise failure

    def _disconnect(self) -> None:
        self._connected = self._deliveries.open = False
        self._closed = True
        self._deliveries.wake()

    def _dropped_now(self, code: int, reason: str) -> tuple[RealtimeModelEvent, ...]:
        """The connection drops: from now on sends fail; returns the drop's events."""
        self._connected = False
        self._drop = (code, reason)
        self._deliveries.dropped = True
        self._deliveries.wake()
        return drop_events(code, reason)

    def _commit(self, event: RealtimeModelSendEvent) -> DeliveryGroup | None:
        """Check, copy, match and record one send, then queue its step's delivery.

        Everything that can refuse the send runs before anything is recorded or
        consumed. Returns the delivery group to wait for, or ``None``.
        """
        if self._drop is not None:
            raise closed_error(*self._drop)
        if not self._connected:
            raise disconnected("send", event, closed=self._closed)
        failing = self._failing_send
        if failing is not None:
            # Fails before reaching the script, as a send on a broken socket does.
            self._failing_send = None
            error = failing.options["error"]
            if error is not None:
                raise error() if isinstance(error, type) else error
            self._deliveries.submit(self._dropped_now(1006, ""), None, "drop", background=True)
            raise closed_error(1006, "")
        snapshot = detach_send_event(event, wrap_errors=self._extra_checks)
        # Matchers see the private snapshot (predicates get a copy of it), never the
        # caller's object, so nothing they do can change what is recorded.
        try:
            held = self._take(snapshot)
        except _Unmatched:
            self._sent.append(snapshot)
            return None
        self._sent.append(snapshot)
        plan = held.plan
        if plan is None:
            return self._deliveries.submit(
                held.emit, held.step.error, type(event), send_index=len(self._sent) - 1
            )
        if plan.fail_next_send is not None:
            self._failing_send = plan.fail_next_send
        drop = plan.drop
        finale = (
            None
            if drop is None
            else functools.partial(self._dropped_now, drop.options["code"], drop.options["reason"])
        )
        return self._deliveries.submit(
            held.emit,
            None,
            type(event),
            waits=plan.waits if plan.delayed else None,
            finale=finale,
            send_index=len(self._sent) - 1,
        )

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
