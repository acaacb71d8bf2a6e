"""A virtual clock for asyncio: sleeps, timeouts and the loop's time pass at once.

While a :class:`VirtualClock` is on, the event loop it adopts (the first asyncio loop
that runs in the thread that turned the clock on) keeps its own time: ``loop.time()``
starts at 0 and moves only when the loop has nothing to do but wait for a timer. Then
the clock jumps to that timer instead of waiting, so ``asyncio.sleep(30)``, an
``asyncio.wait_for`` timeout or the SDK's retry back-off cost no wall time, and the
loop's time after them is exactly what the waits add up to. Real I/O and threads still
take their real time: while the loop's executor runs a job (or the loop waits for its
threads to end), or a socket or pipe has something to deliver, the clock does not jump.

Why our own and not ``looptime``: looptime needs Python 3.11 from 0.8 on (we support
3.10), installs three pytest plugins into every test run of the project (an option and
two fixture names of its own), needs the loop's class patched when the loop is made, and
records no waits. What this clock touches is small and documented: the loop's ``time``,
its selector's ``select``, its scheduled timers (shifted onto the virtual clock and back),
and ``asyncio.sleep``, ``asyncio.wait`` and ``asyncio.wait_for`` (to record the waits).
Wall-clock reads (``time.time()``, ``time.monotonic()``, ``datetime.now()``) stay real.
"""

from __future__ import annotations

import asyncio
import asyncio.base_events
import threading
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Literal, TypeVar

__all__ = [
    "ClockWait",
    "VirtualClock",
    "VirtualClockError",
    "note_scripted_wait",
    "virtual_clock",
]

T = TypeVar("T")

_BaseEventLoop = asyncio.base_events.BaseEventLoop

# While executor jobs run, the loop polls for them in slices this long (real seconds).
_EXECUTOR_POLL = 0.05


class VirtualClockError(RuntimeError):
    """The virtual clock was used in a way it cannot serve (say, two clocks at once)."""


@dataclass(frozen=True)
class ClockWait:
    """One timed wait begun while the clock was on: a sleep, a timeout or a scripted delay.

    ``kind`` is ``"sleep"`` for ``asyncio.sleep(seconds)``, ``"timeout"`` for the
    timeout of ``asyncio.wait_for`` or ``asyncio.wait`` and ``"scripted"`` for a delay a
    double was scripted with (a reply that comes late, a stream that stalls); ``at`` is
    the clock's time when the wait began and ``seconds`` how long it was asked to last.
    """

    kind: Literal["sleep", "timeout", "scripted"]
    at: float
    seconds: float


# The clock that is on, if any: one at a time, since what it patches is process-wide.
_ACTIVE: VirtualClock | None = None
_LOCK = threading.Lock()


