"""``emit_traces``: generation spans of scripted calls, for tests of tracing itself."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from agents import Agent, ModelSettings, ModelTracing, RunConfig
from agents.testing import (
    ModelCall,
    ModelStep,
    ScriptedModel,
    assistant_message,
)
from agents.tracing import (
    custom_span,
    get_current_span,
    get_trace_provider,
    set_trace_provider,
    trace,
)
from agents.tracing.provider import DefaultTraceProvider
from agents.tracing.span_data import GenerationSpanData
from agents.tracing.spans import Span
from openai.types.responses import Response, ResponseCreatedEvent

from agents_testing.model import InvalidModelArgument

from .._span_recorder import Recorder


@pytest.fixture
def recorder() -> Iterator[Recorder]:
    """A private trace provider that only records, for the duration of one test."""
    previous = get_trace_provider()
    provider = DefaultTraceProvider()
    recorder = Recorder()
    provider.set_processors([recorder])
    provider.set_disabled(False)
    set_trace_provider(provider)
    try:
        yield recorder
    finally:
        set_trace_provider(previous)


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

    (span,) = [span for span in recorder.spans if isinstance(span.span_data, GenerationSpanData)]
    assert span.error is not None
    assert "RuntimeError: down" in span.error["message"]


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

    error = _the_generation(recorder).error
    assert error is not None
    assert "no answer for this request" in error["message"]


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

    error = _the_generation(recorder).error
    assert error is not None
    assert "the stream broke" in error["message"]


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
