"""``emit_traces``: generation spans of scripted calls, for tests of tracing itself."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import pytest
from agents import Agent, ModelBehaviorError, ModelSettings, ModelTracing, RunConfig
from agents.testing import (
    ModelCall,
    ModelStep,
    ScriptedModel,
    UnexpectedModelCall,
    assistant_message,
)
from agents.tracing import (
    custom_span,
    get_current_span,
    trace,
)
from agents.tracing.span_data import GenerationSpanData
from agents.tracing.spans import Span
from openai.types.responses import Response, ResponseCompletedEvent, ResponseCreatedEvent

from agents_testing.model import InvalidModelArgument

from .._span_recorder import Recorder


def generations(recorder: Recorder) -> list[GenerationSpanData]:
    return [
        span.span_data for span in recorder.spans if isinstance(span.span_data, GenerationSpanData)
    ]


@pytest.mark.asyncio
async def test_emit_traces_records_a_generation_span_per_call(
    recorder: Recorder, run: Any, streamed: bool
) -> None:
    model = ScriptedModel([[assistant_message("Traced.")]], emit_traces=True)

    await run(
        Agent(name="Assistant", model=model),
        "Hi",
        streamed=streamed,
        run_config=RunConfig(tracing_disabled=False, trace_include_sensitive_data=True),
    )

    (span,) = generations(recorder)
    assert span.model == "scripted-model"
    assert span.input == [{"content": "Hi", "role": "user"}]
    assert span.output is not None
    assert span.output[0]["content"][0]["text"] == "Traced."


@pytest.mark.asyncio
async def test_emit_traces_leaves_out_data_when_sensitive_data_is_off(
    recorder: Recorder, run: Any, streamed: bool
) -> None:
    model = ScriptedModel([[assistant_message("Quiet.")]], emit_traces=True)

    await run(
        Agent(name="Assistant", model=model),
        "Hi",
        streamed=streamed,
        run_config=RunConfig(tracing_disabled=False, trace_include_sensitive_data=False),
    )

    (span,) = generations(recorder)
    assert span.input is None
    assert span.output is None


@pytest.mark.asyncio
async def test_no_generation_spans_without_emit_traces(
    recorder: Recorder, run: Any, streamed: bool
) -> None:
    model = ScriptedModel([[assistant_message("Untraced.")]])

    await run(
        Agent(name="Assistant", model=model),
        "Hi",
        streamed=streamed,
        run_config=RunConfig(tracing_disabled=False),
    )

    assert generations(recorder) == []
    assert recorder.spans, "the run itself was traced"


@pytest.mark.asyncio
async def test_a_scripted_error_marks_its_generation_span(
    recorder: Recorder, run: Any, streamed: bool
) -> None:
    model = ScriptedModel([ModelStep.raise_error(RuntimeError("down"))], emit_traces=True)

    with pytest.raises(RuntimeError, match="down"):
        await run(
            Agent(name="Assistant", model=model),
            "Hi",
            streamed=streamed,
            run_config=RunConfig(tracing_disabled=False),
        )

    assert _the_generation(recorder).error == {
        "message": "Error",
        "data": {"name": "RuntimeError", "message": "down"},
    }


def _created() -> ResponseCreatedEvent:
    return ResponseCreatedEvent(
        type="response.created",
        sequence_number=0,
        response=Response(
            id="resp_1",
            object="response",
            created_at=0.0,
            model="scripted-model",
            output=[],
            parallel_tool_calls=False,
            tool_choice="auto",
            tools=[],
            status="in_progress",
        ),
    )


def _the_generation(recorder: Recorder) -> Span[Any]:
    (span,) = [span for span in recorder.spans if isinstance(span.span_data, GenerationSpanData)]
    return span


@pytest.mark.asyncio
async def test_a_failing_responder_marks_its_generation_span(
    recorder: Recorder, run: Any, streamed: bool
) -> None:
    def responder(call: ModelCall) -> Any:
        raise LookupError("no answer for this request")

    model = ScriptedModel([ModelStep.respond(responder)], emit_traces=True)

    with pytest.raises(LookupError):
        await run(
            Agent(name="Assistant", model=model),
            "Hi",
            streamed=streamed,
            run_config=RunConfig(tracing_disabled=False),
        )

    assert _the_generation(recorder).error == {
        "message": "Error",
        "data": {"name": "LookupError", "message": "no answer for this request"},
    }


@pytest.mark.asyncio
async def test_a_failing_stream_factory_marks_its_generation_span(
    recorder: Recorder, run: Any
) -> None:
    async def factory(call: ModelCall) -> AsyncIterator[Any]:
        yield _created()
        raise LookupError("the stream broke")

    model = ScriptedModel([ModelStep.stream(factory)], emit_traces=True)

    with pytest.raises(LookupError):
        await run(
            Agent(name="Assistant", model=model),
            "Hi",
            streamed=True,
            run_config=RunConfig(tracing_disabled=False),
        )

    assert _the_generation(recorder).error == {
        "message": "Error",
        "data": {"name": "LookupError", "message": "the stream broke"},
    }


@pytest.mark.asyncio
async def test_the_span_is_current_only_while_the_stream_factory_is_advanced(
    recorder: Recorder,
) -> None:
    seen_by_factory: list[Any] = []
    seen_between_events: list[Any] = []

    async def factory(call: ModelCall) -> AsyncIterator[Any]:
        for _ in range(2):
            seen_by_factory.append(get_current_span())
            yield _created()

    model = ScriptedModel([ModelStep.stream(factory)], emit_traces=True)

    with trace("outer"), custom_span("runner work") as outer:
        stream = model.stream_response(
            None,
            "hi",
            ModelSettings(),
            [],
            None,
            [],
            ModelTracing.ENABLED,
            previous_response_id=None,
            conversation_id=None,
            prompt=None,
        )
        async for _ in stream:
            seen_between_events.append(get_current_span())
        after = get_current_span()

    generation = _the_generation(recorder)
    assert [span.span_id for span in seen_by_factory] == [generation.span_id] * 2
    assert seen_between_events == [outer, outer]
    assert after is outer
    assert generation.parent_id == outer.span_id


def test_emit_traces_false_is_the_default_and_must_be_a_bool() -> None:
    with pytest.raises(InvalidModelArgument, match="emit_traces"):
        ScriptedModel(emit_traces="true")  # type: ignore[arg-type]


# -- what a failed call records --------------------------------------------------------------


def _failed(name: str, message: str) -> dict[str, Any]:
    return {"message": "Error", "data": {"name": name, "message": message}}


_SENSITIVE = RunConfig(tracing_disabled=False, trace_include_sensitive_data=True)
_REDACTED = RunConfig(tracing_disabled=False, trace_include_sensitive_data=False)


class Secret(RuntimeError):
    """An error whose text is secret: it counts how often it is turned into text."""

    rendered = 0

    def __str__(self) -> str:
        type(self).rendered += 1
        return "sk-secret-value"


class Unrenderable(RuntimeError):
    def __str__(self) -> str:
        raise KeyboardInterrupt  # even a BaseException from __str__ is contained


async def _raise(stream: AsyncIterator[Any]) -> None:
    async for _ in stream:
        pass


async def _call_directly(model: ScriptedModel, tracing: ModelTracing, *, streamed: bool) -> None:
    """One call of the model itself, in a trace of its own: no runner involved."""
    request: tuple[Any, ...] = (None, "hi", ModelSettings(), [], None, [], tracing)
    with trace("outer"):
        if streamed:
            await _raise(model.stream_response(*request))
        else:
            await model.get_response(*request)


@pytest.mark.parametrize("extra_checks", [False, True], ids=["bare", "extra_checks"])
@pytest.mark.asyncio
async def test_a_failed_call_records_the_error_class_and_text(
    recorder: Recorder, run: Any, streamed: bool, extra_checks: bool
) -> None:
    model = ScriptedModel(
        [ModelStep.raise_error(LookupError("no route"))],
        emit_traces=True,
        extra_checks=extra_checks,
    )

    with pytest.raises(LookupError):
        await run(Agent(name="A", model=model), "Hi", streamed=streamed, run_config=_SENSITIVE)

    assert _the_generation(recorder).error == _failed("LookupError", "no route")


@pytest.mark.parametrize("extra_checks", [False, True], ids=["bare", "extra_checks"])
@pytest.mark.asyncio
async def test_without_sensitive_data_the_error_text_is_redacted(
    recorder: Recorder, run: Any, streamed: bool, extra_checks: bool
) -> None:
    """Shows MOD-11."""
    model = ScriptedModel(
        [ModelStep.raise_error(Secret())], emit_traces=True, extra_checks=extra_checks
    )

    with pytest.raises(Secret):
        await run(Agent(name="A", model=model), "Hi", streamed=streamed, run_config=_REDACTED)

    assert _the_generation(recorder).error == _failed("Secret", "Error details are redacted.")
    exported = [span.export() for span in generations_spans(recorder)]
    assert "sk-secret-value" not in str(exported)


@pytest.mark.parametrize("tracing", [ModelTracing.ENABLED_WITHOUT_DATA, ModelTracing.DISABLED])
@pytest.mark.parametrize("streamed", [False, True], ids=["get_response", "stream_response"])
@pytest.mark.asyncio
async def test_a_redacted_error_is_never_turned_into_text(
    recorder: Recorder, tracing: ModelTracing, streamed: bool
) -> None:
    model = ScriptedModel([ModelStep.raise_error(Secret())], emit_traces=True)
    Secret.rendered = 0

    with pytest.raises(Secret):
        await _call_directly(model, tracing, streamed=streamed)

    assert Secret.rendered == 0
    assert _the_generation(recorder).error == _failed("Secret", "Error details are redacted.")


@pytest.mark.asyncio
@pytest.mark.parametrize("streamed", [False, True], ids=["get_response", "stream_response"])
async def test_an_error_whose_text_cannot_be_made_is_recorded_by_its_class(
    recorder: Recorder, streamed: bool
) -> None:
    error = Unrenderable()
    model = ScriptedModel([ModelStep.raise_error(error)], emit_traces=True)

    with pytest.raises(Unrenderable) as raised:
        await _call_directly(model, ModelTracing.ENABLED, streamed=streamed)

    assert raised.value is error
    assert _the_generation(recorder).error == _failed("Unrenderable", "Unrenderable Unrenderable")


def _failing_steps() -> dict[str, Any]:
    def responder(call: ModelCall) -> Any:
        raise LookupError("responder failed")

    async def async_responder(call: ModelCall) -> Any:
        raise LookupError("async responder failed")

    def broken_factory(call: ModelCall) -> AsyncIterator[Any]:
        raise LookupError("factory failed when created")

    async def failing_factory(call: ModelCall) -> AsyncIterator[Any]:
        yield _created()
        raise LookupError("factory failed when advanced")

    return {
        "responder": ModelStep.respond(responder),
        "async responder": ModelStep.respond(async_responder),
        "factory created": ModelStep.stream(broken_factory),
        "factory advanced": ModelStep.stream(failing_factory),
        "unstreamable item": [_web_search()],
        "apply-patch dict": [{"type": "apply_patch_call", "call_id": ""}],
    }


def _web_search() -> Any:
    from openai.types.responses import ResponseFunctionWebSearch
    from openai.types.responses.response_function_web_search import ActionSearch

    return ResponseFunctionWebSearch(
        id="ws_1",
        type="web_search_call",
        status="completed",
        action=ActionSearch(type="search", query="q"),
    )


_EXPECTED_NAMES = {
    "responder": "LookupError",
    "async responder": "LookupError",
    "factory created": "LookupError",
    "factory advanced": "LookupError",
    "unstreamable item": "UnstreamableOutputItem",
    "apply-patch dict": "ModelBehaviorError",
}


@pytest.mark.parametrize("kind", sorted(_EXPECTED_NAMES))
@pytest.mark.asyncio
async def test_every_failing_call_records_its_error_in_one_shape(
    recorder: Recorder, run: Any, kind: str
) -> None:
    """Shows MOD-11."""
    model = ScriptedModel([_failing_steps()[kind]], emit_traces=True)

    with pytest.raises((LookupError, ModelBehaviorError)) as raised:
        await run(Agent(name="A", model=model), "Hi", streamed=True, run_config=_REDACTED)

    assert type(raised.value).__name__ == _EXPECTED_NAMES[kind]
    assert _the_generation(recorder).error == _failed(
        _EXPECTED_NAMES[kind], "Error details are redacted."
    )


@pytest.mark.asyncio
async def test_a_call_with_no_step_left_is_recorded_on_its_span(
    recorder: Recorder, run: Any, streamed: bool
) -> None:
    model = ScriptedModel(emit_traces=True)

    with pytest.raises(UnexpectedModelCall, match="no scripted steps remain") as raised:
        await run(Agent(name="A", model=model), "Hi", streamed=streamed, run_config=_SENSITIVE)

    assert _the_generation(recorder).error == _failed("UnexpectedModelCall", str(raised.value))


@pytest.mark.asyncio
async def test_closing_the_stream_early_records_nothing(recorder: Recorder) -> None:
    model = ScriptedModel([[assistant_message("one"), assistant_message("two")]], emit_traces=True)

    with trace("outer"):
        stream = model.stream_response(
            None, "hi", ModelSettings(), [], None, [], ModelTracing.ENABLED
        )
        await stream.__anext__()
        await stream.aclose()  # type: ignore[attr-defined]

    assert _the_generation(recorder).error is None


@pytest.mark.asyncio
async def test_a_stream_closed_early_closes_its_factory_inside_the_span(
    recorder: Recorder,
) -> None:
    """Shows MOD-13."""
    seen_when_closed: list[Any] = []

    async def factory(call: ModelCall) -> AsyncIterator[Any]:
        try:
            yield _created()
            yield _created()
        finally:
            seen_when_closed.append(get_current_span())

    model = ScriptedModel([ModelStep.stream(factory)], emit_traces=True)

    with trace("outer"), custom_span("runner work") as outer:
        stream = model.stream_response(
            None, "hi", ModelSettings(), [], None, [], ModelTracing.ENABLED
        )
        await stream.__anext__()
        await stream.aclose()  # type: ignore[attr-defined]
        after = get_current_span()

    generation = _the_generation(recorder)
    assert [span.span_id for span in seen_when_closed] == [generation.span_id]
    assert after is outer
    assert generation.error is None


@pytest.mark.asyncio
async def test_a_factory_failing_to_close_is_recorded(recorder: Recorder) -> None:
    async def factory(call: ModelCall) -> AsyncIterator[Any]:
        try:
            yield _created()
            yield _created()
        finally:
            raise LookupError("could not close")

    model = ScriptedModel([ModelStep.stream(factory)], emit_traces=True)

    with trace("outer"):
        stream = model.stream_response(
            None, "hi", ModelSettings(), [], None, [], ModelTracing.ENABLED
        )
        await stream.__anext__()
        await stream.aclose()  # type: ignore[attr-defined]

    assert _the_generation(recorder).error == _failed("LookupError", "could not close")


# -- model timeouts --------------------------------------------------------------------------

_HAS_TIMEOUT = "timeout" in {field.name for field in dataclasses.fields(ModelSettings)}
needs_timeout = pytest.mark.skipif(
    not _HAS_TIMEOUT, reason="ModelSettings.timeout exists from openai-agents 0.22"
)


def _waits_forever(started: asyncio.Event | None = None) -> ModelStep:
    async def responder(call: ModelCall) -> Any:
        if started is not None:
            started.set()
        await asyncio.Event().wait()

    return ModelStep.respond(responder)


@needs_timeout
@pytest.mark.parametrize(
    ("config", "text"),
    [
        (_SENSITIVE, "Model call timed out after 0.01 seconds."),
        (_REDACTED, "Error details are redacted."),
    ],
    ids=["sensitive", "redacted"],
)
@pytest.mark.asyncio
async def test_a_model_timeout_is_recorded_on_the_span(
    recorder: Recorder, run: Any, streamed: bool, config: RunConfig, text: str
) -> None:
    """Shows MOD-12."""
    from agents.exceptions import ModelTimeoutError

    model = ScriptedModel([_waits_forever()], emit_traces=True)
    agent = Agent(name="A", model=model, model_settings=ModelSettings(timeout=0.01))

    with pytest.raises(ModelTimeoutError):
        await asyncio.wait_for(run(agent, "Hi", streamed=streamed, run_config=config), timeout=10)

    assert _the_generation(recorder).error == {"message": "Error", "data": {"error": text}}


@pytest.mark.asyncio
async def test_a_cancellation_that_is_no_timeout_records_nothing(
    recorder: Recorder, run: Any, streamed: bool
) -> None:
    started = asyncio.Event()
    model = ScriptedModel([_waits_forever(started)], emit_traces=True)
    task = asyncio.ensure_future(
        run(Agent(name="A", model=model), "Hi", streamed=streamed, run_config=_SENSITIVE)
    )
    await asyncio.wait_for(started.wait(), timeout=10)

    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

    assert [span.error for span in generations_spans(recorder)] == [None]


def generations_spans(recorder: Recorder) -> list[Span[Any]]:
    return [span for span in recorder.spans if isinstance(span.span_data, GenerationSpanData)]


# -- when the span exists and when it is current -------------------------------------------


@pytest.mark.parametrize("tracing", list(ModelTracing), ids=lambda mode: mode.name)
@pytest.mark.asyncio
async def test_emit_traces_makes_a_span_whatever_the_call_tracing_mode(
    recorder: Recorder, tracing: ModelTracing
) -> None:
    model = ScriptedModel([[assistant_message("a")], [assistant_message("b")]], emit_traces=True)
    request: tuple[Any, ...] = (None, "hi", ModelSettings(), [], None, [], tracing)

    with trace("outer"):
        await model.get_response(*request)
        await _raise(model.stream_response(*request))

    assert len(generations_spans(recorder)) == 2


@pytest.mark.asyncio
async def test_in_a_run_with_tracing_disabled_the_factory_still_runs_inside_its_span(
    recorder: Recorder, run: Any
) -> None:
    """Shows MOD-13."""
    seen_by_factory: list[Any] = []

    async def factory(call: ModelCall) -> AsyncIterator[Any]:
        seen_by_factory.append(get_current_span())
        for event in _completed_stream("Quiet."):
            yield event
        seen_by_factory.append(get_current_span())

    model = ScriptedModel([ModelStep.stream(factory)], emit_traces=True)

    streamed = await run(
        Agent(name="A", model=model),
        "Hi",
        streamed=True,
        run_config=RunConfig(tracing_disabled=True),
    )

    assert streamed.final_output == "Quiet."
    assert seen_by_factory[0] is not None
    assert seen_by_factory == [seen_by_factory[0]] * 2
    # The trace provider decided: a run with tracing disabled records nothing.
    assert generations_spans(recorder) == []


def _completed_stream(text: str) -> list[Any]:
    return [
        _created(),
        ResponseCompletedEvent(
            type="response.completed",
            sequence_number=1,
            response=_created().response.model_copy(
                update={"status": "completed", "output": [assistant_message(text)]}
            ),
        ),
    ]


@pytest.mark.asyncio
async def test_with_tracing_disabled_the_factory_still_runs_inside_its_span() -> None:
    seen_by_factory: list[Any] = []
    seen_by_consumer: list[Any] = []

    async def factory(call: ModelCall) -> AsyncIterator[Any]:
        seen_by_factory.append(get_current_span())
        yield _created()
        seen_by_factory.append(get_current_span())
        yield _created()

    model = ScriptedModel([ModelStep.stream(factory)], emit_traces=True)
    stream = model.stream_response(None, "hi", ModelSettings(), [], None, [], ModelTracing.DISABLED)
    async for _ in stream:
        seen_by_consumer.append(get_current_span())

    assert seen_by_factory[0] is not None
    assert seen_by_factory == [seen_by_factory[0]] * 2
    assert seen_by_consumer == [None, None]
