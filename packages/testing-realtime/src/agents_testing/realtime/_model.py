"""``ScriptedRealtimeModel``: a ``RealtimeModel`` driven by a strict script of sends."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from agents.realtime.model import RealtimeModel, RealtimeModelConfig, RealtimeModelListener
from agents.realtime.model_events import RealtimeModelEvent
from agents.realtime.model_inputs import RealtimeModelSendEvent

from agents_testing.core import AnyOrder, GroupEntry, StepScript, build_group, member_problem

from ._connect import RealtimeConnectCall, detached_call, record_connect
from ._errors import (
    InvalidRealtimeStep,
    RealtimeScriptError,
    UnconsumedRealtimeSteps,
    UnexpectedRealtimeSend,
)
from ._events.detach import detach_model_event, detach_send_event, record_copy
from ._step import RealtimeStep, validate_error, validate_events

__all__ = ["ScriptedRealtimeModel"]


def _validated_steps(
    steps: Iterable[RealtimeStep | AnyOrder[RealtimeStep]],
) -> list[RealtimeStep | GroupEntry[RealtimeStep]]:
    if isinstance(steps, (str, bytes, Mapping, RealtimeStep, AnyOrder)) or not isinstance(
        steps, Iterable
    ):
        raise InvalidRealtimeStep(
            "invalid_input",
            0,
            "steps",
            f"expected a sequence of RealtimeStep objects, got {type(steps).__name__}",
        )
    checked: list[RealtimeStep | GroupEntry[RealtimeStep]] = []
    for index, step in enumerate(list(steps)):
        if isinstance(step, AnyOrder):
            entry = build_group(step, functools.partial(_member, index))
            if isinstance(entry, str):
                raise InvalidRealtimeStep("invalid_group", index, "steps", entry)
            checked.append(entry)
        elif isinstance(step, RealtimeStep):
            checked.append(step)
        else:
            raise InvalidRealtimeStep(
                "invalid_input",
                index,
                "steps",
                f"item {index + 1} is a {type(step).__name__}; wrap each expected send "
                "in RealtimeStep(expect=..., emit=...)",
            )
    return checked


def _member(index: int, position: int, member: object) -> RealtimeStep:
    if not isinstance(member, RealtimeStep):
        raise InvalidRealtimeStep(
            "invalid_input",
            index,
            "steps",
            member_problem(
                position,
                f"a {type(member).__name__}; wrap each expected send in "
                "RealtimeStep(expect=..., emit=...)",
            ),
        )
    return member


class ScriptedRealtimeModel(RealtimeModel):
    """An in-memory ``RealtimeModel`` that matches sends against scripted steps.

    Each send consumes the next :class:`RealtimeStep` when it matches, then the step's
    events go to the listeners (or its error is raised). At an ``any_order(...)`` group,
    a send consumes the first pending member that expects it. ``connect_events`` are emitted
    by every successful ``connect()``, as a server greets every new connection, so a
    closed model can be connected again by another session; ``connect_error`` fails
    the first connect and ``close_error`` the first close (the connection still ends).
    With ``strict=False``
    sends that do not match are recorded and leave the step pending. Apart from the
    constructor, :meth:`emit` and :meth:`assert_complete`, all methods are the
    ``RealtimeModel`` interface and read-only inspection properties.
    """

    def __init__(
        self,
        steps: Iterable[RealtimeStep | AnyOrder[RealtimeStep]] = (),
        *,
        connect_events: Iterable[RealtimeModelEvent] = (),
        connect_error: BaseException | type[BaseException] | None = None,
        close_error: BaseException | type[BaseException] | None = None,
        strict: bool = True,
    ) -> None:
        if type(strict) is not bool:
            raise InvalidRealtimeStep(
                "invalid_argument",
                0,
                "strict",
                f"strict must be a bool (True or False), got {type(strict).__name__}",
            )
        validate_error(connect_error, "connect_error")
        validate_error(close_error, "close_error")
        self._script: StepScript[RealtimeStep] = StepScript(_validated_steps(steps))
        self._connect_events = validate_events(connect_events, "connect_events")
        self._connect_error = connect_error
        self._close_error = close_error
        self._strict = strict
        self._listeners: list[RealtimeModelListener] = []
        self._connect_calls: list[RealtimeConnectCall] = []
        self._sent: list[RealtimeModelSendEvent] = []
        self._connected = False
        self._closed = False
        self._close_calls = 0

    # -- RealtimeModel interface -------------------------------------------------

    async def connect(self, options: RealtimeModelConfig) -> None:
        """Record the (credential-free) options, then connect or raise ``connect_error``."""
        if self._connected:
            raise RealtimeScriptError(
                "connect() was called while the model is already connected; close it "
                "first or use a new ScriptedRealtimeModel for another session"
            )
        self._connect_calls.append(record_connect(options))
        error = self._connect_error
        if error is not None:
            self._connect_error = None
            raise error
        self._connected = True
        self._closed = False
        try:
            for event in self._connect_events:
                await self._deliver(detach_model_event(event))
        except BaseException:
            # connect() failed as far as the caller can tell: nobody will close it.
            self._connected = False
            raise

    def add_listener(self, listener: RealtimeModelListener) -> None:
        """Register ``listener`` for incoming events (once, like the SDK's own models)."""
        if listener not in self._listeners:
            self._listeners.append(listener)

    def remove_listener(self, listener: RealtimeModelListener) -> None:
        """Unregister ``listener``; unknown listeners are ignored."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    async def send_event(self, event: RealtimeModelSendEvent) -> None:
        """Record ``event`` and play the step it matches."""
        if not self._connected:
            raise self._disconnected(event)
        await self._send(event)

    async def send_event_if(
        self, event: RealtimeModelSendEvent, send_if: Callable[[], bool]
    ) -> bool:
        """Send ``event`` only if ``send_if()`` holds; nothing awaits in between.

        The condition is checked first: a send it withholds is no send at all, so it
        cannot fail for being made while disconnected.
        """
        if not send_if():
            return False
        if not self._connected:
            raise self._disconnected(event)
        await self._send(event)
        return True

    async def close(self) -> None:
        """End the connection; the first close raises ``close_error`` when one is set."""
        self._close_calls += 1
        self._connected = False
        self._closed = True
        error = self._close_error
        if error is not None:
            self._close_error = None
            raise error

    # -- test-facing extras ------------------------------------------------------

    async def emit(self, *events: RealtimeModelEvent) -> None:
        """Push copies of incoming events from the test to every listener, in order.

        Every event is checked (and copied) before the first one is delivered.
        """
        checked = validate_events(events, "emit")
        if not self._connected:
            raise RealtimeScriptError(
                "emit() was called while the model is not connected; emit inside the "
                "RealtimeSession context (or use connect_events while connecting)"
            )
        for event in checked:
            await self._deliver(event)

    def assert_complete(self) -> None:
        """Raise :class:`UnconsumedRealtimeSteps` when scripted steps were never matched."""
        self._script.assert_complete(UnconsumedRealtimeSteps)

    # -- inspection ----------------------------------------------------------------

    @property
    def connect_calls(self) -> tuple[RealtimeConnectCall, ...]:
        """Credential-free, detached records of every ``connect()`` call, in order."""
        return tuple(detached_call(call) for call in self._connect_calls)

    @property
    def sent_events(self) -> tuple[RealtimeModelSendEvent, ...]:
        """Detached copies of every event sent while connected, in call order.

        Sends that matched no step (strict or not) are included.
        """
        return tuple(detach_send_event(event) for event in self._sent)

    def __agents_testing_snapshot__(self) -> object:
        """What ``to_snapshot`` records of the model: the events sent to it, as ``sent_events``."""
        return self.sent_events

    @property
    def remaining_steps(self) -> int:
        """How many scripted steps are not yet matched."""
        return len(self._script)

    @property
    def pending_steps(self) -> tuple[RealtimeStep, ...]:
        """The steps not yet matched, in script order.

        These are the ``RealtimeStep`` objects the test scripted; a step is immutable.
        """
        return self._script.pending()

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
        """Whether ``close()`` ended the latest connection (False again after reconnecting)."""
        return self._closed

    @property
    def close_calls(self) -> int:
        """How many times ``close()`` was called."""
        return self._close_calls

    # -- internals -----------------------------------------------------------------

    async def _send(self, event: RealtimeModelSendEvent) -> None:
        send_index = len(self._sent)
        snapshot = record_copy(detach_send_event, event, type(event).__name__)
        self._sent.append(snapshot)
        # Matchers see the private snapshot (predicates get a copy of it), never the
        # caller's object, so nothing they do can change what was recorded.
        step = self._script.take(lambda candidate: candidate.matches(snapshot))
        if step is None:
            if self._strict:
                pending = self._script.peek()
                group = self._script.candidates() if self._script.in_group() else ()
                raise UnexpectedRealtimeSend(
                    detach_send_event(snapshot),
                    None if pending is None else pending.expect,
                    send_index=send_index,
                    step_index=None if pending is None else self._script.consumed,
                    group_expects=tuple(member.expect for member in group),
                )
            return
        if step.error is not None:
            raise step.error
        for incoming in step.emit:  # fresh copies, one per emission
            await self._deliver(incoming)

    async def _deliver(self, event: RealtimeModelEvent) -> None:
        # Iterate over a copy: a listener may unregister itself (a session closing).
        for listener in tuple(self._listeners):
            await listener.on_event(event)

    def _disconnected(self, event: Any) -> RealtimeScriptError:
        state = "after close()" if self._closed else "before connect()"
        return RealtimeScriptError(
            f"{type(event).__name__} was sent {state}; the model is not connected. Send "
            "inside the RealtimeSession context (async with await runner.run() as session)."
        )
