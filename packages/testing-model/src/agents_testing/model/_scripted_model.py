"""``ScriptedModel``: an in-memory ``agents.models.interface.Model`` driven by a step script."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable
from contextlib import aclosing
from typing import TYPE_CHECKING, Any

from agents.items import ModelResponse, TResponseInputItem, TResponseStreamEvent
from agents.models.interface import Model, ModelTracing
from agents.usage import Usage
from pydantic import BaseModel

from agents_testing.core import SnapshotCache, StepScript, compat, detach, ordinal, safe_repr

from ._call import ModelCall
from ._errors import (
    InvalidModelArgument,
    InvalidModelStep,
    UnconsumedModelSteps,
    UnexpectedModelCall,
)
from ._resolve import resolve_step, strict_events
from ._step import ModelStep, QueuedStep, StepInput, copy_step, normalize_step
from ._streaming import (
    SCRIPTED_MODEL_NAME,
    lifecycle_events,
    unstreamable_item,
)
from ._tracing import GenerationTrace, start_generation
from ._validation import ValueProblem, checked_usage, describe

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
        if not isinstance(emit_traces, bool):
            raise InvalidModelArgument("emit_traces", "a bool", describe(emit_traces))
        self._default_usage: Usage | None = None
        if default_usage is not None:
            try:
                self._default_usage = checked_usage(default_usage, "default_usage")
            except ValueProblem as problem:
                raise InvalidModelArgument(
                    "default_usage", "an agents.Usage or None", str(problem)
                ) from None
        self._script: StepScript[QueuedStep] = StepScript(_normalize_all(steps))
        self._calls: list[ModelCall] = []
        self._cache = SnapshotCache()
        self._emit_traces = emit_traces
        # The last scripted error with its advice, and the scripted error being raised.
        self._advice: tuple[BaseException, ModelRetryAdvice] | None = None
        self._scripted_failure: BaseException | None = None

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

    def __agents_testing_snapshot__(self) -> object:
        """What ``to_snapshot`` records of the model: its calls (as ``model.calls``)."""
        return self.calls

    @property
    def remaining_steps(self) -> int:
        """How many scripted steps have not been consumed yet."""
        return len(self._script)

    def assert_complete(self) -> None:
        """Raise :class:`UnconsumedModelSteps` if any scripted step was never used."""
        self._script.assert_complete(
            lambda pending: UnconsumedModelSteps(
                tuple(copy_step(queued.step) for queued in pending), self._script.consumed
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
        trace = self._trace(call)
        try:
            with trace.current():
                step, auto_id = await resolve_step(call, queued)
                if step.error is not None:
                    raise self._failure(step)
                response = self._model_response(step, auto_id, index, model_settings)
                trace.finish_response(response.output, response.usage)
                return response
        except BaseException as error:
            self._failed(error, trace)
            raise
        finally:
            trace.end()

    def get_retry_advice(self, request: ModelRetryAdviceRequest) -> ModelRetryAdvice | None:
        """The advice scripted with ``ModelStep.raise_error`` for exactly that error.

        Only the most recent failure can carry advice: a later failure of any other kind
        (a responder or stream factory raising, for one) clears it.
        """
        known = self._advice
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
        trace = self._trace(call)
        try:
            with trace.current():
                step, auto_id = await resolve_step(call, queued)
                if step.error is not None:
                    raise self._failure(step)
            if step.stream_events is not None:
                async with aclosing(strict_events(step, call, queued.input_index, trace)) as events:
                    async for event in events:
                        yield event
                return
            with trace.current():
                response = self._model_response(step, auto_id, index, model_settings)
                output = _streamable_output(response, queued.input_index)
                # Built in one go, then handed out: the runner does a lot of work between
                # two events, and building each one on demand would run on cold caches.
                lifecycle = list(
                    lifecycle_events(
                        response.response_id,
                        output,
                        response.usage,
                        response.request_id,
                        _raw_usage_if_asked(step, model_settings),
                    )
                )
            for event in lifecycle:
                yield event
            trace.finish_response(output, response.usage)
        except BaseException as error:
            self._failed(error, trace)
            raise
        finally:
            trace.end()

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

    def _failure(self, step: ModelStep) -> Exception:
        error = step.error
        assert error is not None
        self._scripted_failure = error
        self._advice = None if step.retry_advice is None else (error, step.retry_advice)
        return error

    def _failed(self, error: BaseException, trace: GenerationTrace) -> None:
        # Advice belongs to the scripted error it came with; any other failure clears it.
        if error is not self._scripted_failure:
            self._advice = None
        self._scripted_failure = None
        if not isinstance(error, (GeneratorExit, asyncio.CancelledError)):
            trace.record_error(error)

    def _model_response(
        self, step: ModelStep, auto_id: bool, index: int, settings: ModelSettings
    ) -> ModelResponse:
        if step.usage is not None:
            usage = detach(step.usage)
        elif self._default_usage is not None:
            usage = detach(self._default_usage)
        else:
            usage = Usage(requests=1)
        response_id = step.response_id
        if response_id is None and auto_id:
            response_id = f"resp_scripted_{ordinal(index)}"
        extra: dict[str, Any] = {}
        raw_usage = _raw_usage_if_asked(step, settings)
        if _HAS_RAW_USAGE and raw_usage is not None:
            extra["raw_usage"] = raw_usage
        return ModelResponse(
            output=list(step.output),
            usage=usage,
            response_id=response_id,
            request_id=step.request_id,
            **extra,
        )

    def _trace(self, call: ModelCall) -> GenerationTrace:
        return start_generation(
            enabled=self._emit_traces and not call.tracing.is_disabled(),
            include_data=call.tracing.include_data(),
            call=call,
            model_name=SCRIPTED_MODEL_NAME,
        )


def _normalize_all(steps: Iterable[StepInput]) -> list[QueuedStep]:
    if isinstance(steps, (str, bytes, bytearray, dict)) or not isinstance(steps, Iterable):
        raise InvalidModelStep(
            "invalid_input",
            0,
            f"steps must be a sequence of steps, got {describe(steps)}; wrap a single "
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


def _raw_usage_if_asked(step: ModelStep, settings: ModelSettings) -> dict[str, Any] | None:
    # Reported only when the run asks for raw usage, as provider models do.
    if step.raw_usage is None or getattr(settings, "preserve_raw_usage", None) is not True:
        return None
    return detach(dict(step.raw_usage))


def _streamable_output(response: ModelResponse, input_index: int) -> list[Any]:
    bad = unstreamable_item(response.output)
    if bad is not None:
        position, kind = bad
        raise InvalidModelStep(
            "invalid_stream_events",
            input_index,
            f"output item {position + 1} has type {safe_repr(kind, 40)}, which has no "
            f"automatic streaming lifecycle (only assistant messages, reasoning, function "
            f"calls and apply-patch calls do). For a streamed run, script this step with "
            f"ModelStep.stream(events, output=[...]) and give its exact events.",
        )
    return list(response.output)
