"""``emit_traces``: generation spans of scripted calls, for tests of tracing itself."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from agents import Agent, RunConfig
from agents.testing import ModelStep, ScriptedModel, assistant_message
from agents.tracing import TracingProcessor, get_trace_provider, set_trace_provider
from agents.tracing.provider import DefaultTraceProvider
from agents.tracing.span_data import GenerationSpanData
from agents.tracing.spans import Span
from agents.tracing.traces import Trace


class Recorder(TracingProcessor):
    def __init__(self) -> None:
        self.spans: list[Span[Any]] = []

    def on_trace_start(self, trace: Trace) -> None:
        pass

    def on_trace_end(self, trace: Trace) -> None:
        pass

    def on_span_start(self, span: Span[Any]) -> None:
        pass

    def on_span_end(self, span: Span[Any]) -> None:
        self.spans.append(span)

    def shutdown(self) -> None:
        pass

    def force_flush(self) -> None:
        pass


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
