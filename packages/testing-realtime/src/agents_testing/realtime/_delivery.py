"""The delivery queue: incoming events reach the listeners one delivery after another.

A *delivery* is what one call hands the listeners: a matched step's events (or its
scripted error), the events of one ``emit()`` or of one ``connect()``. Deliveries run in
one FIFO, in the order their calls were committed, on a worker task of their own, so a
caller that is cancelled never cuts a broadcast short. The worker starts eagerly: a
delivery whose listeners do not wait on anything is done before its call returns. A
call made by a listener while a delivery is running (from the worker task itself)
cannot wait for the queue it is part of: its delivery joins the running one's *group*,
and the outer call waits for the whole group and raises its first error.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from agents.realtime.model import RealtimeModelListener

from ._eager import start_eagerly
from ._errors import closed_before_delivery

__all__ = ["DeliveryGroup", "DeliveryQueue"]


class DeliveryGroup:
    """What one outer call waits for: its delivery and every one queued from inside it.

    ``done`` once the last of them is over; ``error`` is the first error among them.
    """

    __slots__ = ("_future", "done", "error", "pending")

    def __init__(self) -> None:
        self.pending = 1
        self.done = False
        self.error: BaseException | None = None
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


class _Delivery:
    __slots__ = ("error", "events", "group", "source")

    def __init__(
        self,
        events: tuple[Any, ...],
        error: BaseException | type[BaseException] | None,
        group: DeliveryGroup,
        source: str | type,
    ) -> None:
        self.events = events
        self.error = error
        self.group = group
        # The call that queued it, for the error of a delivery that could not start.
        self.source = source


class DeliveryQueue:
    """The model's one FIFO of deliveries and the worker task that runs it.

    ``open`` is whether the model is connected: while it is false, a running broadcast
    stops before its next listener and a delivery whose turn comes fails. ``worker`` is
    ``None`` whenever nothing is queued or running.
    """

    __slots__ = ("_current", "_listeners", "_queue", "open", "worker")

    def __init__(self, listeners: list[RealtimeModelListener]) -> None:
        self._listeners = listeners
        self._queue: deque[_Delivery] = deque()
        self._current: _Delivery | None = None
        self.open = False
        self.worker: asyncio.Task[None] | None = None

    def submit(
        self,
        events: tuple[Any, ...],
        error: BaseException | type[BaseException] | None,
        source: str | type,
    ) -> DeliveryGroup | None:
        """Queue one delivery; return the group its caller must wait for.

        ``source`` names the call: the class of the sent event, ``"emit()"`` or
        ``"connect()"``.

        ``None`` means there is nothing to wait for: either the delivery was queued by a
        listener (it joins the running delivery's group, whose caller waits for it) or
        it has nothing to deliver and nothing is queued ahead of it.
        """
        worker = self.worker
        if worker is not None and asyncio.current_task() is worker:
            current = self._current
            assert current is not None  # listeners only run inside a delivery
            current.group.pending += 1
            self._queue.append(_Delivery(events, error, current.group, source))
            return None
        if worker is None and not events and error is None:
            return None
        group = DeliveryGroup()
        self._queue.append(_Delivery(events, error, group, source))
        if worker is None:
            # Most deliveries are done within the worker's first step, before this
            # returns; a worker that has to wait goes on as a task of its own.
            task = start_eagerly(asyncio.get_running_loop(), self._run())
            if task is not None:
                self.worker = task
        return group

    async def _run(self) -> None:
        queue = self._queue
        # The task running this step: a listener's own calls are told apart by it. (Before
        # Python 3.12 the first step runs as part of the caller's task, see _eager.)
        self.worker = asyncio.current_task()
        try:
            while queue:
                delivery = self._current = queue.popleft()
                delivery.group.finish(await self._broadcast(delivery))
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
        if not self.open:
            source = delivery.source
            what = source if isinstance(source, str) else f"a {source.__name__} send"
            return closed_before_delivery(what)
        listeners = self._listeners
        for event in delivery.events:
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
