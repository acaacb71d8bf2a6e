"""``ScriptedModel``: an in-memory ``agents.models.interface.Model`` driven by a step script."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterator, Iterable
from contextlib import aclosing
from typing import TYPE_CHECKING, Any

from agents.items import ModelResponse, TResponseInputItem, TResponseStreamEvent
from agents.models.interface import Model, ModelTracing
from agents.usage import Usage
from openai.types.responses import ResponseCompletedEvent
from pydantic import BaseModel

from agents_testing.core import (
    Entry,
    SnapshotCache,
    StepScript,
    compat,
    detach,
    ordinal,
    safe_repr,
)

from ._call import ModelCall
from ._errors import (
    InvalidModelArgument,
    InvalidModelStep,
    ModelCallMatcherError,
    UnconsumedModelSteps,
    UnexpectedModelCall,
)
from ._items.call_ids import CallIdAllocator
from ._script.normalize import normalize_entry, responder_signature_known
from ._script.resolve import resolve_step, strict_events
from ._script.validation import ValueProblem, checked_usage, describe
from ._step import ModelStep, QueuedStep, StepInput, copy_step
from ._streaming.lifecycle import (
    SCRIPTED_MODEL_NAME,
    lifecycle_events,
    unstreamable_item,
)
from ._streaming.tools import TOOL_LIFECYCLE_TYPES
from ._tool_check.check import check_stream_event, check_tool_calls
from ._tracing.generation import GenerationTrace, start_generation

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
    (``Runner.run_streamed``); an ``any_order(...)`` group is one position whose members
    answer calls in any order (each call gets the first pending member whose ``match``
    accepts it). Every call is recorded before its step is resolved.
    Apart from the constructor, the inspection properties, ``enqueue``, ``extend``
    and ``assert_complete``, all methods are the ``Model`` base class's.

    ``stream_all_items=True`` streams hosted and built-in tool calls (web and file
    search, code interpreter, image generation, MCP, custom tool, computer, shell,
    local shell, tool search) with the events the Responses API sends for them; by
    default a streamed call refuses them, as it always has. Tool calls built without
    ``call_id`` get ``call_1``, ``call_2``, ... in the order this model serves them.

    With ``check_tool_calls=True`` every scripted ``function_call`` is checked against
    the tools and handoffs of the call it answers (name and JSON-schema-valid
    arguments), and the call fails with ``InvalidScriptedToolCall`` when it does not fit.
    """

    def __init__(
        self,
        steps: Iterable[StepInput] = (),
        *,
        emit_traces: bool = False,
        default_usage: Usage | None = None,
        stream_all_items: bool = False,
        check_tool_calls: bool | None = None,
    ) -> None:
        if not isinstance(emit_traces, bool):
            raise InvalidModelArgument("emit_traces", "a bool", describe(emit_traces))
        if not isinstance(stream_all_items, bool):
            raise InvalidModelArgument("stream_all_items", "a bool", describe(stream_all_items))
        if check_tool_calls is not None and not isinstance(check_tool_calls, bool):
            raise InvalidModelArgument(
                "check_tool_calls", "a bool or None", describe(check_tool_calls)
            )
        self._stream_all_items = stream_all_items
        self._call_ids = CallIdAllocator()
        # None is the default: off for a model made directly, the test's setting for one
        # made by the scripted_model fixture.
        self._check_tool_calls = check_tool_calls is True
        self._default_usage: Usage | None = None
        if default_usage is not None:
            try:
                self._default_usage = checked_usage(default_usage, "default_usage")
            except ValueProblem as problem:
                raise InvalidModelArgument(
                    "default_usage", "an agents.Usage or None", str(problem)
                ) from None
        self._script: StepScript[QueuedStep] = StepScript(self._noted(_normalize_all(steps)))
        self._calls: list[ModelCall] = []
        self._cache = SnapshotCache()
        self._emit_traces = emit_traces
        # The last scripted error with its advice, and the scripted error being raised.
        self._advice: tuple[BaseException, ModelRetryAdvice] | None = None
        self._scripted_failure: BaseException | None = None

    # -- scripting -----------------------------------------------------------------

    def enqueue(self, step: StepInput) -> None:
        """Validate one step or ``any_order`` group (input index 0) and queue it at the end."""
        entry = self._noted([normalize_entry(step, 0)])[0]
        if isinstance(entry, QueuedStep):
            self._script.append(entry)
        else:
            self._script.append_entry(entry)

    def extend(self, steps: Iterable[StepInput]) -> None:
        """Validate ``steps`` (indices relative to this sequence) and queue them in order.

        Nothing is queued when any of them is invalid.
        """
        self._script.extend(self._noted(_normalize_all(steps)))

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
        """How many scripted steps have not been consumed yet (group members count one each)."""
        return len(self._script)

    @property
    def pending_steps(self) -> tuple[ModelStep, ...]:
        """Copies of the steps not consumed yet, in script order (group members included).

        Changing a returned step changes nothing queued; responders, matchers and error
        objects are the ones the test scripted.
        """
        return tuple(copy_step(queued.step) for queued in self._script)

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
                response = self._model_response(step, auto_id, index, model_settings, input)
                if self._check_tool_calls:
                    check_tool_calls(call, index, response.output)
                call._answered(response.output)
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
                        if self._check_tool_calls:
                            with trace.current():
                                check_stream_event(call, index, event)
                        if isinstance(event, ResponseCompletedEvent):
                            call._answered(event.response.output)
                        yield event
                return
            with trace.current():
                response = self._model_response(step, auto_id, index, model_settings, input)
                if self._check_tool_calls:
                    check_tool_calls(call, index, response.output)
                output = _streamable_output(
                    response, queued.input_index, all_items=self._stream_all_items
                )
                call._answered(output)
                # Built in one go, then handed out: the runner does a lot of work between
                # two events, and building each one on demand would run on cold caches.
                lifecycle = list(
                    lifecycle_events(
                        response.response_id,
                        output,
                        response.usage,
                        response.request_id,
                        _raw_usage_if_asked(step, model_settings),
                        all_items=self._stream_all_items,
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
        self._admit(call)
        return call, index, self._take(call, index)

    def _take(self, call: ModelCall, index: int) -> QueuedStep:
        head = self._script.peek()
        if head is None:
            raise UnexpectedModelCall(call, index)
        if head.step.match is None and not self._script.in_group():
            self._script.take()
            return head
        # The first pending candidate whose matcher accepts answers the call; members of a
        # group without a matcher accept anything, in the order the test gave them.
        candidates = self._script.candidates()
        for queued in candidates:
            if _accepts(queued, call):
                self._script.take_candidate(queued)
                return queued
        raise ModelCallMatcherError(
            call,
            index,
            head.input_index,
            tuple(copy_step(queued.step) for queued in candidates),
            self._script.in_group(),
        )

    def _admit(self, call: ModelCall) -> None:
        """Check a recorded call before it takes a step; raising leaves the step in place."""

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

    def _noted(
        self, entries: list[QueuedStep | Entry[QueuedStep]]
    ) -> list[QueuedStep | Entry[QueuedStep]]:
        # Explicit call ids anywhere in the script, group members included, are taken.
        for entry in entries:
            members = (entry,) if isinstance(entry, QueuedStep) else entry.pending()
            for one in members:
                self._call_ids.note(one.step.output)
        return entries

    def _model_response(
        self,
        step: ModelStep,
        auto_id: bool,
        index: int,
        settings: ModelSettings,
        request_input: str | list[TResponseInputItem],
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
            output=self._call_ids.assign(step.output, request_input),
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


def _normalize_all(steps: Iterable[StepInput]) -> list[QueuedStep | Entry[QueuedStep]]:
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
    return [normalize_entry(step, index) for index, step in enumerate(steps)]


def _accepts(queued: QueuedStep, call: ModelCall) -> bool:
    match = queued.step.match
    if match is None:
        return True
    try:
        verdict = match(call)
    except TypeError as error:
        if responder_signature_known(match):
            raise  # the matcher's own error, from inside it
        raise InvalidModelStep(
            "invalid_matcher",
            queued.input_index,
            "calling match with the ModelCall failed; a matcher takes the ModelCall as its "
            "only argument.",
        ) from error
    if inspect.isawaitable(verdict):
        close = getattr(verdict, "close", None)
        if callable(close):
            close()  # never awaited: closing it avoids a "never awaited" warning
        raise InvalidModelStep(
            "invalid_matcher",
            queued.input_index,
            "match returned an awaitable; a matcher must answer at once (a plain function "
            "returning False to reject the call).",
        )
    # As for sandbox matchers, only False rejects: None, 0 or any other value accepts.
    return verdict is not False


def _raw_usage_if_asked(step: ModelStep, settings: ModelSettings) -> dict[str, Any] | None:
    # Reported only when the run asks for raw usage, as provider models do.
    if step.raw_usage is None or getattr(settings, "preserve_raw_usage", None) is not True:
        return None
    return detach(dict(step.raw_usage))


def _streamable_output(response: ModelResponse, input_index: int, *, all_items: bool) -> list[Any]:
    bad = unstreamable_item(response.output, all_items=all_items)
    if bad is not None:
        position, kind = bad
        if not all_items and kind in TOOL_LIFECYCLE_TYPES:
            hint = (
                "Make the model with ScriptedModel(..., stream_all_items=True) to stream it "
                "as the provider does, or script this step with "
                "ModelStep.stream(events, output=[...]) and give its exact events."
            )
        else:
            hint = (
                "For a streamed run, script this step with "
                "ModelStep.stream(events, output=[...]) and give its exact events."
            )
        raise InvalidModelStep(
            "invalid_stream_events",
            input_index,
            f"output item {position + 1} has type {safe_repr(kind, 40)}, which has no "
            f"automatic streaming lifecycle (only assistant messages, reasoning, function "
            f"calls and apply-patch calls do). {hint}",
        )
    return list(response.output)
