"""``to_snapshot`` of the voice doubles' recorded calls after a real ``VoicePipeline`` run."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from agents.voice import AudioInput, VoicePipeline, VoicePipelineConfig
from agents.voice.testing import (
    ScriptedSTTModel,
    ScriptedTTSModel,
    ScriptedVoiceWorkflow,
    to_snapshot,
)


async def _pipeline_run(reply: str) -> tuple[ScriptedSTTModel, ScriptedTTSModel]:
    stt = ScriptedSTTModel(["hi"])
    tts = ScriptedTTSModel([[b"\x00\x00"]])
    pipeline = VoicePipeline(
        workflow=ScriptedVoiceWorkflow(turns=[reply]),
        stt_model=stt,
        tts_model=tts,
        config=VoicePipelineConfig(tracing_disabled=True),
    )
    result = await pipeline.run(AudioInput(np.zeros(2, dtype=np.int16)))
    [event async for event in result.stream()]
    return stt, tts


@pytest.mark.asyncio
async def test_recorded_voice_calls_snapshot_and_compare() -> None:
    stt, tts = await _pipeline_run("Hello there.")
    _, same = await _pipeline_run("Hello there.")
    _, changed = await _pipeline_run("Goodbye.")

    speech: list[dict[str, Any]] = to_snapshot(tts.calls)
    assert [call["text"] for call in speech] == ["Hello there."]
    assert speech[0]["class"] == "TTSCall"
    assert speech[0]["settings"]["text_splitter"].startswith("<function ")
    assert to_snapshot(tts.calls) == to_snapshot(same.calls)
    assert to_snapshot(tts.calls) != to_snapshot(changed.calls)
    [heard] = to_snapshot(stt.calls)
    assert heard["input"]["buffer"] == {"dtype": "int16", "shape": [2], "bytes_base64": "AAAAAA=="}
