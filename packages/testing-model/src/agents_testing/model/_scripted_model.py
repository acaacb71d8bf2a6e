"""``ScriptedModel``: an in-memory ``agents.models.interface.Model`` driven by a step script."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from agents.items import ModelResponse, TResponseInputItem, TResponseStreamEvent
from agents.models.interface import Model, ModelTracing
from agents.usage import Usage
from pydantic import BaseModel

from agents_testing.core import SnapshotCache, StepScript, compat, detach, ordinal

from ._call import ModelCall
from ._errors import InvalidModelStep, ModelScriptError, UnconsumedModelSteps, UnexpectedModelCall
from ._step import ModelStep, QueuedStep, StepInput, check_stream_event, normalize_step
from ._streaming import SCRIPTED_MODEL_NAME, lifecycle_events, unstreamable_item
from ._tracing import generation_tracing

if TYPE_CHECKING:
    from agents.agent_output import AgentOutputSchemaBase
    from agents.handoffs import Handoff
    from agents.model_settings import ModelSettings
    from agents.retry import ModelRetryAdvice, ModelRetryAdviceRequest
    from agents.tool import Tool
    from openai.types.responses.response_prompt_param import ResponsePromptParam

__all__ = ["ScriptedModel"]

_HAS_RAW_USAGE = compat.model_response_has_raw_usage()


class ScriptedModel(Model):
    """A deterministic model that answers each call with the next scripted step.

    Steps are consumed strictly in order, one per model call, whether the runner
    calls ``get_response`` (``Runner.run``) or ``stream_response``
    (``Runner.run_streamed``). Every call is recorded before its step is resolved.
    Apart from the constructor, the inspection properties, ``enqueue``, ``extend``
    and ``assert_complete``, all methods are the ``Model`` base class's.
    """

    def __init__(
        self,
        steps: Iterable[StepInput] = (),
        *,
        emit_traces: bool = False,
        default_usage: Usage | None = None,
    ) -> None:
        if default_usage is not None and not isinstance(default_usage, Usage):
            raise ModelScriptError(
                f"default_usage must be an agents.Usage or None, got "
                f"{type(default_usage).__name__}."
            )
        self._script: StepScript[QueuedStep] = StepScript(_normalize_all(steps))
        self._calls: list[ModelCall] = []
        self._cache = SnapshotCache()
        self._emit_traces = bool(emit_traces)
        self._default_usage = (
            None if default_usage is None else detach(default_usage, name="default_usage")
        )
        # id(error) -> (error, advice); the error is kept so the id cannot be reused.
        self._advice: dict[int, tuple[BaseException, ModelRetryAdvice]] = {}

    # -- scripting -----------------------------------------------------------------

    def enqueue(self, step: StepInput) -> None:
        """Validate one step (reported as input index 0) and queue it at the end."""
        self._script.append(normalize_step(step, 0))

    def extend(self, steps: Iterable[StepInput]) -> None:
        """Validate ``steps`` (indices relative to this sequence) and queue them in order.

        Nothing is queued when any of them is invalid.
        """
        self._script.extend(_normalize_all(steps))

    # -- inspection ----------------------------------------------------------------

    @property
    def calls(self) -> tuple[ModelCall, ...]:
        """Every recorded call, in call order (read-only records with detached fields)."""
        return tuple(self._calls)

    @property
    def first_call(self) -> ModelCall | None:
        """The first recorded call, or None when the model was never called."""
        return self._calls[0] if self._calls else None

    @property
    def last_call(self) -> ModelCall | None:
        """The most recent recorded call, or None when the model was never called."""
        return self._calls[-1] if self._calls else None

    @property
    def remaining_steps(self) -> int:
        """How many scripted steps have not been consumed yet."""
        return len(self._script)

    def assert_complete(self) -> None:
        """Raise :class:`UnconsumedModelSteps` if any scripted step was never used."""
        self._script.assert_complete(
            lambda pending: UnconsumedModelSteps(
                tuple(queued.step for queued in pending), self._script.consumed
            )
        )

    # -- the Model interface ---------------------------------------------------------

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
        call, index, queued = self._begin(
            system_instructions,
            input,
            model_settings,
            tools,
            output_schema,
            handoffs,
            tracing,
            previous_response_id,
            conversation_id,
            prompt,
            streamed=False,
        )
        with self._span(call) as span:
            step, exact = await _resolve(call, queued)
            if step.error is not None:
                raise self._failure(step)
            response = self._model_response(step, exact, index)
            span.finish_response(response.output, response.usage)
            return response

    def get_retry_advice(self, request: ModelRetryAdviceRequest) -> ModelRetryAdvice | None:
        """The advice scripted with ``ModelStep.raise_error`` for exactly that error."""
        known = self._advice.get(id(request.error))
        if known is not None and known[0] is request.error:
            return known[1]
        return None

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
        call, index, queued = self._begin(
            system_instructions,
            input,
            model_settings,
            tools,
            output_schema,
            handoffs,
            tracing,
            previous_response_id,
            conversation_id,
            prompt,
            streamed=True,
        )
        with self._span(call) as span:
            step, exact = await _resolve(call, queued)
            if step.error is not None:
                raise self._failure(step)
            if step.stream_events is not None:
                async for event in _strict_events(step, call, queued.input_index):
                    yield event
                return
            response = self._model_response(step, exact, index)
            _require_lifecycle(response, queued.input_index)
            # Built in one go, then handed out: the runner does a lot of work between
            # two events, and building each one on demand would run on cold caches.
            events = list(
                lifecycle_events(
                    response.response_id or "",
                    response.output,
                    response.usage,
                    response.request_id,
                )
            )
            for event in events:
                yield event
            span.finish_response(response.output, response.usage)

    # -- internals -----------------------------------------------------------------

    def _begin(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: ModelSettings,
        tools: list[Tool],
        output_schema: AgentOutputSchemaBase | None,
        handoffs: list[Handoff[Any, Any]],
        tracing: ModelTracing,
        previous_response_id: str | None,
        conversation_id: str | None,
        prompt: ResponsePromptParam | None,
        *,
        streamed: bool,
    ) -> tuple[ModelCall, int, QueuedStep]:
        # Record and take synchronously, with no await in between: concurrent runs
        # sharing this model consume steps in the order their calls arrive.
        call = ModelCall._record(
            self._cache,
            system_instructions=system_instructions,
            input=input,
            model_settings=model_settings,
            tools=tools,
            output_schema=output_schema,
            handoffs=handoffs,
            tracing=tracing,
            previous_response_id=previous_response_id,
            conversation_id=conversation_id,
            prompt=prompt,
            streamed=streamed,
            previous_settings=self._calls[-1]._model_settings if self._calls else None,
        )
        index = len(self._calls)
        self._calls.append(call)
        queued = self._script.take()
        if queued is None:
            raise UnexpectedModelCall(call, index)
        return call, index, queued

    def _failure(self, step: ModelStep) -> BaseException:
        error = step.error
        assert error is not None
        if step.retry_advice is not None:
            self._advice[id(error)] = (error, step.retry_advice)
        return error

    def _model_response(self, step: ModelStep, exact: bool, index: int) -> ModelResponse:
        if step.usage is not None:
            usage = detach(step.usage, name="usage")
        elif self._default_usage is not None:
            usage = detach(self._default_usage)
        else:
            usage = Usage(requests=1)
        response_id = step.response_id
        if response_id is None and not exact:
            response_id = f"resp_scripted_{ordinal(index)}"
        extra: dict[str, Any] = {}
        if _HAS_RAW_USAGE and step.raw_usage is not None:
            extra["raw_usage"] = detach(dict(step.raw_usage), name="raw_usage")
        return ModelResponse(
            output=list(step.output),
            usage=usage,
            response_id=response_id,
            request_id=step.request_id,
            **extra,
        )

    @contextmanager
    def _span(self, call: ModelCall) -> Iterator[Any]:
        with generation_tracing(
            enabled=self._emit_traces and not call.tracing.is_disabled(),
            include_data=call.tracing.include_data(),
            call=call,
            model_name=SCRIPTED_MODEL_NAME,
        ) as span:
            yield span


def _normalize_all(steps: Iterable[StepInput]) -> list[QueuedStep]:
    if isinstance(steps, (str, bytes, bytearray, dict)) or not isinstance(steps, Iterable):
        raise InvalidModelStep(
            "invalid_input",
            0,
            f"steps must be a sequence of steps, got {type(steps).__name__}; wrap a single "
            f"step in a list, e.g. ScriptedModel([[assistant_message('...')]]).",
        )
    if isinstance(steps, BaseModel):
        raise InvalidModelStep(
            "invalid_input",
            0,
            "steps must be a sequence of steps, got a single output item; one response is "
            "a list of items, so write ScriptedModel([[item]]).",
        )
    return [normalize_step(step, index) for index, step in enumerate(steps)]


async def _resolve(call: ModelCall, queued: QueuedStep) -> tuple[ModelStep, bool]:
    """The step that answers ``call``; a responder's result is validated like a step."""
    step = queued.step
    if step.responder is None:
        return step, queued.exact
    result = step.responder(call)
    if inspect.isawaitable(result):
        result = await result
    resolved = normalize_step(result, queued.input_index)
    if resolved.step.responder is not None:
        raise InvalidModelStep(
            "invalid_responder",
            queued.input_index,
            "the responder returned another responder step; return a response form "
            "(output items, a step dict, a ModelStep, a ModelResponse or an exception).",
        )
    return resolved.step, resolved.exact