class VirtualClock:
    """Virtual time for one asyncio event loop; a context manager, also the pytest fixture.

    ``now`` is the loop's time on this clock (seconds since the loop was adopted),
    ``waits`` every :class:`ClockWait` begun meanwhile (the doubles' scripted delays
    included, as ``"scripted"``), ``sleeps`` the seconds of each
    sleep (``[1.0, 2.0, 4.0]`` for three retries with exponential back-off). Turn it on
    with ``with virtual_clock() as clock:`` inside a coroutine (the running loop is
    adopted at once) or around ``asyncio.run(...)`` (the loop is adopted when it first
    reads its time). ``advance(seconds)`` moves the time on by hand.
    """

    def __init__(self) -> None:
        self._thread: int | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._now = 0.0
        self._waits: list[ClockWait] = []
        self._executor_jobs = 0
        self._saved: list[tuple[object, str, object]] = []
        self._selector: Any = None
        self._real_select: Callable[..., Any] | None = None
        self._on = False

    # -- inspection -------------------------------------------------------------------

    @property
    def now(self) -> float:
        """The adopted loop's time on this clock; 0 until a loop is adopted."""
        return self._now

    @property
    def waits(self) -> list[ClockWait]:
        """Every sleep, timeout and scripted delay begun while the clock was on, in order."""
        return list(self._waits)

    @property
    def sleeps(self) -> list[float]:
        """The seconds of each ``asyncio.sleep`` begun while the clock was on, in order."""
        return [wait.seconds for wait in self._waits if wait.kind == "sleep"]

    @property
    def delays(self) -> list[float]:
        """The seconds of each scripted delay of a double (a late reply, a stalled stream,
        a slow model answer) begun while the clock was on, in order."""
        return [wait.seconds for wait in self._waits if wait.kind == "scripted"]

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None:
        """The event loop this clock keeps the time of, once adopted."""
        return self._loop

    def advance(self, seconds: float) -> None:
        """Move the time on by ``seconds``; timers due by then run on the loop's next pass."""
        if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or seconds < 0:
            raise VirtualClockError(
                f"advance() takes a number of seconds >= 0, got {seconds!r}; the clock only "
                "moves forward."
            )
        self._now += float(seconds)

    # -- turning it on and off --------------------------------------------------------

    def __enter__(self) -> VirtualClock:
        global _ACTIVE
        with _LOCK:
            if _ACTIVE is not None:
                raise VirtualClockError(
                    "A virtual clock is already on; use that one (the virtual_clock "
                    "fixture of the test, or the clock entered earlier)."
                )
            if self._on:
                raise VirtualClockError("This virtual clock is already on.")
            _ACTIVE = self
        self._on = True
        self._thread = threading.get_ident()
        self._patch()
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is not None:
            self._adopt(running)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        global _ACTIVE
        try:
            self._release()
        finally:
            while self._saved:
                owner, name, original = self._saved.pop()
                setattr(owner, name, original)
            self._on = False
            with _LOCK:
                _ACTIVE = None

    # -- internals --------------------------------------------------------------------

    def _patch(self) -> None:
        clock = self
        real_time = _BaseEventLoop.time
        real_run_in_executor = _BaseEventLoop.run_in_executor
        real_shutdown_executor = _BaseEventLoop.shutdown_default_executor
        real_sleep = asyncio.sleep
        real_wait_for = asyncio.wait_for
        real_wait = asyncio.wait

        def loop_time(loop: asyncio.AbstractEventLoop) -> float:
            if loop is clock._loop:
                return clock._now
            if clock._loop is None and clock._may_adopt(loop):
                clock._adopt(loop)
                return clock._now
            return real_time(loop)  # type: ignore[arg-type]

        def run_in_executor(loop: Any, executor: Any, func: Any, *args: Any) -> Any:
            future = real_run_in_executor(loop, executor, func, *args)
            if loop is clock._loop:
                clock._executor_jobs += 1
                future.add_done_callback(clock._executor_job_done)
            return future

        async def shutdown_default_executor(loop: Any, *args: Any, **kwargs: Any) -> None:
            # Joining the executor's threads is thread work too: from Python 3.12 the
            # loop waits for it with a timeout on its own time, which must not jump.
            counted = loop is clock._loop
            clock._executor_jobs += counted
            try:
                return await real_shutdown_executor(loop, *args, **kwargs)
            finally:
                clock._executor_jobs -= counted

        async def sleep(delay: float, result: Any = None) -> Any:
            clock._note("sleep", delay)
            return await real_sleep(delay, result)

        async def wait_for(fut: Awaitable[T], timeout: float | None) -> T:
            if timeout is not None:
                clock._note("timeout", timeout)
            return await real_wait_for(fut, timeout)

        async def wait(fs: Iterable[Any], *, timeout: float | None = None, **kwargs: Any) -> Any:
            if timeout is not None:
                clock._note("timeout", timeout)
            return await real_wait(fs, timeout=timeout, **kwargs)

        self._replace(_BaseEventLoop, "time", loop_time)
        self._replace(_BaseEventLoop, "run_in_executor", run_in_executor)
        self._replace(_BaseEventLoop, "shutdown_default_executor", shutdown_default_executor)
        for module in (asyncio, asyncio.tasks):
            self._replace(module, "sleep", sleep)
            self._replace(module, "wait_for", wait_for)
            self._replace(module, "wait", wait)

    def _replace(self, owner: object, name: str, value: object) -> None:
        self._saved.append((owner, name, getattr(owner, name)))
        setattr(owner, name, value)

    def _may_adopt(self, loop: asyncio.AbstractEventLoop) -> bool:
        return threading.get_ident() == self._thread and loop.is_running()

    def _adopt(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._loop is not None:
            return
        selector = getattr(loop, "_selector", None)
        scheduled = getattr(loop, "_scheduled", None)
        if not isinstance(loop, _BaseEventLoop) or selector is None or scheduled is None:
            raise VirtualClockError(
                f"The virtual clock keeps the time of asyncio's own event loops; this test "
                f"runs on {type(loop).__module__}.{type(loop).__qualname__}. Run it on "
                "asyncio's default loop (not uvloop) to use the clock."
            )
        real_now = time.monotonic()
        # Timers already set keep their distance from now, on the clock's time.
        for handle in scheduled:
            handle._when -= real_now
        self._loop = loop
        self._now = 0.0
        self._selector = selector
        self._real_select = selector.select
        selector.select = self._select

    def _release(self) -> None:
        loop, selector = self._loop, self._selector
        if loop is None or selector is None:
            return
        selector.select = self._real_select
        real_now = time.monotonic()
        # Timers still set keep their distance from the clock's now, on real time.
        for handle in getattr(loop, "_scheduled", ()):
            handle._when = real_now + (handle._when - self._now)
        self._loop = None
        self._selector = None

    def _select(self, timeout: float | None = None) -> Any:
        real_select = self._real_select
        assert real_select is not None
        if timeout is not None and timeout <= 0:
            return real_select(timeout)
        ready = real_select(0)
        if ready or timeout is None:
            # Something to deliver now, or nothing but I/O to wait for: real time.
            return ready or real_select(None)
        if self._executor_jobs:
            return real_select(min(timeout, _EXECUTOR_POLL))
        scheduled = getattr(self._loop, "_scheduled", ())
        if scheduled:
            # The earliest timer is due now: jump to it, to the exact time it was set for.
            self._now = max(self._now, scheduled[0]._when)
        return ready

    def _executor_job_done(self, _future: object) -> None:
        self._executor_jobs -= 1

    def _note(self, kind: Literal["sleep", "timeout", "scripted"], seconds: float) -> None:
        if not isinstance(seconds, (int, float)) or seconds <= 0:
            return
        if threading.get_ident() != self._thread:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if self._loop is None and self._may_adopt(loop):
            self._adopt(loop)
        if loop is self._loop:
            self._waits.append(ClockWait(kind, self._now, float(seconds)))


def note_scripted_wait(seconds: float) -> None:
    """Record a double's scripted delay on the clock that is on, if any (``"scripted"``)."""
    clock = _ACTIVE
    if clock is not None:
        clock._note("scripted", seconds)


def virtual_clock() -> VirtualClock:
    """A :class:`VirtualClock` to turn on with ``with``: sleeps and timeouts pass at once."""
    return VirtualClock()


# Public names show agents_testing.core, however this module was first imported.
from ..lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
