"""An error's text never reaches a trace that excludes sensitive data, whoever made the model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from agents import Agent, RunConfig
from agents.testing import (
    ModelStep,
    ScriptedModel,
    ScriptedModelFactory,
    ScriptedModelProvider,
    ScriptedModelProviderFactory,
    assistant_message,
)
from agents.tracing.span_data import GenerationSpanData

from agents_testing.model import ModelCassette

from .._span_recorder import Recorder

_REDACTED = RunConfig(tracing_disabled=False, trace_include_sensitive_data=False)
_TEXT = "account 4242 belongs to Ada"


class Private(RuntimeError):
    """An error whose text must stay out of traces."""


def _exported(recorder: Recorder) -> str:
    """What the generation spans (ours) export; the runner's own spans are the SDK's."""
    return str(
        [span.export() for span in recorder.spans if isinstance(span.span_data, GenerationSpanData)]
    )


def _generation_errors(recorder: Recorder) -> list[Any]:
    return [span.error for span in recorder.spans if isinstance(span.span_data, GenerationSpanData)]


_REDACTED_ERROR = {
    "message": "Error",
    "data": {"name": "Private", "message": "Error details are redacted."},
}


@pytest.mark.asyncio
@pytest.mark.agents_testing(disable_tracing=False)
async def test_the_scripted_model_fixture_redacts(
    recorder: Recorder, scripted_model: ScriptedModelFactory, run: Any, streamed: bool
) -> None:
    model = scripted_model([ModelStep.raise_error(Private(_TEXT))], emit_traces=True)

    with pytest.raises(Private):
        await run(Agent(name="A", model=model), "Hi", streamed=streamed, run_config=_REDACTED)

    assert _generation_errors(recorder) == [_REDACTED_ERROR]
    assert _TEXT not in _exported(recorder)


@pytest.mark.asyncio
@pytest.mark.agents_testing(disable_tracing=False, extra_checks=False)
async def test_the_fixture_without_extra_checks_redacts(
    recorder: Recorder, scripted_model: ScriptedModelFactory, run: Any, streamed: bool
) -> None:
    model = scripted_model([ModelStep.raise_error(Private(_TEXT))], emit_traces=True)

    with pytest.raises(Private):
        await run(Agent(name="A", model=model), "Hi", streamed=streamed, run_config=_REDACTED)

    assert _generation_errors(recorder) == [_REDACTED_ERROR]
    assert _TEXT not in _exported(recorder)


@pytest.mark.parametrize("extra_checks", [False, True], ids=["bare", "extra_checks"])
@pytest.mark.asyncio
async def test_a_provider_redacts_for_the_models_it_makes_and_the_ones_it_is_given(
    recorder: Recorder, run: Any, streamed: bool, extra_checks: bool
) -> None:
    given = ScriptedModel([ModelStep.raise_error(Private(_TEXT))], emit_traces=True)
    provider = ScriptedModelProvider(
        by_agent={"Made": [ModelStep.raise_error(Private(_TEXT))], "Given": given},
        extra_checks=extra_checks,
    )
    config = RunConfig(
        model_provider=provider, tracing_disabled=False, trace_include_sensitive_data=False
    )

    for name in ("Made", "Given"):
        with pytest.raises(Private):
            await run(Agent(name=name, model="gpt-4.1"), "Hi", streamed=streamed, run_config=config)

    assert _generation_errors(recorder) == [_REDACTED_ERROR]
    assert _TEXT not in _exported(recorder)


@pytest.mark.asyncio
@pytest.mark.agents_testing(disable_tracing=False)
async def test_the_provider_fixture_redacts(
    recorder: Recorder,
    scripted_model_provider: ScriptedModelProviderFactory,
    run: Any,
    streamed: bool,
) -> None:
    given = ScriptedModel([ModelStep.raise_error(Private(_TEXT))], emit_traces=True)
    scripted_model_provider(default=given)

    with pytest.raises(Private):
        await run(Agent(name="A", model="gpt-4.1"), "Hi", streamed=streamed, run_config=_REDACTED)

    assert _generation_errors(recorder) == [_REDACTED_ERROR]
    assert _TEXT not in _exported(recorder)


@pytest.mark.asyncio
async def test_a_replayed_cassette_redacts(
    recorder: Recorder, run: Any, streamed: bool, tmp_path: Path
) -> None:
    cassette = ModelCassette(tmp_path / "failure.json")
    recording = cassette.record(
        ScriptedModel([[assistant_message("First.")], ModelStep.raise_error(Private(_TEXT))])
    )
    agent = Agent(name="A", model=recording)
    await run(agent, "Hi", streamed=streamed)
    with pytest.raises(Private):
        await run(agent, "Again", streamed=streamed)
    cassette.save()
    replay = ModelCassette(tmp_path / "failure.json").replay()
    replayed = Agent(name="A", model=replay)

    await run(replayed, "Hi", streamed=streamed, run_config=_REDACTED)
    with pytest.raises(Exception, match=_TEXT):
        await run(replayed, "Again", streamed=streamed, run_config=_REDACTED)

    assert _TEXT not in _exported(recorder)
    assert recorder.spans, "the replayed runs were traced"
    assert _generation_errors(recorder) == [], "a replay makes no generation spans"