async def _strict_events(
    step: ModelStep, call: ModelCall, input_index: int
) -> AsyncIterator[TResponseStreamEvent]:
    events: Any = step.stream_events
    if not callable(events):
        for event in events:
            yield event
        return
    produced = events(call)
    position = 0
    if hasattr(produced, "__aiter__"):
        async for event in produced:
            check_stream_event(event, position, input_index)
            position += 1
            yield event
        return
    if inspect.isawaitable(produced):
        produced = await produced
    if not isinstance(produced, Sequence) or isinstance(produced, (str, bytes)):
        raise InvalidModelStep(
            "invalid_stream_events",
            input_index,
            f"the stream_events factory returned {type(produced).__name__}; it must be an "
            f"async generator of events or an async function returning a sequence of them.",
        )
    for position, event in enumerate(produced):
        check_stream_event(event, position, input_index)
        yield event


def _require_lifecycle(response: ModelResponse, input_index: int) -> None:
    bad = unstreamable_item(response.output)
    if bad is not None:
        position, kind = bad
        raise InvalidModelStep(
            "invalid_stream_events",
            input_index,
            f"output item {position + 1} has type {kind!r}, which has no automatic "
            f"streaming lifecycle (only assistant messages, reasoning, function calls and "
            f"apply-patch calls do). For a streamed run, script this step with "
            f"ModelStep.stream(events, output=[...]) and give its exact events.",
        )
