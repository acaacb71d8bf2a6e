"""The guard that stops real SDK models from reaching their providers during a test.

While installed, the request methods of every provider-backed model class (see
:func:`agents_testing.core.compat.provider_model_methods`) are replaced by stand-ins
that raise :class:`~agents_testing.core.ModelRequestBlocked` before any client, socket
or WebSocket is touched. Scripted doubles implement the SDK interfaces directly, so
they are never affected. The module does not import pytest; the plugin drives it.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import AsyncIterator, Callable
from types import TracebackType
from typing import Any

from ._errors import ModelRequestBlocked
from .compat import provider_model_methods

__all__ = ["RequestGuard"]


class RequestGuard:
    """Blocks real model requests for one test and remembers every attempt.

    Use it as a context manager around the test; leaving it puts the original methods
    back. ``attempts`` keeps each raised error, so a runner that swallowed one can still
    be failed afterwards.
    """

    def __init__(self, test: str) -> None:
        self.test = test
        self.attempts: list[ModelRequestBlocked] = []
        self._saved: list[tuple[type, str, object]] = []

    def __enter__(self) -> RequestGuard:
        for cls, methods in provider_model_methods():
            for name in methods:
                original = vars(cls)[name]
                self._saved.append((cls, name, original))
                setattr(cls, name, self._stand_in(name, original))
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        # Restore in reverse so that nested guards (pytester runs inside a guarded
        # test) unwind to exactly what was there before.
        while self._saved:
            cls, name, original = self._saved.pop()
            setattr(cls, name, original)

    def _block(self, model: object, operation: str) -> ModelRequestBlocked:
        error = ModelRequestBlocked(test=self.test, model=type(model).__name__, operation=operation)
        self.attempts.append(error)
        return error

    def _stand_in(self, operation: str, original: object) -> Callable[..., Any]:
        """A replacement of the same kind (coroutine, async generator) as ``original``."""
        block = self._block
        wrapped: Callable[..., Any] = original  # type: ignore[assignment]

        if inspect.isasyncgenfunction(original):

            @functools.wraps(wrapped)
            async def blocked_stream(
                model: object, *args: object, **kwargs: object
            ) -> AsyncIterator[Any]:
                raise block(model, operation)
                yield  # unreachable; makes this an async generator like the original

            return blocked_stream

        if inspect.iscoroutinefunction(original):

            @functools.wraps(wrapped)
            async def blocked_call(model: object, *args: object, **kwargs: object) -> Any:
                raise block(model, operation)

            return blocked_call

        @functools.wraps(wrapped)
        def blocked_sync(model: object, *args: object, **kwargs: object) -> Any:
            raise block(model, operation)

        return blocked_sync
