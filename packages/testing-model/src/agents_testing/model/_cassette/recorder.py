"""Recording wrappers: a ``Model`` and a ``ModelProvider`` that pass every call through.

Each call is written down as the model saw it (the normalized request) with what came
back: the response, the exact stream events, or the error and the retry advice the
model gave for it. Nothing is read from the provider client except the secrets to scan
the cassette for. With earlier recorded calls (record mode ``new_episodes``) the calls
that still match are answered from the recording and the real model takes over at the
first new or changed one.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from agents.items import ModelResponse, TResponseStreamEvent
from agents.models.interface import Model, ModelProvider

from agents_testing.core.cassette import CallRecorder, Scrubber

from .._request import FrontModel, ModelRequest
from .._step import ModelStep
from .outcome import error_json, event_json, response_json, retry_advice_json
from .request import LiveRequest, RequestEncoder

if TYPE_CHECKING:
    from agents.retry import ModelRetryAdvice, ModelRetryAdviceRequest

__all__ = ["LazyModel", "Recorder", "RecordingModel", "RecordingModelProvider"]


class _Entry:
    """One recorded call, filled in as its outcome arrives."""

    __slots__ = ("data", "events")

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.events: list[dict[str, Any]] | None = None


class Recorder(CallRecorder):
    """The calls recorded through every wrapper of one cassette, in call order."""

    def __init__(
        self,
        *,
        earlier: Sequence[Mapping[str, Any]] = (),
        earlier_steps: Sequence[ModelStep] = (),
        ignore: frozenset[str] = frozenset(),
        scrubbers: Sequence[Scrubber] = (),
    ) -> None:
        super().__init__()
        self.entries: list[_Entry] = []
        self.live_secrets: set[str] = set()
        self._encoder = RequestEncoder()
        self._errors: dict[int, tuple[BaseException, _Entry]] = {}
        self._earlier = list(earlier)
        self._earlier_steps = list(earlier_steps)
        self._earlier_advice: dict[int, tuple[BaseException, ModelRetryAdvice | None]] = {}
        self._replaying = bool(self._earlier)
        self._ignore = ignore
        self._scrubbers = tuple(scrubbers)
        key = os.environ.get("OPENAI_API_KEY")
        if key:
            self.live_secrets.add(key)

    def calls(self) -> list[dict[str, Any]]:
        """The recorded calls as cassette JSON (not yet scrubbed)."""
        found: list[dict[str, Any]] = []
        for entry in self.entries:
            data = dict(entry.data)
            if entry.events is not None:
                data["stream"] = list(entry.events)
            found.append(data)
        return found

    def note_client(self, model: object) -> None:
        """Remember the secrets of ``model``'s provider client, to scan the cassette for."""
        client = getattr(model, "_client", None)
        for name in ("api_key", "organization", "project", "webhook_secret"):
            value = getattr(client, name, None)
            if isinstance(value, str) and value:
                self.live_secrets.add(value)
        base_url = getattr(client, "base_url", None)
        if base_url is not None:
            parts = urlsplit(str(base_url))
            for value in (parts.username, parts.password):
                if value:
                    self.live_secrets.add(value)

    def begin(self, live: LiveRequest, model_name: str | None) -> _Entry:
        data: dict[str, Any] = {"request": self._encoder.encode(live)}
        if model_name is not None:
            data["model"] = model_name
        entry = _Entry(data)
        self.entries.append(entry)
        return entry

    def fail(self, entry: _Entry, error: BaseException) -> None:
        entry.data["error"] = error_json(error)
        entry.data["error"]["retry_advice"] = None
        self._errors[id(error)] = (error, entry)

    def advise(self, error: BaseException, advice: ModelRetryAdvice | None) -> None:
        known = self._errors.get(id(error))
        if known is not None and known[0] is error:
            known[1].data["error"]["retry_advice"] = retry_advice_json(advice)

    # -- answering from the earlier recording (new_episodes) ----------------------------

    def earlier_step(self, live: LiveRequest) -> ModelStep | None:
        """The recorded answer for this call while the run still follows the recording."""
        index = len(self.entries)
        if not self._replaying or index >= len(self._earlier):
            self._replaying = False
            return None
        recorded = self._earlier[index]
        if self._encoder.differences(
            recorded["request"], live, ignore=self._ignore, scrubbers=self._scrubbers
        ):
            # From the first changed call on, everything is recorded afresh.
            self._replaying = False
            return None
        self.entries.append(_Entry(dict(recorded)))
        step = self._earlier_steps[index]
        if step.error is not None:
            self._earlier_advice[id(step.error)] = (step.error, step.retry_advice)
        return step

    def earlier_advice(self, error: BaseException) -> tuple[bool, ModelRetryAdvice | None]:
        known = self._earlier_advice.get(id(error))
        if known is not None and known[0] is error:
            return True, known[1]
        return False, None


