"""The guard that stops real SDK models from reaching their providers during a test.

While installed, the request methods of every model class the SDK defines (found by
:func:`agents_testing.core.compat.provider_model_methods`, so LiteLLM, any-llm, the
websocket transports and the models of later releases are covered) are replaced by
stand-ins that raise :class:`~agents_testing.core.ModelRequestBlocked` before any
client, socket or WebSocket is touched; a model class whose module is first imported
while the guard is on is covered the moment it is defined. Scripted doubles implement
the SDK interfaces in their own modules, so they are never affected. Three more things
would otherwise leave the process or answer before the guard does, and are handled too:
a provider that cannot make its default client (no API key) gets a placeholder client
that is never used for a request; a ``litellm/...`` or ``any-llm/...`` model name whose
optional package is missing gets a placeholder model that is refused like the real one;
and the SDK's trace exporter drops what it is given instead of uploading it. The module
does not import pytest; the plugin drives it.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import AsyncIterator, Callable
from typing import Any

from .._errors import ModelRequestBlocked
from ..compat import (
    is_provider_model,
    model_interfaces,
    multi_provider_fallback,
    provider_client_factories,
    provider_model_methods,
    trace_exporter_class,
)
from .guard import Guard

__all__ = ["RequestGuard"]

# Where the placeholder client would send a request, if anything ever did: a reserved
# top-level domain that never resolves.
_PLACEHOLDER_URL = "http://model-requests-blocked.invalid/v1"


class RequestGuard(Guard):
    """Blocks real model requests and trace uploads for one test and remembers every attempt.

    Use it as a context manager around the test; leaving it puts the original methods
    back. ``attempts`` keeps each raised error, so a runner that swallowed one can still
    be failed afterwards; ``dropped_trace_items`` counts the traces and spans that the
    SDK's exporter was given and did not upload.
    """

    kind = "requests"
    attempts: list[ModelRequestBlocked]

    def __init__(self, test: str) -> None:
        super().__init__(test)
        self.dropped_trace_items = 0
        self._placeholder: object | None = None

    def _install(self) -> None:
        for cls, methods in provider_model_methods():
            self._block_methods(cls, methods)
        for interface, methods in model_interfaces():
            self._replace(interface, "__init_subclass__", self._subclass_hook(interface, methods))
        for cls, name in provider_client_factories():
            self._replace(cls, name, self._client_factory(vars(cls)[name]))
        fallback = multi_provider_fallback()
        if fallback is not None:
            cls, name, prefixes = fallback
            self._replace(cls, name, self._fallback_provider(vars(cls)[name], prefixes))
        self._replace(trace_exporter_class(), "export", self._dropping_export())

    def _block_methods(self, cls: type, methods: tuple[str, ...]) -> None:
        for name in methods:
            self._replace(cls, name, self._stand_in(name, vars(cls)[name]))

    def _subclass_hook(
        self, interface: type, methods: tuple[str, ...]
    ) -> classmethod[Any, Any, None]:
        """``__init_subclass__`` for ``interface`` that blocks SDK models defined meanwhile."""
        guard = self
        original = vars(interface).get("__init_subclass__")

        def hook(cls: type[Any], /, **kwargs: Any) -> None:
            if isinstance(original, classmethod):
                original.__func__(cls, **kwargs)
            else:
                parent: Any = super(interface, cls)
                parent.__init_subclass__(**kwargs)
            own = tuple(name for name in methods if name in vars(cls))
            if own and is_provider_model(cls):
                guard._block_methods(cls, own)

        return classmethod(hook)

    def _block(self, model: str, operation: str) -> ModelRequestBlocked:
        error = ModelRequestBlocked(test=self.test, model=model, operation=operation)
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

    def _fallback_provider(self, original: object, prefixes: dict[str, str]) -> Callable[..., Any]:
        """``MultiProvider._get_fallback_provider`` that answers for a missing optional package.

        ``litellm/...`` without ``litellm`` installed would raise ImportError when the
        runner asks for the model; the guard answers first, as for a missing API key. The
        placeholder is not cached by the provider (the original raised before caching).
        """
        make: Callable[..., Any] = original  # type: ignore[assignment]
        guard = self

        @functools.wraps(make)
        def get_fallback_provider(provider: object, prefix: str | None) -> Any:
            try:
                return make(provider, prefix)
            except ImportError:
                if prefix not in prefixes:
                    raise
                return _blocked_provider(guard, prefixes[prefix])

        return get_fallback_provider

    def _stand_in(self, operation: str, original: object) -> Callable[..., Any]:
        """A replacement of the same kind (coroutine, async generator) as ``original``."""
        block = self._block
        wrapped: Callable[..., Any] = original  # type: ignore[assignment]

        if inspect.isasyncgenfunction(original):

            @functools.wraps(wrapped)
            async def blocked_stream(
                model: object, *args: object, **kwargs: object
            ) -> AsyncIterator[Any]:
                raise block(type(model).__name__, operation)
                yield  # unreachable; makes this an async generator like the original

            return blocked_stream

        if inspect.iscoroutinefunction(original):

            @functools.wraps(wrapped)
            async def blocked_call(model: object, *args: object, **kwargs: object) -> Any:
                raise block(type(model).__name__, operation)

            return blocked_call

        @functools.wraps(wrapped)
        def blocked_sync(model: object, *args: object, **kwargs: object) -> Any:
            raise block(type(model).__name__, operation)

        return blocked_sync


def _blocked_provider(guard: RequestGuard, model_class: str) -> Any:
    """A provider whose models are refused under ``model_class``'s name (its package is missing)."""
    from agents.models.interface import Model, ModelProvider

    class BlockedModel(Model):
        async def get_response(self, *args: Any, **kwargs: Any) -> Any:
            raise guard._block(model_class, "get_response")

        async def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
            raise guard._block(model_class, "stream_response")
            yield  # unreachable; makes this an async generator like the interface

    class BlockedProvider(ModelProvider):
        def get_model(self, model_name: str | None) -> Model:
            return BlockedModel()

    return BlockedProvider()
