"""Every ``scripted_*`` fixture driving the real SDK runtime, the way a user writes tests.

These tests use the fixtures directly: the plugin is installed with the packages, so
this very suite is a user of it. Each test leaves nothing unconsumed, so passing here
also means the teardown check accepted the completed doubles.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

import agents
import numpy as np
import pytest
from agents import Agent, RunConfig, Runner
from agents.realtime import (
    RealtimeAgent,
    RealtimeModelSendUserInput,
    RealtimeModelTranscriptDeltaEvent,
    RealtimeRawModelEvent,
    RealtimeRunner,
)
from agents.realtime.testing import RealtimeStep, ScriptedRealtimeModel
from agents.run_config import SandboxRunConfig
from agents.sandbox import ExecResult, SandboxAgent
from agents.sandbox.capabilities import Shell
from agents.testing import ScriptedModel, assistant_message, function_call
from agents.voice import (
    AudioInput,
    SingleAgentVoiceWorkflow,
    TTSModelSettings,
    VoicePipeline,
    VoicePipelineConfig,
)
from agents.voice.testing import (
    ScriptedSTTModel,
    ScriptedTTSModel,
    ScriptedVoiceWorkflow,
    TTSResult,
    pcm16_samples,
)

from agents_testing.sandbox import ScriptedSandboxSession


def _tracing_is_disabled() -> bool:
    # A disabled provider hands out no-op traces, whose export() is None.
    return agents.trace("probe").export() is None


@pytest.mark.asyncio
async def test_scripted_model_runs_a_real_runner(
    scripted_model: Callable[..., ScriptedModel],
) -> None:
    model = scripted_model([[assistant_message("Paris is the capital of France.")]])

    result = await Runner.run(Agent(name="Geography", model=model), "Capital of France?")

    assert isinstance(model, ScriptedModel)
    assert result.final_output == "Paris is the capital of France."
    assert len(model.calls) == 1
    assert _tracing_is_disabled()


@pytest.mark.asyncio
async def test_scripted_model_takes_the_constructor_arguments(
    scripted_model: Callable[..., ScriptedModel],
) -> None:
    model = scripted_model(steps=(), emit_traces=False, default_usage=None)
    model.enqueue([assistant_message("Added later.")])

    fixture_parameters = inspect.signature(scripted_model).parameters
    class_parameters = inspect.signature(ScriptedModel).parameters
    assert list(fixture_parameters) == list(class_parameters)
    # The differences: the fixture's models stream tool-call items by default, and their
    # extra checks follow the test's marker (on unless it says otherwise).
    assert fixture_parameters["stream_all_items"].default is True
    assert class_parameters["stream_all_items"].default is False
    assert fixture_parameters["extra_checks"].default is None
    assert class_parameters["extra_checks"].default is False
    differing = ("stream_all_items", "extra_checks")
    assert {name: p for name, p in fixture_parameters.items() if name not in differing} == {
        name: p for name, p in class_parameters.items() if name not in differing
    }

    result = Runner.run_streamed(Agent(name="Streamer", model=model), "Hello")
    async for _ in result.stream_events():
        pass

    assert result.final_output == "Added later."
    assert model.last_call is not None
    assert model.last_call.streamed is True


@pytest.mark.asyncio
async def test_scripted_sandbox_runs_a_real_sandbox_agent(
    scripted_model: Callable[..., ScriptedModel],
    scripted_sandbox: Callable[..., ScriptedSandboxSession],
) -> None:
    sandbox = scripted_sandbox(
        [
            {
                "method": "exec",
                "match": lambda call: call.args == ("pwd",),
                "result": ExecResult(stdout=b"/workspace\n", stderr=b"", exit_code=0),
            }
        ]
    )
    model = scripted_model(
        [
            [function_call("exec_command", {"cmd": "pwd"}, call_id="call_1")],
            [assistant_message("The workspace is /workspace.")],
        ]
    )
    agent = SandboxAgent(name="Workspace", model=model, capabilities=[Shell()])

    async with sandbox:
        result = await Runner.run(
            agent, "Where are you?", run_config=RunConfig(sandbox=SandboxRunConfig(session=sandbox))
        )

    assert isinstance(sandbox, ScriptedSandboxSession)
    assert result.final_output == "The workspace is /workspace."
    assert [call.method for call in sandbox.calls] == ["exec"]


@pytest.mark.asyncio
async def test_scripted_realtime_model_runs_a_real_realtime_session(
    scripted_realtime_model: Callable[..., ScriptedRealtimeModel],
) -> None:
    reply = RealtimeModelTranscriptDeltaEvent(
        item_id="item_1", delta="Hello!", response_id="response_1"
    )
    model = scripted_realtime_model(
        [RealtimeStep(expect=RealtimeModelSendUserInput(user_input="Hello"), emit=[reply])]
    )
    runner = RealtimeRunner(RealtimeAgent(name="Assistant"), model=model)

    observed = False
    async with await runner.run() as session:
        await session.send_message("Hello")
        async for event in session:
            if isinstance(event, RealtimeRawModelEvent) and event.data == reply:
                observed = True
                break

    assert isinstance(model, ScriptedRealtimeModel)
    assert observed
    assert model.closed is True


@pytest.mark.asyncio
async def test_scripted_stt_and_tts_run_a_real_voice_pipeline(
    scripted_model: Callable[..., ScriptedModel],
    scripted_stt: Callable[..., ScriptedSTTModel],
    scripted_tts: Callable[..., ScriptedTTSModel],
) -> None:
    model = scripted_model([[assistant_message("Hello there.")]])
    stt = scripted_stt("hello")
    tts = scripted_tts([TTSResult([pcm16_samples([0, 100, -100, 0])])])
    pipeline = VoicePipeline(
        workflow=SingleAgentVoiceWorkflow(Agent(name="Voice", model=model)),
        stt_model=stt,
        tts_model=tts,
        config=VoicePipelineConfig(tts_settings=TTSModelSettings(buffer_size=1)),
    )

    result = await pipeline.run(AudioInput(np.zeros(2, dtype=np.int16)))
    events = [event async for event in result.stream()]

    assert isinstance(stt, ScriptedSTTModel)
    assert isinstance(tts, ScriptedTTSModel)
    assert events
    assert [call.text for call in tts.calls] == ["Hello there."]


@pytest.mark.asyncio
async def test_scripted_voice_workflow_runs_a_real_voice_pipeline(
    scripted_stt: Callable[..., ScriptedSTTModel],
    scripted_tts: Callable[..., ScriptedTTSModel],
    scripted_voice_workflow: Callable[..., ScriptedVoiceWorkflow],
) -> None:
    workflow = scripted_voice_workflow(turns=["Hi from the workflow."])
    tts = scripted_tts([[pcm16_samples([1, 2])]])
    pipeline = VoicePipeline(workflow=workflow, stt_model=scripted_stt("hi"), tts_model=tts)

    result = await pipeline.run(AudioInput(np.zeros(2, dtype=np.int16)))
    [event async for event in result.stream()]

    assert isinstance(workflow, ScriptedVoiceWorkflow)
    assert [call.text for call in tts.calls] == ["Hi from the workflow."]
