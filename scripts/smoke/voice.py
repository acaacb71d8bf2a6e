"""Smoke test of an installed agents-testing-voice: a ``VoicePipeline`` run from scripted
speech-to-text through a scripted workflow to scripted speech."""

from __future__ import annotations

import asyncio

import numpy as np
from agents.voice import AudioInput, VoicePipeline, VoicePipelineConfig, VoiceStreamEventAudio
from agents.voice.testing import (
    ScriptedSTTModel,
    ScriptedTTSModel,
    ScriptedVoiceWorkflow,
    TTSResult,
    pcm16_samples,
)


async def main() -> None:
    pcm = pcm16_samples([0, 100, -100, 0])
    stt = ScriptedSTTModel("hello")
    workflow = ScriptedVoiceWorkflow(["Hello there."])
    tts = ScriptedTTSModel([TTSResult([pcm])])
    pipeline = VoicePipeline(
        workflow=workflow,
        stt_model=stt,
        tts_model=tts,
        config=VoicePipelineConfig(tracing_disabled=True),
    )

    result = await pipeline.run(AudioInput(np.zeros(2, dtype=np.int16)))
    audio = [
        event.data.tobytes()
        async for event in result.stream()
        if isinstance(event, VoiceStreamEventAudio) and event.data is not None
    ]

    assert audio == [pcm], audio
    assert workflow.transcriptions == ("hello",), workflow.transcriptions
    assert [call.text for call in tts.calls] == ["Hello there."]
    for double in (stt, workflow, tts):
        double.assert_complete()

    import agents_testing.voice

    print(f"voice smoke passed from {agents_testing.voice.__file__}")


asyncio.run(main())
