"""Replay: a cassette as an ordinary :class:`ScriptedModel` that also checks each request.

Every recorded call becomes one plain step (streamed calls through ``ModelStep.stream``,
failures through ``ModelStep.raise_error``), so the strict FIFO, ``assert_complete()``
and the drift errors are exactly ``ScriptedModel``'s. Before a call takes its step, the
request is compared with the recorded one; a difference raises
:class:`ModelRequestMismatch` with a readable diff and leaves the step in place.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from agents.items import ModelResponse
from agents.models.interface import Model, ModelProvider

from agents_testing.core import safe_repr
from agents_testing.core.cassette import CassetteMismatch, Scrubber

from .._call import ModelCall
from .._errors import ModelScriptError
from .._request import FrontModel, ModelRequest
from .._scripted_model import ScriptedModel
from .._step import ModelStep
from .request import REQUEST_FIELDS, LiveRequest, RequestEncoder, share_unchanged_parts

if TYPE_CHECKING:
    from agents.items import TResponseStreamEvent
    from agents.retry import ModelRetryAdvice, ModelRetryAdviceRequest

__all__ = ["CassetteModel", "CassetteModelProvider", "ModelRequestMismatch"]

_OTHER_PARTS = tuple(name for name in REQUEST_FIELDS if name != "input")
_UNKNOWN = object()
# The model name an agent asked the replaying provider for, while its call runs.
_ASKED_FOR: contextvars.ContextVar[object] = contextvars.ContextVar(
    "agents_testing_cassette_model_name", default=_UNKNOWN
)


class ModelRequestMismatch(ModelScriptError, CassetteMismatch):
    """A replayed model request differs from the recorded one ("my prompt changed").

    ``call_index`` is the 0-based call; ``differences`` one line per differing field,
    each naming it by path (``request.input[2].content``, ``request.tools['search']``).
    """

    def __init__(self, call_index: int, differences: Sequence[str]) -> None:
        CassetteMismatch.__init__(self, "model", call_index, differences)

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.call_index, self.differences))


class CassetteModel(ScriptedModel):
    """A :class:`ScriptedModel` whose steps come from a cassette, checking every request.

    Apart from the constructor it has exactly ``ScriptedModel``'s API; ``recorded_calls``
    says how many calls the cassette holds. The model name of a call is compared with the
    recorded one when both are known: ``model_name`` (the live model's name) or the name
    an agent asked :class:`CassetteModelProvider` for.
    """

    def __init__(
        self,
        steps: Sequence[ModelStep | ModelResponse],
        requests: Sequence[Mapping[str, Any]],
        *,
        ignore: frozenset[str],
        scrubbers: Sequence[Scrubber] = (),
        shared_prefixes: Sequence[int] = (),
        model_names: Sequence[str | None] = (),
        model_name: str | None = None,
    ) -> None:
        super().__init__(steps)
        self._model_names = list(model_names)
        self._model_name = model_name
        self._shared = list(shared_prefixes)
        # The snapshots of the last verified input (see _input_matches), and the last
        # verified call with its recording (see _as_last_call).
        self._seen: Sequence[Any] = ()
        self._last: tuple[ModelCall, dict[str, Any]] | None = None
        self._requests = [dict(request) for request in requests]
        share_unchanged_parts(self._requests)
        self._ignore = ignore
        self._scrubbers = tuple(scrubbers)
        self._encoder = RequestEncoder()
        self._checked = 0

    @property
    def recorded_calls(self) -> int:
        """How many calls the cassette recorded."""
        return len(self._requests)

    @property
    def model(self) -> str | None:
        """The model name recorded for the next call (what a real model's ``model`` says)."""
        index = self._checked
        if index < len(self._model_names) and self._model_names[index] is not None:
            return self._model_names[index]
        return self._model_name

    def _name_difference(self, index: int) -> list[str]:
        recorded = self._model_names[index] if index < len(self._model_names) else None
        asked = _ASKED_FOR.get()
        live = self._model_name if asked is _UNKNOWN else asked
        if "model" in self._ignore or recorded is None or not isinstance(live, str):
            return []
        if live == recorded:
            return []
        return [f"model: recorded {safe_repr(recorded)}, now {safe_repr(live)}"]

    def _admit(self, call: ModelCall) -> None:
        index = self._checked
        if index < len(self._requests):
            names = self._name_difference(index)
            if names:
                raise ModelRequestMismatch(index, names)
            recorded = self._requests[index]
            snapshots = call._input
            input_checked = "input" in self._ignore or self._input_matches(
                index, snapshots, recorded.get("input")
            )
            if not (input_checked and self._as_last_call(call, recorded)):
                # The call's fields are the private snapshots ScriptedModel has just taken.
                live = LiveRequest(
                    call._system_instructions,
                    snapshots if isinstance(snapshots, str) else list(snapshots),
                    call._model_settings,
                    call._tools,
                    call._output_schema,
                    call._handoffs,
                    call._previous_response_id,
                    call._conversation_id,
                    call._prompt,
                    call._streamed,
                )
                lines = self._encoder.differences(
                    recorded,
                    live,
                    ignore=self._ignore | {"input"} if input_checked else self._ignore,
                    scrubbers=self._scrubbers,
                )
                if lines:
                    raise ModelRequestMismatch(index, lines)
            self._last = (call, recorded)
        self._checked = index + 1

    def _as_last_call(self, call: ModelCall, recorded: dict[str, Any]) -> bool:
        """Whether every part but the input is as in the last verified call and recording.

        Replays share one recorded object for a part that did not change, and
        ``ScriptedModel`` one settings snapshot for settings that did not change, so
        identity answers for most turns of a conversation.
        """
        last = self._last
        if last is None:
            return False
        before, before_recorded = last
        for name in _OTHER_PARTS:
            if recorded.get(name) is not before_recorded.get(name):
                return False
        return (
            call._model_settings is before._model_settings
            and call._system_instructions == before._system_instructions
            and call._tools == before._tools
            and call._handoffs == before._handoffs
            and call._output_schema is before._output_schema
            and call._prompt is None
            and before._prompt is None
            and call._previous_response_id == before._previous_response_id
            and call._conversation_id == before._conversation_id
            and call._streamed == before._streamed
        )

    def _input_matches(self, index: int, live: Any, expected: Any) -> bool:
        """Whether ``live`` equals the recorded input, checking only new items where it can.

        ``live`` holds the snapshots of the call, which share one object with the
        previous call's snapshot wherever the item is unchanged; those positions were
        verified then, and the recorded inputs share their first ``shared`` items too.
        """
        if isinstance(live, str) or not isinstance(expected, list):
            return bool(live == expected)
        if len(live) != len(expected):
            return False
        seen = self._seen
        shared = self._shared[index] if index < len(self._shared) else 0
        # Tuple equality looks at identity first, in C: shared snapshots cost next to nothing.
        if seen and shared == len(seen) and live[:shared] == seen:
            if list(live[shared:]) != expected[shared:]:
                return False
        elif list(live) != expected:
            return False
        self._seen = tuple(live)
        return True


class CassetteModelProvider(ModelProvider):
    """Serves one :class:`CassetteModel` for every model name, so a replay keeps one FIFO.

    ``model`` is that model. Each name asked for gets a view of it that lets the replay
    compare the name with the recorded one.
    """

    def __init__(self, model: CassetteModel) -> None:
        self.model = model
        self._named: dict[str | None, _NamedModel] = {}

    def get_model(self, model_name: str | None) -> Model:
        known = self._named.get(model_name)
        if known is None:
            known = self._named[model_name] = _NamedModel(self.model, model_name)
        return known


class _NamedModel(FrontModel):
    """The replaying model as an agent asked for it by name; anything else is the model's."""

    def __init__(self, model: CassetteModel, name: str | None) -> None:
        super().__init__(model)
        self._model = model
        self._name = name

    async def _respond(self, request: ModelRequest) -> ModelResponse:
        token = _ASKED_FOR.set(self._name)
        try:
            return await request.get_response(self._model)
        finally:
            _ASKED_FOR.reset(token)

    async def _stream(self, request: ModelRequest) -> AsyncIterator[TResponseStreamEvent]:
        token = _ASKED_FOR.set(self._name)
        try:
            async for event in request.stream_response(self._model):
                yield event
        finally:
            # A stream closed from another context (garbage collection) has nothing to reset.
            with contextlib.suppress(ValueError):
                _ASKED_FOR.reset(token)

    def get_retry_advice(self, request: ModelRetryAdviceRequest) -> ModelRetryAdvice | None:
        return self._model.get_retry_advice(request)


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
