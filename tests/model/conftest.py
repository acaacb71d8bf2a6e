"""Shared fixtures of the model boundary tests: run an agent in either runner mode."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from agents import Agent, RunConfig, Runner
from agents.result import RunResult, RunResultStreaming
from agents.stream_events import StreamEvent
from agents.tracing import get_trace_provider, set_trace_provider
from agents.tracing.provider import DefaultTraceProvider

from ._span_recorder import Recorder

RunAgent = Callable[..., Awaitable[Any]]


class StreamedRun:
    """A finished streamed run and every event its ``stream_events()`` yielded."""

    def __init__(self, result: RunResultStreaming, events: list[StreamEvent]) -> None:
        self.result = result
        self.events = events

    @property
    def final_output(self) -> Any:
        return self.result.final_output


async def run_agent(
    agent: Agent[Any], input: Any, *, streamed: bool, **kwargs: Any
) -> RunResult | StreamedRun:
    """Run ``agent`` through ``Runner.run`` or ``Runner.run_streamed`` to completion."""
    kwargs.setdefault("run_config", RunConfig(tracing_disabled=True))
    if not streamed:
        return await Runner.run(agent, input, **kwargs)
    result = Runner.run_streamed(agent, input, **kwargs)
    events = [event async for event in result.stream_events()]
    return StreamedRun(result, events)


@pytest.fixture(params=[False, True], ids=["run", "run_streamed"])
def streamed(request: pytest.FixtureRequest) -> bool:
    """Both runner modes: ``Runner.run`` and ``Runner.run_streamed``."""
    return bool(request.param)


@pytest.fixture
def run() -> Callable[..., Awaitable[Any]]:
    """``run(agent, input, streamed=..., **runner_kwargs)`` with tracing disabled."""
    return run_agent


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
