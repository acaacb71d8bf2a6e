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

__all__ = ["delay_problem", "scripted_wait"]


def delay_problem(value: object) -> str | None:
    """Why ``value`` cannot be a scripted delay in seconds, as a sentence, or ``None``.

    The rule is :func:`seconds_problem`'s (an ``int`` or ``float``, not a ``bool``, finite
    and not negative), for boundaries whose errors carry a sentence.
    """
    from .._faults.schedule import seconds_problem

    problem = seconds_problem(value)
    return None if problem is None else f"a delay is {problem.expected}, got {problem.got}"


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
