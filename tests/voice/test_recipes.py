"""The voice recipes of the user documentation, run as written through a real VoicePipeline."""

from __future__ import annotations

import numpy as np
import pytest
from agents import Agent
from agents.testing import ScriptedModel, assistant_message
from agents.voice import (
    AudioInput,
    SingleAgentVoiceWorkflow,
    StreamedAudioInput,
    TTSModelSettings,
    VoicePipeline,
    VoicePipelineConfig,
)
from agents.voice.testing import (
    ScriptedSTTModel,
    ScriptedTranscriptionSession,
    ScriptedTTSModel,
    ScriptedVoiceWorkflow,
    TTSResult,
    pcm16_samples,
)

from agents_testing.core import compat


@pytest.mark.skipif(
    not compat.voice_config_accepts_mapping(),
    reason="VoicePipeline accepts a dict config from openai-agents 0.19",
)
@pytest.mark.asyncio
async def test_voice_pipeline() -> None:
    model = ScriptedModel([[assistant_message("Hello there.")]])
    stt = ScriptedSTTModel("hello")
    pcm = pcm16_samples([0, 100, -100, 0])
    tts = ScriptedTTSModel([TTSResult([pcm])])
    pipeline = VoicePipeline(
        workflow=SingleAgentVoiceWorkflow(Agent(name="Voice assistant", model=model)),
        stt_model=stt,
        tts_model=tts,
        config={"tracing_disabled": True, "tts_settings": {"buffer_size": 1}},
    )

    result = await pipeline.run(AudioInput(np.zeros(2, dtype=np.int16)))
    events = [event async for event in result.stream()]

    assert events
    assert [call.text for call in tts.calls] == ["Hello there."]
    stt.assert_complete()
    tts.assert_complete()
    model.assert_complete()


@pytest.mark.asyncio
async def test_voice_pipeline_with_a_config_object() -> None:
    # The same recipe for releases whose VoicePipeline takes only a VoicePipelineConfig.
    model = ScriptedModel([[assistant_message("Hello there.")]])
    stt = ScriptedSTTModel("hello")
    pcm = pcm16_samples([0, 100, -100, 0])
    tts = ScriptedTTSModel([TTSResult([pcm])])
    pipeline = VoicePipeline(
        workflow=SingleAgentVoiceWorkflow(Agent(name="Voice assistant", model=model)),
        stt_model=stt,
        tts_model=tts,
        config=VoicePipelineConfig(
            tracing_disabled=True, tts_settings=TTSModelSettings(buffer_size=1)
        ),
    )

    result = await pipeline.run(AudioInput(np.zeros(2, dtype=np.int16)))
    events = [event async for event in result.stream()]

    audio = [event.data for event in events if event.type == "voice_stream_event_audio"]
    assert [data.tobytes() for data in audio if data is not None] == [pcm]
    assert [call.text for call in tts.calls] == ["Hello there."]
    assert model.calls[0].input == [{"role": "user", "content": "hello"}]
    stt.assert_complete()
    tts.assert_complete()
    model.assert_complete()


@pytest.mark.asyncio
async def test_scripted_workflow_snippet_greets_a_streamed_session() -> None:
    workflow = ScriptedVoiceWorkflow(
        turns=["Hello there."],
        start="Welcome.",
    )
    stt = ScriptedSTTModel(sessions=[["hi"]])
    tts = ScriptedTTSModel([[pcm16_samples([1])], [pcm16_samples([2])]])
    if not compat.voice_finalizes_intro_turn():
        # Older pipelines speak the greeting together with the first answer: one TTS call.
        tts = ScriptedTTSModel([[pcm16_samples([1])]])
    pipeline = VoicePipeline(
        workflow=workflow,
        stt_model=stt,
        tts_model=tts,
        config=VoicePipelineConfig(tracing_disabled=True),
    )

    result = await pipeline.run(StreamedAudioInput())
    [event async for event in result.stream()]

    spoken = [call.text for call in tts.calls]
    if compat.voice_finalizes_intro_turn():
        assert spoken == ["Welcome.", "Hello there."]
    else:
        assert spoken == ["Welcome.Hello there."]
    assert workflow.transcriptions == ("hi",)
    workflow.assert_complete()
    stt.assert_complete()
    tts.assert_complete()


@pytest.mark.asyncio
async def test_streaming_transcription_snippet_feeds_each_turn_to_the_workflow() -> None:
    session = ScriptedTranscriptionSession(["first turn", "second turn"])
    stt = ScriptedSTTModel(sessions=[session])
    workflow = ScriptedVoiceWorkflow(["First answer.", "Second answer."])
    tts = ScriptedTTSModel([[pcm16_samples([1, 2])], [pcm16_samples([3, 4])]])
    pipeline = VoicePipeline(
        workflow=workflow,
        stt_model=stt,
        tts_model=tts,
        config=VoicePipelineConfig(tracing_disabled=True),
    )

    result = await pipeline.run(StreamedAudioInput())
    [event async for event in result.stream()]

    assert workflow.transcriptions == ("first turn", "second turn")
    assert [call.text for call in tts.calls] == ["First answer.", "Second answer."]
    assert stt.created_sessions == (session,)
    assert session.closed
    stt.assert_complete()
    workflow.assert_complete()
    tts.assert_complete()
