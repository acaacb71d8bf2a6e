"""Replay: a cassette as an ordinary :class:`ScriptedModel` that also checks each request.

Every recorded call becomes one plain step (streamed calls through ``ModelStep.stream``,
failures through ``ModelStep.raise_error``), so the strict FIFO, ``assert_complete()``
and the drift errors are exactly ``ScriptedModel``'s. Before a call takes its step, the
request is compared with the recorded one; a difference raises
:class:`ModelRequestMismatch` with a readable diff and leaves the step in place.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from agents.items import ModelResponse, TResponseInputItem, TResponseStreamEvent
from agents.models.interface import Model, ModelProvider, ModelTracing

from agents_testing.core import detach
from agents_testing.core.cassette import CassetteMismatch, Scrubber

from ._cassette_request import LiveRequest, RequestEncoder, share_unchanged_parts
from ._errors import ModelScriptError
from ._scripted_model import ScriptedModel
from ._step import ModelStep

if TYPE_CHECKING:
    from agents.agent_output import AgentOutputSchemaBase
    from agents.handoffs import Handoff
    from agents.model_settings import ModelSettings
    from agents.tool import Tool
    from openai.types.responses.response_prompt_param import ResponsePromptParam

__all__ = ["CassetteModel", "CassetteModelProvider", "ModelRequestMismatch"]


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
    says how many calls the cassette holds.
    """

    def __init__(
        self,
        steps: Sequence[ModelStep | ModelResponse],
        requests: Sequence[Mapping[str, Any]],
        *,
        ignore: frozenset[str],
        scrubbers: Sequence[Scrubber] = (),
        shared_prefixes: Sequence[int] = (),
    ) -> None:
        super().__init__(steps)
        self._shared = list(shared_prefixes)
        # Detached copies of the last verified live input: the runner rebuilds every item
        # each turn but keeps its strings, so comparing with these is the cheap way.
        self._seen: list[Any] = []
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

    def _check(self, live: LiveRequest) -> None:
        index = self._checked
        if index < len(self._requests):
            recorded = self._requests[index]
            input_checked = "input" in self._ignore or self._input_matches(
                index, live.input, recorded.get("input")
            )
            lines = self._encoder.differences(
                recorded,
                live,
                ignore=self._ignore | {"input"} if input_checked else self._ignore,
                scrubbers=self._scrubbers,
            )
            if lines:
                raise ModelRequestMismatch(index, lines)
        self._checked = index + 1

    def _input_matches(self, index: int, live: Any, expected: Any) -> bool:
        """Whether ``live`` equals the recorded input, checking only new items where it can."""
        if not isinstance(live, list) or not isinstance(expected, list):
            return False
        if len(live) != len(expected):
            return False
        seen = self._seen
        shared = self._shared[index] if index < len(self._shared) else 0
        if seen and shared == len(seen) and live[:shared] == seen:
            if live[shared:] != expected[shared:]:
                return False
            self._seen = seen + [detach(item) for item in live[shared:]]
            return True
        if live != expected:
            return False
        self._seen = [detach(item) for item in live]
        return True

    async def get_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: ModelSettings,
        tools: list[Tool],
        output_schema: AgentOutputSchemaBase | None,
        handoffs: list[Handoff[Any, Any]],
        tracing: ModelTracing,
        *,
        previous_response_id: str | None = None,
        conversation_id: str | None = None,
        prompt: ResponsePromptParam | None = None,
    ) -> ModelResponse:
        self._check(
            LiveRequest(
                system_instructions,
                input,
                model_settings,
                tools,
                output_schema,
                handoffs,
                previous_response_id,
                conversation_id,
                prompt,
                False,
            )
        )
        return await super().get_response(
            system_instructions,
            input,
            model_settings,
            tools,
            output_schema,
            handoffs,
            tracing,
            previous_response_id=previous_response_id,
            conversation_id=conversation_id,
            prompt=prompt,
        )

    async def stream_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: ModelSettings,
        tools: list[Tool],
        output_schema: AgentOutputSchemaBase | None,
        handoffs: list[Handoff[Any, Any]],
        tracing: ModelTracing,
        *,
        previous_response_id: str | None = None,
        conversation_id: str | None = None,
        prompt: ResponsePromptParam | None = None,
    ) -> AsyncIterator[TResponseStreamEvent]:
        self._check(
            LiveRequest(
                system_instructions,
                input,
                model_settings,
                tools,
                output_schema,
                handoffs,
                previous_response_id,
                conversation_id,
                prompt,
                True,
            )
        )
        async for event in super().stream_response(
            system_instructions,
            input,
            model_settings,
            tools,
            output_schema,
            handoffs,
            tracing,
            previous_response_id=previous_response_id,
            conversation_id=conversation_id,
            prompt=prompt,
        ):
            yield event


class CassetteModelProvider(ModelProvider):
    """Serves one :class:`CassetteModel` for every model name, so a replay keeps one FIFO."""

    def __init__(self, model: CassetteModel) -> None:
        self.model = model

    def get_model(self, model_name: str | None) -> Model:
        return self.model
