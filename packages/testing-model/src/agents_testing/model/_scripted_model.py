"""``ScriptedModel``: an in-memory ``agents.models.interface.Model`` driven by a step script."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Coroutine, Iterable, Sequence
from contextlib import aclosing
from inspect import signature
from typing import TYPE_CHECKING, Any

from agents.items import ModelResponse, TResponseStreamEvent
from agents.models.interface import Model
from pydantic import BaseModel

# Only the class is made at import: the modules it works with are imported where they are
# first needed (for the most part when a model is made or first called), so that
# `from agents.testing import ScriptedModel` costs no more than the SDK's own.
if TYPE_CHECKING:
    from agents.model_settings import ModelSettings
    from agents.retry import ModelRetryAdvice, ModelRetryAdviceRequest
    from agents.usage import Usage

    from agents_testing.core import Entry

    from ._call import ModelCall
    from ._faults.hooks import AttachedFaults
    from ._request import ModelRequest
    from ._script.follow import ModelScript
    from ._step import ModelStep, QueuedStep, StepInput
    from ._tracing.generation import GenerationTrace

__all__ = ["ScriptedModel"]


class ScriptedModel(Model):
    """A deterministic model that answers each call with the next scripted step.

    Steps are consumed strictly in order, one per model call, whether the runner
    calls ``get_response`` (``Runner.run``) or ``stream_response``
    (``Runner.run_streamed``); an ``any_order(...)`` group is one position whose members
    answer calls in any order (each call gets the first pending member whose ``match``
    accepts it). Every call is recorded before its step is resolved.
    Apart from the constructor, the inspection properties, ``enqueue``, ``extend``,
    ``set_default_usage`` and ``assert_complete``, all methods are the ``Model`` base
    class's.

    Made bare, it behaves as the SDK's own ``ScriptedModel``. ``extra_checks=True`` (the
    ``scripted_model`` fixture's default) adds checks of ours: output items given as
    dicts are checked when their step is queued, response fields next to an error or
    a responder are refused, and a request value that cannot be copied raises
    ``UncopyableValue`` naming where it sat (bare: the value's own exception).

    ``stream_all_items=True`` streams hosted and built-in tool calls (web and file
    search, code interpreter, image generation, MCP, custom tool, computer, shell,
    local shell, tool search) with the events the Responses API sends for them; by
    default a streamed call refuses them. Tool calls built without ``call_id`` get
    ``call_1``, ``call_2``, ... in the order this model serves them.

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
        extra_checks: bool = False,
    ) -> None:
        from agents_testing.core import SnapshotCache, compat

        from ._default_usage import one_request
        from ._errors import invalid_argument
        from ._items.call_ids import CallIdAllocator
        from ._request import ModelRequest
        from ._script.follow import ModelScript
        from ._script.validation import describe

        for name, value in (
            ("emit_traces", emit_traces),
            ("stream_all_items", stream_all_items),
            ("extra_checks", extra_checks),
        ):
            if not isinstance(value, bool):
                raise invalid_argument(name, "a bool", describe(value))
        if check_tool_calls is not None and not isinstance(check_tool_calls, bool):
            raise invalid_argument("check_tool_calls", "a bool or None", describe(check_tool_calls))
        self._extra_checks = extra_checks
        self._stream_all_items = stream_all_items
        self._call_ids = CallIdAllocator()
        # None is the default: off for a model made directly, the test's setting for one
        # made by the scripted_model fixture.
        self._check_tool_calls = check_tool_calls is True
        self._default_usage = one_request()
        if default_usage is not None:
            self._default_usage = _checked_default(default_usage, "default_usage")
        # The script engine, held rather than inherited: the class stays cheap to import.
        # A call's arguments as one value; imported with the first model, not the class.
        self._request: type[ModelRequest] = ModelRequest
        self._follow: ModelScript = ModelScript(self._noted(_normalize_all(steps, extra_checks)))
        self._calls: list[ModelCall] = []
        self._cache = SnapshotCache()
        self._has_raw_usage = compat.model_response_has_raw_usage()
        self._emit_traces = emit_traces
        # The last scripted error with its advice, and the scripted error being raised.
        self._advice: tuple[BaseException, ModelRetryAdvice] | None = None
        self._scripted_failure: BaseException | None = None
        # Faults injected at given calls (FaultSchedule.attach); None for a plain script.
        self._faults: AttachedFaults | None = None

    # -- scripting -----------------------------------------------------------------

    def enqueue(self, step: StepInput) -> None:
        """Validate one step or ``any_order`` group (input index 0) and queue it at the end."""
        from ._script.normalize import normalize_entry
        from ._step import QueuedStep

        entry = self._noted([normalize_entry(step, 0, extra_checks=self._extra_checks)])[0]
        if isinstance(entry, QueuedStep):
            self._follow._script.append(entry)
        else:
            self._follow._script.append_entry(entry)

    def extend(self, steps: Iterable[StepInput]) -> None:
        """Validate ``steps`` (indices relative to this sequence) and queue them in order.

        Nothing is queued when any of them is invalid.
        """
        self._follow._script.extend(self._noted(_normalize_all(steps, self._extra_checks)))

    def set_default_usage(self, usage: Usage | None) -> None:
        """The usage reported by later calls whose step leaves usage to the model.

        Such a step has no usage, or the all-zero ``Usage()``; ``None`` restores the
        default of one request with no tokens. The usage is copied now.
        """
        from ._default_usage import one_request

        self._default_usage = (
            one_request() if usage is None else _checked_default(usage, "set_default_usage(usage)")
        )

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
        return self._follow.remaining_steps

    @property
    def pending_steps(self) -> tuple[ModelStep, ...]:
        """Copies of the steps not consumed yet, in script order (group members included).

        Changing a returned step changes nothing queued; responders, matchers and error
        objects are the ones the test scripted.
        """
        return self._follow.pending_steps

    def assert_complete(self) -> None:
        """Raise :class:`UnconsumedModelSteps` if any scripted step was never used (and
        ``UnusedModelFaults`` if an attached ``FaultSchedule`` has faults left)."""
        self._follow.assert_complete()
        if self._faults is not None:
            self._faults.assert_complete()

    # -- the Model interface ---------------------------------------------------------

    def get_response(self, *args: Any, **kwargs: Any) -> Coroutine[Any, Any, ModelResponse]:
        return self._respond(self._request(*args, **kwargs))

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[TResponseStreamEvent]:
        return self._stream(self._request(*args, **kwargs))

    async def _respond(self, request: ModelRequest) -> ModelResponse:
        call, index = self._record(request, streamed=False)
        trace = self._trace(call)
        try:
            queued = await self._answer_step(call, index, trace)
            step = queued.step
            with trace.current():
                output = self._output(queued, request.input)
                if self._check_tool_calls:
                    from ._tool_check.check import check_tool_calls

                    check_tool_calls(call, index, output)
                usage = self._usage(queued)
                values: dict[str, Any] = {
                    "output": output,
                    "usage": usage,
                    "response_id": step.response_id,
                    "request_id": step.request_id,
                }
                if self._has_raw_usage:
                    raw_usage = _raw_usage_if_asked(step, request.model_settings)
                    if raw_usage is not None:
                        from agents_testing.core import detach

                        values["raw_usage"] = detach(raw_usage)
                if queued.ready is None:
                    # Dict items are validated into items here, as the SDK's double does.
                    response = ModelResponse(**values)
                    call._answered(response.output)
                else:
                    response = _validated_response(values)
                    call._answered_with(queued.answer)
                trace.finish_response(response.output, usage)
                return response
        except BaseException as error:
            self._failed(error, trace)
            raise
        finally:
            trace.end()

    def get_retry_advice(self, request: ModelRetryAdviceRequest) -> ModelRetryAdvice | None:
        """The advice scripted with ``ModelStep.raise_error`` for exactly that error.

        Each call returns a fresh copy. Only the most recent failure can carry advice: a
        later failure of any other kind (a responder or stream factory raising, for one)
        clears it. The error of a fault (``rate_limit()``, ...) carries its own advice.
        """
        known = self._advice
        if known is not None and known[0] is request.error:
            from agents_testing.core import detach

            return detach(known[1])
        from ._faults.hooks import fault_advice

        return fault_advice(request)

    async def _stream(self, request: ModelRequest) -> AsyncIterator[TResponseStreamEvent]:
        call, index = self._record(request, streamed=True)
        trace = self._trace(call)
        try:
            queued = await self._answer_step(call, index, trace)
            step = queued.step
            if step.stream_events is not None:
                from openai.types.responses import ResponseCompletedEvent

                from ._script.resolve import strict_events
                from ._tool_check.check import check_stream_event

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
                from ._streaming.lifecycle import lifecycle_events

                output = self._output(queued, request.input)
                self._check_streamable(output, queued.input_index)
                if self._check_tool_calls:
                    from ._tool_check.check import check_tool_calls

                    check_tool_calls(call, index, output)
                if queued.ready is None:
                    call._answered(output)
                else:
                    call._answered_with(queued.answer)
                usage = self._usage(queued)
                # Built in one go, then handed out: the runner does a lot of work between
                # two events, and building each one on demand would run on cold caches.
                lifecycle = lifecycle_events(
                    step.response_id,
                    output,
                    usage,
                    step.request_id,
                    _raw_usage_if_asked(step, request.model_settings),
                    all_items=self._stream_all_items,
                    owned=True,
                )
            for event in lifecycle:
                yield event
            trace.finish_response(output, usage)
        except BaseException as error:
            self._failed(error, trace)
            raise
        finally:
            trace.end()

    # -- internals -----------------------------------------------------------------

    def _record(self, request: ModelRequest, *, streamed: bool) -> tuple[ModelCall, int]:
        from ._call import ModelCall

        # A value that cannot be copied raises here, before anything is recorded.
        call = ModelCall._record(
            self._cache,
            request,
            streamed=streamed,
            previous_settings=self._calls[-1]._model_settings if self._calls else None,
            wrap_errors=self._extra_checks,
        )
        index = len(self._calls)
        self._calls.append(call)
        return call, index

    async def _answer_step(self, call: ModelCall, index: int, trace: GenerationTrace) -> QueuedStep:
        """The step that answers the call (what its responder returned, when it has one);
        a scripted error is raised."""
        with trace.current():
            queued = (
                self._answering(call, index)
                if self._faults is None
                else await self._faults._answer(self, call, index)
            )
            if queued.step.responder is not None:
                queued = await self._resolve(call, queued)
            if queued.step.error is not None:
                raise self._failure(queued.step)
        return queued

    def _answering(self, call: ModelCall, index: int) -> QueuedStep:
        # Synchronous, with no await between recording and taking: concurrent runs
        # sharing this model consume steps in the order their calls arrive.
        self._admit(call)
        return self._follow._take((call, index))

    async def _resolve(self, call: ModelCall, queued: QueuedStep) -> QueuedStep:
        from ._script.resolve import resolve_step

        resolved = await resolve_step(call, queued, extra_checks=self._extra_checks)
        # Explicit call ids of a responder's answer are taken from now on too.
        self._call_ids.note(resolved.step.output)
        return resolved

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
        trace.record_error(error)

    def _noted(
        self, entries: list[QueuedStep | Entry[QueuedStep]]
    ) -> list[QueuedStep | Entry[QueuedStep]]:
        from ._step import QueuedStep

        # Explicit call ids anywhere in the script, group members included, are taken.
        for entry in entries:
            members = (entry,) if isinstance(entry, QueuedStep) else entry.pending()
            for one in members:
                self._call_ids.note(one.step.output)
        return entries

    def _output(self, queued: QueuedStep, request_input: object) -> list[Any]:
        """The step's output as this call answers with it: dict apply-patch calls
        converted (which may fail, as the SDK's double fails), call ids assigned."""
        if queued.ready is not None:
            return list(queued.ready)
        items: Sequence[Any] = queued.step.output
        if any(isinstance(item, dict) for item in items):
            from ._script.validation import apply_patch_item

            items = [
                apply_patch_item(item)
                if isinstance(item, dict) and item.get("type") == "apply_patch_call"
                else item
                for item in items
            ]
        return self._call_ids.assign(items, request_input)

    def _usage(self, queued: QueuedStep) -> Usage:
        # A queued step answers once, so its own (private) usage snapshot can go out.
        if queued.usage is not None:
            return queued.usage
        from ._streaming.lifecycle import copy_usage

        return copy_usage(self._default_usage)

    def _check_streamable(self, output: Sequence[Any], input_index: int) -> None:
        from ._errors import unstreamable_item
        from ._streaming.lifecycle import unstreamable_item as first_unstreamable
        from ._streaming.tools import TOOL_LIFECYCLE_TYPES

        bad = first_unstreamable(output, all_items=self._stream_all_items)
        if bad is None:
            return
        position, class_name, kind = bad
        hint = ""
        if not self._stream_all_items and kind in TOOL_LIFECYCLE_TYPES:
            hint = (
                " Or make the model with ScriptedModel(..., stream_all_items=True) to "
                "stream it as the provider does."
            )
        raise unstreamable_item(class_name, position, input_index, hint)

    def _trace(self, call: ModelCall) -> GenerationTrace:
        from ._streaming.lifecycle import SCRIPTED_MODEL_NAME
        from ._tracing.generation import NO_TRACE, start_generation

        if not self._emit_traces:
            return NO_TRACE
        return start_generation(
            enabled=self._emit_traces,
            include_data=call.tracing.include_data(),
            call=call,
            model_name=SCRIPTED_MODEL_NAME,
        )


