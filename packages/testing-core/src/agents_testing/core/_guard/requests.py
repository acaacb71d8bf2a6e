"""The guard that stops real SDK models from reaching their providers during a test.

While installed, the request methods of every provider-backed model class (see
:func:`agents_testing.core.compat.provider_model_methods`) are replaced by stand-ins
that raise :class:`~agents_testing.core.ModelRequestBlocked` before any client, socket
or WebSocket is touched. Scripted doubles implement the SDK interfaces directly, so
they are never affected. Two more things would otherwise leave the process or answer
before the guard does, and are handled too: a provider that cannot make its default
client (no API key) gets a placeholder client that is never used for a request, and
the SDK's trace exporter drops what it is given instead of uploading it. The module
does not import pytest; the plugin drives it.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import AsyncIterator, Callable
from types import TracebackType
from typing import Any

from .._errors import ModelRequestBlocked
from ..compat import (
    flush_default_trace_processor,
    provider_client_factories,
    provider_model_methods,
    trace_exporter_class,
)

__all__ = ["RequestGuard"]

# Where the placeholder client would send a request, if anything ever did: a reserved
# top-level domain that never resolves.
_PLACEHOLDER_URL = "http://model-requests-blocked.invalid/v1"


class RequestGuard:
    """Blocks real model requests and trace uploads for one test and remembers every attempt.

    Use it as a context manager around the test; leaving it puts the original methods
    back. ``attempts`` keeps each raised error, so a runner that swallowed one can still
    be failed afterwards; ``dropped_trace_items`` counts the traces and spans that the
    SDK's exporter was given and did not upload.
    """

    def __init__(self, test: str) -> None:
        self.test = test
        self.attempts: list[ModelRequestBlocked] = []
        self.dropped_trace_items = 0
        self._saved: list[tuple[type, str, object]] = []
        self._placeholder: object | None = None

    def __enter__(self) -> RequestGuard:
        for cls, methods in provider_model_methods():
            for name in methods:
                self._replace(cls, name, self._stand_in(name, vars(cls)[name]))
        for cls, name in provider_client_factories():
            self._replace(cls, name, self._client_factory(vars(cls)[name]))
        self._replace(trace_exporter_class(), "export", self._dropping_export())
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            # Spans the test queued are handed to the (still dropping) exporter now, so
            # none is uploaded after the guard is gone.
            flush_default_trace_processor()
        finally:
            # Restore in reverse so that nested guards (pytester runs inside a guarded
            # test) unwind to exactly what was there before.
            while self._saved:
                cls, name, original = self._saved.pop()
                setattr(cls, name, original)

    def _replace(self, cls: type, name: str, replacement: object) -> None:
        self._saved.append((cls, name, vars(cls)[name]))
        setattr(cls, name, replacement)

    def _block(self, model: object, operation: str) -> ModelRequestBlocked:
        error = ModelRequestBlocked(test=self.test, model=type(model).__name__, operation=operation)
        self.attempts.append(error)
        return error

    def _dropping_export(self) -> Callable[[object, list[object]], None]:
        """``BackendSpanExporter.export`` that counts what it is given and uploads nothing."""
        guard = self

        def export(exporter: object, items: list[object]) -> None:
            guard.dropped_trace_items += len(items)

        return export

    def _client_factory(self, original: object) -> Callable[..., Any]:
        """``_get_client`` that falls back to a never-used placeholder when it has no key."""
        from openai import OpenAIError

        make: Callable[..., Any] = original  # type: ignore[assignment]
        guard = self

        @functools.wraps(make)
        def get_client(provider: object, *args: object, **kwargs: object) -> Any:
            try:
                return make(provider, *args, **kwargs)
            except OpenAIError:
                # Missing credentials: without this the client's error would reach the
                # test before the guard could say what happened. The provider does not
                # keep the placeholder, so nothing changes once the guard is gone.
                return guard._placeholder_client()

        return get_client

    def _placeholder_client(self) -> object:
        if self._placeholder is None:
            from openai import AsyncOpenAI

            self._placeholder = AsyncOpenAI(
                api_key="model-requests-blocked", base_url=_PLACEHOLDER_URL, max_retries=0
            )
        return self._placeholder

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
