"""Scripted waits: how a double waits before it answers, on the event loop's own clock.

Every boundary that scripts a delay (a reply that comes late, a stream that stalls)
waits the same way: on a timer of the running loop, so that under a
:class:`VirtualClock` the wait passes at once and the loop's time moves by exactly the
scripted seconds. The wait is not one of the code under test's own sleeps: the clock
lists it in ``waits`` as ``ClockWait("scripted", at, seconds)``, never in ``sleeps``,
so a test of the SDK's back-off sees only the SDK's sleeps.
"""

from __future__ import annotations

import asyncio
import math

__all__ = ["delay_problem", "scripted_wait"]


def delay_problem(value: object) -> str | None:
    """Why ``value`` cannot be a scripted delay in seconds, or ``None`` when it can.

    A delay is an ``int`` or ``float`` (not a ``bool``), finite and not negative.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"a delay is a number of seconds, got {type(value).__name__}"
    if math.isnan(value) or math.isinf(value):
        return f"a delay is a finite number of seconds, got {value!r}"
    if value < 0:
        return f"a delay cannot be negative, got {value!r} seconds"
    return None


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def scripted_wait(seconds: float) -> asyncio.Future[None]:
    """A future of the running loop that resolves ``seconds`` from now, on its clock.

    Await it to wait before answering. Cancelling it, or resolving it early
    (``set_result(None)``, to wake the double when its connection is closed), drops the
    timer. Under a virtual clock it passes at once and is recorded as a ``"scripted"``
    wait. ``seconds`` must pass :func:`delay_problem`; 0 resolves on the loop's next pass.
    """
    from .virtual import note_scripted_wait

    loop = asyncio.get_running_loop()
    future: asyncio.Future[None] = loop.create_future()
    note_scripted_wait(seconds)
    handle = loop.call_later(seconds, _resolve, future)
    future.add_done_callback(lambda _done: handle.cancel())
    return future


# Public names show agents_testing.core, however this module was first imported.
from ..lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