# help() and inspect.signature() show the interface's own arguments.
ScriptedModel.get_response.__signature__ = signature(Model.get_response)  # type: ignore[attr-defined]
ScriptedModel.stream_response.__signature__ = signature(Model.stream_response)  # type: ignore[attr-defined]

_RESPONSE_DEFAULTS = {
    field.name: field.default
    for field in dataclasses.fields(ModelResponse)
    if field.default is not dataclasses.MISSING
}


def _validated_response(values: dict[str, Any]) -> ModelResponse:
    """A ``ModelResponse`` of values that are valid already (items and usage checked when
    queued), made without validating them again: the runner asks for one per call."""
    response = object.__new__(ModelResponse)
    response.__dict__.update(_RESPONSE_DEFAULTS)
    response.__dict__.update(values)
    return response


def _checked_default(usage: object, argument: str) -> Usage:
    from agents.usage import Usage

    from ._errors import invalid_argument
    from ._script.validation import ValueProblem, checked_usage, describe

    try:
        return checked_usage(usage, argument)
    except ValueProblem as problem:
        # Not a Usage at all: say what it is; a Usage with a bad field: say which field.
        got = str(problem) if isinstance(usage, Usage) else describe(usage)
        raise invalid_argument(argument, "an agents.Usage or None", got) from None


def _normalize_all(
    steps: Iterable[StepInput], extra_checks: bool
) -> list[QueuedStep | Entry[QueuedStep]]:
    from ._errors import invalid_step
    from ._script.normalize import normalize_entry
    from ._script.validation import describe

    if isinstance(steps, (str, bytes, bytearray, dict)) or not isinstance(steps, Iterable):
        raise invalid_step(
            "invalid_input",
            0,
            f"steps must be a sequence of steps, got {describe(steps)}; wrap a single "
            f"step in a list, e.g. ScriptedModel([[assistant_message('...')]]).",
        )
    if isinstance(steps, BaseModel):
        raise invalid_step(
            "invalid_input",
            0,
            "steps must be a sequence of steps, got a single output item; one response is "
            "a list of items, so write ScriptedModel([[item]]).",
        )
    return [
        normalize_entry(step, index, extra_checks=extra_checks) for index, step in enumerate(steps)
    ]


def _raw_usage_if_asked(step: ModelStep, settings: ModelSettings) -> dict[str, Any] | None:
    # Reported only when the run asks for raw usage, as provider models do.
    if step.raw_usage is None or getattr(settings, "preserve_raw_usage", None) is not True:
        return None
    return dict(step.raw_usage)


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