class RecordingModel(FrontModel):
    """Passes every call to ``model`` and records it in the cassette being written.

    ``model_name`` is the name a provider was asked for; without a provider, the real
    model's own ``model`` attribute is recorded as its name.
    """

    def __init__(
        self,
        model: Model,
        recorder: Recorder,
        *,
        model_name: str | None = None,
        from_provider: bool = False,
    ) -> None:
        super().__init__(model)
        self.model = model
        self._recorder = recorder
        self._model_name = model_name
        self._from_provider = from_provider

    def _real(self) -> Model:
        real = self.model.real if isinstance(self.model, LazyModel) else self.model
        self._recorder.note_client(real)
        return real

    def _name(self, real: Model) -> str | None:
        if self._from_provider:
            return self._model_name
        name = getattr(real, "model", None)
        return name if isinstance(name, str) else None

    async def _respond(self, request: ModelRequest) -> ModelResponse:
        live = LiveRequest.of(request, streamed=False)
        earlier = self._recorder.earlier_step(live)
        if earlier is not None:
            if earlier.error is not None:
                raise earlier.error
            return ModelResponse(
                output=list(earlier.output),
                usage=earlier.usage,  # type: ignore[arg-type]
                response_id=earlier.response_id,
            )
        real = self._real()
        entry = self._recorder.begin(live, self._name(real))
        try:
            response = await request.get_response(real)
        except Exception as error:
            self._recorder.fail(entry, error)
            raise
        entry.data["response"] = self._recorder.json(response, "response", response_json)
        return response

    async def _stream(self, request: ModelRequest) -> AsyncIterator[TResponseStreamEvent]:
        live = LiveRequest.of(request, streamed=True)
        earlier = self._recorder.earlier_step(live)
        if earlier is not None:
            if earlier.error is not None:
                raise earlier.error
            for event in earlier.stream_events or ():  # type: ignore[union-attr]
                yield event
            return
        real = self._real()
        entry = self._recorder.begin(live, self._name(real))
        events: list[dict[str, Any]] = []
        # Set before the first event: a stream the runner stops reading early keeps
        # exactly the events it delivered.
        entry.events = events
        try:
            async for event in request.stream_response(real):
                events.append(self._recorder.json(event, "stream event", event_json))
                yield event
        except Exception as error:
            if not events:
                entry.events = None
            self._recorder.fail(entry, error)
            raise

    def get_retry_advice(self, request: ModelRetryAdviceRequest) -> ModelRetryAdvice | None:
        replayed, advice = self._recorder.earlier_advice(request.error)
        if replayed:
            return advice
        advice = self.model.get_retry_advice(request)
        self._recorder.advise(request.error, advice)
        return advice


class RecordingModelProvider(ModelProvider):
    """Wraps ``provider`` so that every model it hands out records into one cassette."""

    def __init__(
        self, provider: ModelProvider | Callable[[], ModelProvider], recorder: Recorder
    ) -> None:
        self._provider = provider
        self._recorder = recorder
        self._models: dict[str | None, RecordingModel] = {}

    @property
    def provider(self) -> ModelProvider:
        """The real provider (created on first use when a factory was given)."""
        if not isinstance(self._provider, ModelProvider):
            self._provider = self._provider()
        return self._provider

    def get_model(self, model_name: str | None) -> Model:
        known = self._models.get(model_name)
        if known is None:
            known = RecordingModel(
                LazyModel(lambda: self.provider.get_model(model_name)),
                self._recorder,
                model_name=model_name,
                from_provider=True,
            )
            self._models[model_name] = known
        return known

    async def aclose(self) -> None:
        if isinstance(self._provider, ModelProvider):
            await self._provider.aclose()


class LazyModel(Model):
    """A model made on its first call, so replayed calls need no provider or API key."""

    def __init__(self, factory: Callable[[], Model]) -> None:
        self._factory = factory
        self._model: Model | None = None

    @property
    def real(self) -> Model:
        if self._model is None:
            self._model = self._factory()
        return self._model

    async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
        return await self.real.get_response(*args, **kwargs)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[TResponseStreamEvent]:
        return self.real.stream_response(*args, **kwargs)

    def get_retry_advice(self, request: ModelRetryAdviceRequest) -> ModelRetryAdvice | None:
        return None if self._model is None else self._model.get_retry_advice(request)

    async def close(self) -> None:
        if self._model is not None:
            await self._model.close()

    def __getattr__(self, name: str) -> Any:
        if "_factory" not in self.__dict__:
            raise AttributeError(name)
        return getattr(self.real, name)


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
