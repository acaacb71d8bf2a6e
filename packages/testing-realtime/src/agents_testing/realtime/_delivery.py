"""The delivery queue: incoming events reach the listeners one delivery after another.

A *delivery* is what one call hands the listeners: a matched step's events (or its
scripted error), the events of one ``emit()`` or of one ``connect()``. Deliveries run in
one FIFO, in the order their calls were committed, on a worker task of their own, so a
caller that is cancelled never cuts a broadcast short. The worker starts eagerly: a
delivery whose listeners do not wait on anything is done before its call returns. A
call made by a listener while a delivery is running (from the worker task itself)
cannot wait for the queue it is part of: its delivery joins the running one's *group*,
and the outer call waits for the whole group and raises its first error.

Scripted faults (``_faults``) add three things. A delivery may wait on the loop's clock
before an event: its caller stops waiting there (a real send returns once it is sent)
and the rest goes on in the background, whose errors go to the next caller. A delivery
may end with a *finale*, the connection dropping: from then on the queue is
``dropped`` and discards what is queued, as a server that is gone sends nothing more.
Every event that goes out is recorded with the loop's time, in ``history``.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import Any

from agents.realtime.model import RealtimeModelListener

from agents_testing.core import scripted_wait

from ._eager import start_eagerly
from ._errors import closed_before_delivery
from ._events.detach import detach_model_event, own_deepcopy

__all__ = ["DeliveryGroup", "DeliveryQueue"]


class DeliveryGroup:
    """What one outer call waits for: its delivery and every one queued from inside it.

    ``done`` once the last of them is over; ``error`` is the first error among them.
    """

    __slots__ = ("_future", "background", "done", "error", "pending")

    def __init__(self, *, background: bool = False) -> None:
        self.pending = 1
        self.done = False
        self.error: BaseException | None = None
        # Nobody waits for a background group: what comes after a scripted delay.
        self.background = background
        # Made only when the caller has to wait: most deliveries are over before that.
        self._future: asyncio.Future[None] | None = None

    async def outcome(self) -> BaseException | None:
        """Wait until every delivery of the group is done; return its first error."""
        if not self.done:
            self._future = asyncio.get_running_loop().create_future()
            await self._future
        return self.error

    def finish(self, error: BaseException | None) -> None:
        """Count one delivery of the group done, with its error if it had one."""
        if error is not None and self.error is None:
            self.error = error
        self.pending -= 1
        if not self.pending:
            self.done = True
            future = self._future
            # A cancelled caller cancelled its future: the delivery went on regardless,
            # and its outcome has nobody to go to.
            if future is not None and not future.done():
                future.set_result(None)


Finale = Callable[[], tuple[Any, ...]]
"""Run after a delivery's events: the connection drops; returns the drop's own events."""


class _Delivery:
    __slots__ = ("error", "events", "finale", "force", "group", "send_index", "source", "waits")

    def __init__(
        self,
        events: tuple[Any, ...],
        error: BaseException | type[BaseException] | None,
        group: DeliveryGroup,
        source: str | type,
        waits: tuple[float, ...] | None = None,
        finale: Finale | None = None,
        send_index: int | None = None,
        force: bool = False,
    ) -> None:
        self.events = events
        self.error = error
        self.group = group
        # The call that queued it, for the error of a delivery that could not start.
        self.source = source
        # Seconds to wait before each event (the finale counted last), or None.
        self.waits = waits
        self.finale = finale
        self.send_index = send_index
        # Delivered although the connection dropped: the drop's own events.
        self.force = force


def _kept(event: Any) -> Any:
    """What the history keeps of a delivered event: a copy, as listeners may change theirs.

    An event class with its own ``__deepcopy__`` is kept as delivered: how often that hook
    runs is part of what the double promises (once when scripted or emitted, once per
    connect), so recording must not run it again. So is an event whose copy fails now.
    """
    if own_deepcopy(type(event)):
        return event
    try:
        return detach_model_event(event, wrap_errors=False)
    except Exception:
        return event


def _origin(source: str | type) -> str:
    if source == "connect()":
        return "connect"
    if source == "emit()":
        return "emit"
    if source == "drop":
        return "drop"
    return "send"


class DeliveryQueue:
    """The model's one FIFO of deliveries and the worker task that runs it.

    ``open`` is whether the model is connected: while it is false, a running broadcast
    stops before its next listener and a delivery whose turn comes fails. ``dropped`` is
    whether the connection dropped (a scripted fault): what is queued is discarded
    without error. ``worker`` is ``None`` whenever nothing is queued or running.
    ``history`` holds ``(loop time, event, origin, send index)`` of every event that
    went out; ``orphaned`` the first error of a background part nobody has raised yet.
    """

    __slots__ = (
        "_current",
        "_listeners",
        "_pause",
        "_queue",
        "dropped",
        "history",
        "open",
        "orphaned",
        "worker",
    )

    def __init__(self, listeners: list[RealtimeModelListener]) -> None:
        self._listeners = listeners
        self._queue: deque[_Delivery] = deque()
        self._current: _Delivery | None = None
        self._pause: asyncio.Future[None] | None = None
        self.open = False
        self.dropped = False
        self.history: list[tuple[float, Any, str, int | None]] = []
        self.orphaned: BaseException | None = None
        self.worker: asyncio.Task[None] | None = None

    def submit(
        self,
        events: tuple[Any, ...],
        error: BaseException | type[BaseException] | None,
        source: str | type,
        *,
        waits: tuple[float, ...] | None = None,
        finale: Finale | None = None,
        send_index: int | None = None,
        background: bool = False,
    ) -> DeliveryGroup | None:
        """Queue one delivery; return the group its caller must wait for.

        ``source`` names the call: the class of the sent event, ``"emit()"``,
        ``"connect()"`` or ``"drop"`` (the events of a connection that drops, delivered
        in the background: ``background=True``, nobody waits). ``waits`` and
        ``finale`` come from the step's faults; ``send_index`` is the position of the
        send in ``sent_events``.

        ``None`` means there is nothing to wait for: either the delivery was queued by a
        listener (it joins the running delivery's group, whose caller waits for it) or
        it has nothing to deliver and nothing is queued ahead of it.
        """
        worker = self.worker
        force = source == "drop"
        if worker is not None and asyncio.current_task() is worker and not background:
            current = self._current
            assert current is not None  # listeners only run inside a delivery
            current.group.pending += 1
            self._queue.append(
                _Delivery(events, error, current.group, source, waits, finale, send_index, force)
            )
            return None
        if worker is None and not events and error is None and finale is None:
            return None
        group = DeliveryGroup(background=background)
        self._queue.append(
            _Delivery(events, error, group, source, waits, finale, send_index, force)
        )
        if worker is None:
            # Most deliveries are done within the worker's first step, before this
            # returns; a worker that has to wait goes on as a task of its own.
            task = start_eagerly(asyncio.get_running_loop(), self._run())
            if task is not None:
                self.worker = task
        return None if background else group

    def wake(self) -> None:
        """End a scripted wait now: the connection closed or dropped meanwhile."""
        pause = self._pause
        if pause is not None and not pause.done():
            pause.set_result(None)

    def take_orphaned(self) -> BaseException | None:
        """The first error of a background part that no caller has raised yet; forget it."""
        error, self.orphaned = self.orphaned, None
        return error

    async def _run(self) -> None:
        queue = self._queue
        # The task running this step: a listener's own calls are told apart by it. (Before
        # Python 3.12 the first step runs as part of the caller's task, see _eager.)
        self.worker = asyncio.current_task()
        try:
            while queue:
                delivery = self._current = queue.popleft()
                error = await self._broadcast(delivery)
                # Read again: a scripted delay hands the rest of the delivery to a
                # background group.
                group = delivery.group
                group.finish(error)
                if group.background and error is not None and self.orphaned is None:
                    self.orphaned = error
        except BaseException as stopped:
            # The worker itself was cancelled (the event loop is shutting down) or a
            # listener raised KeyboardInterrupt or SystemExit, which end the loop: every
            # caller still waiting is told rather than left waiting forever.
            told = (
                asyncio.CancelledError() if isinstance(stopped, asyncio.CancelledError) else stopped
            )
            if self._current is not None:
                self._current.group.finish(told)
            while queue:
                queue.popleft().group.finish(told)
            raise
        finally:
            self._current = None
            self.worker = None

    async def _broadcast(self, delivery: _Delivery) -> BaseException | None:
        """Hand the delivery's events to every listener; return its error, if any."""
        error = delivery.error
        if error is not None:
            if isinstance(error, type):
                try:
                    return error()
                except Exception as failure:  # a class that needs arguments
                    return failure
            return error
        if self.dropped and not delivery.force:
            return None  # the server is gone: what it would have sent never comes
        if not self.open:
            source = delivery.source
            what = source if isinstance(source, str) else f"a {source.__name__} send"
            return closed_before_delivery(what)
        events, waits, finale = delivery.events, delivery.waits, delivery.finale
        if waits is None and finale is None:
            return await self._send(delivery, events, _origin(delivery.source))
        for position in range(len(events) + (finale is not None)):
            if waits is not None and waits[position] > 0:
                self._release_caller(delivery)
                self._pause = scripted_wait(waits[position])
                try:
                    await self._pause
                finally:
                    self._pause = None
                if not self.open or (self.dropped and not delivery.force):
                    return None  # closed or dropped meanwhile: the rest never comes
            if position < len(events):
                batch, origin = (events[position],), _origin(delivery.source)
            else:
                assert finale is not None
                delivery.force = True
                batch, origin = finale(), "drop"
            error = await self._send(delivery, batch, origin)
            if error is not None or not self.open:
                return error
        return None

    def _release_caller(self, delivery: _Delivery) -> None:
        """Let the caller go before a scripted wait; the rest goes on in the background."""
        if delivery.group.background:
            return
        released = delivery.group
        delivery.group = DeliveryGroup(background=True)
        released.finish(None)

    async def _send(
        self, delivery: _Delivery, events: tuple[Any, ...], origin: str
    ) -> BaseException | None:
        """Hand ``events`` to every listener, recording each; return the error, if any."""
        listeners = self._listeners
        loop = asyncio.get_running_loop()
        for event in events:
            if not self.open or (self.dropped and not delivery.force):
                return None
            self.history.append((loop.time(), _kept(event), origin, delivery.send_index))
            # Re-read for every event: a listener may add or remove listeners.
            for listener in tuple(listeners):
                if not self.open:
                    return None  # closed meanwhile: the broadcast stops, without error
                try:
                    await listener.on_event(event)
                except asyncio.CancelledError as failure:
                    task = asyncio.current_task()
                    cancelling = getattr(task, "cancelling", None)
                    if cancelling is None or cancelling():
                        raise  # the worker itself is being cancelled
                    return failure  # a listener raised it on its own
                except (KeyboardInterrupt, SystemExit):
                    raise  # they stop the program, not just this delivery
                except BaseException as failure:
                    # Any other exception, a BaseException subclass included, is the
                    # delivery's error: its caller raises it.
                    return failure
        return None
