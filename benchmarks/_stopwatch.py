"""Time spent inside one model's methods, shared by the model benchmarks.

A high-resolution wall clock: the model never waits on I/O, so inside its methods wall
time is its CPU time, and reading the clock costs well under a tenth of a microsecond.
A CPU-time clock (``time.thread_time``) costs close to a microsecond per reading on a
virtual machine, two readings per stream event, which charged the instrument's own cost
to the model: several milliseconds over a long streamed run, the same for every model,
so it flattened the ratios between them. The benchmarks take the fastest of several
rounds, which leaves out the rare moment another process had the core.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from typing import Any

__all__ = ["Stopwatch"]

_cpu = time.perf_counter


class Stopwatch:
    """Accumulates the CPU time spent inside one model's ``get_response`` / ``stream_response``."""

    def __init__(self, model: Any) -> None:
        self.seconds = 0.0
        get_response = model.get_response
        stream_response = model.stream_response
        watch = self

        async def timed_get_response(*args: Any, **kwargs: Any) -> Any:
            start = _cpu()
            try:
                return await get_response(*args, **kwargs)
            finally:
                watch.seconds += _cpu() - start

        def timed_stream_response(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
            start = _cpu()
            iterator = stream_response(*args, **kwargs).__aiter__()
            watch.seconds += _cpu() - start
            return _TimedIterator(iterator, watch)

        # Instance attributes shadow the methods the runner looks up.
        model.get_response = timed_get_response
        model.stream_response = timed_stream_response


class _TimedIterator:
    def __init__(self, inner: Any, watch: Stopwatch) -> None:
        self._inner = inner
        self._watch = watch

    def __aiter__(self) -> _TimedIterator:
        return self

    async def __anext__(self) -> Any:
        start = _cpu()
        try:
            return await self._inner.__anext__()
        finally:
            self._watch.seconds += _cpu() - start

    async def aclose(self) -> None:
        close: Callable[[], Any] | None = getattr(self._inner, "aclose", None)
        if close is not None:
            await close()
