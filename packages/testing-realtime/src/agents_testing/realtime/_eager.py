"""Tasks whose first step runs at once: a delivery that needs no waiting costs no loop turn.

A delivery runs on a task of its own, so that cancelling its caller cannot cut it short.
Scheduled the ordinary way, that task would first run on the next turn of the event loop
and its caller would wake up on the turn after, while most deliveries (a listener putting
an event on a queue) never wait on anything. :func:`start_eagerly` runs the first step at
once and leaves only the rest, if any, to a task: Python 3.12's eager tasks. Earlier
releases get the same timing: the first step runs in a context of its own (but as part of
the calling task, so nothing can cancel it half-way, as it never waits) and a task is
created only when it does wait.
"""

from __future__ import annotations

import asyncio
import contextvars
import sys
import types
from collections.abc import Coroutine, Generator
from typing import Any

__all__ = ["start_eagerly"]


def start_eagerly(
    loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, None]
) -> asyncio.Task[None] | None:
    """Run ``coro``'s first step now; return the task running the rest (``None``: done).

    From the first time ``coro`` waits on, it runs in that task, which is then
    ``asyncio.current_task()`` inside it (on Python 3.12 and later from the start).
    """
    if sys.version_info >= (3, 12):
        task = asyncio.Task(coro, loop=loop, eager_start=True)
        return None if task.done() else task
    return _Stepper(coro).start(loop)


class _Stepper:
    """Steps ``coro`` as a task would: the first step now, the others from a task.

    The task's own coroutine, :meth:`_rest`, waits for whatever ``coro`` waits on and
    resumes it; ``coro`` always runs in one context of its own, as a task's coroutine does.
    """

    __slots__ = ("_context", "_coro", "_error", "_finished", "_yielded")

    def __init__(self, coro: Coroutine[Any, Any, None]) -> None:
        self._coro = coro
        self._context = contextvars.copy_context()
        self._yielded: Any = None
        self._finished = False
        self._error: BaseException | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> asyncio.Task[None] | None:
        self._resume(None)
        if not self._finished:
            return loop.create_task(self._rest())
        if self._error is not None:
            raise self._error
        return None

    def _resume(self, error: BaseException | None) -> None:
        try:
            if error is None:
                self._yielded = self._context.run(self._coro.send, None)
            else:
                self._yielded = self._context.run(self._coro.throw, error)
        except StopIteration:
            self._finished = True
        except BaseException as failure:
            self._finished = True
            self._error = failure

    async def _rest(self) -> None:
        while not self._finished:
            yielded, self._yielded = self._yielded, None
            thrown: BaseException | None = None
            if yielded is None:
                await _bare_yield()
            elif asyncio.isfuture(yielded):
                # As a task does with what its coroutine yields: the flag says "a task
                # waits on this future now", and that task is this one.
                yielded._asyncio_future_blocking = False
                try:
                    await yielded
                except asyncio.CancelledError as error:
                    # This task was cancelled, not the future it waited on: pass it on.
                    if not yielded.cancelled():
                        thrown = error
                except BaseException:
                    pass  # ``coro`` reads the future's outcome itself when resumed
            else:
                thrown = RuntimeError(f"Task got bad yield: {type(yielded).__name__}")
            self._resume(thrown)
        if self._error is not None:
            raise self._error


@types.coroutine
def _bare_yield() -> Generator[None, None, None]:
    """Give the loop one turn, as ``await asyncio.sleep(0)`` does inside a task."""
    yield
