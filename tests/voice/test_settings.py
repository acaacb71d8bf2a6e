"""Settings snapshots: a copy that raises re-raises its own exception and leaves no trace.

``STTModelSettings`` and ``TTSModelSettings`` are recorded as deep copies. When a value in
them refuses to be copied, ``transcribe``, ``create_session`` and the stream ``run``
returns raise that very exception (``UncopyableValue`` caused by it with
``extra_checks=True``); nothing is recorded or consumed.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest
from agents.voice import (
    AudioInput,
    StreamedAudioInput,
    STTModelSettings,
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
    UnconsumedVoiceSteps,
    pcm16_samples,
)

from agents_testing.core import UncopyableValue

PCM = pcm16_samples([3, -3])


class CopyRefusing:
    """A settings value whose deep copy raises ``error``."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        raise self.error


class CallableCopyRefusing(CopyRefusing):
    """The same, as a callable (a ``transform_data`` is one)."""

    def __call__(self, data: Any) -> Any:
        return data


def _silence() -> AudioInput:
    return AudioInput(np.zeros(2, dtype=np.int16))


def _noted(error: BaseException) -> bool:
    notes = getattr(error, "__notes__", [])
    return sys.version_info < (3, 11) or any("agents-testing" in note for note in notes)


@pytest.mark.asyncio
async def test_transcribe_re_raises_the_settings_own_copy_error() -> None:
    failure = RuntimeError("x")
    stt = ScriptedSTTModel("never used")
    settings = STTModelSettings(turn_detection={"k": CopyRefusing(failure)})

    with pytest.raises(RuntimeError) as raised:
        await stt.transcribe(_silence(), settings, False, False)

    assert raised.value is failure
    assert (failure.__cause__, failure.__suppress_context__) == (None, False)
    assert _noted(failure)
    assert stt.calls == ()
    with pytest.raises(UnconsumedVoiceSteps) as left:
        stt.assert_complete()
    assert left.value.remaining_steps == 1


@pytest.mark.asyncio
async def test_create_session_re_raises_the_settings_own_copy_error() -> None:
    failure = RuntimeError("x")
    session = ScriptedTranscriptionSession(["hello"])
    stt = ScriptedSTTModel(sessions=[session])
    settings = STTModelSettings(turn_detection={"k": CopyRefusing(failure)})

    with pytest.raises(RuntimeError) as raised:
        await stt.create_session(StreamedAudioInput(), settings, False, False)

    assert raised.value is failure
    assert (stt.session_calls, stt.created_sessions) == ((), ())
    assert session.remaining_turns == 1
    with pytest.raises(UnconsumedVoiceSteps) as left:
        stt.assert_complete()
    assert left.value.pending_steps == ("streamed_session",)


@pytest.mark.parametrize("value", [CopyRefusing, CallableCopyRefusing], ids=["object", "callable"])
@pytest.mark.asyncio
async def test_iterating_a_tts_run_re_raises_the_settings_own_copy_error(value: type) -> None:
    failure = RuntimeError("x")
    matched: list[str] = []
    tts = ScriptedTTSModel([TTSResult([PCM], match=matched.append)])
    settings = TTSModelSettings(transform_data=value(failure))

    stream = tts.run("x", settings)
    with pytest.raises(RuntimeError) as raised:
        [chunk async for chunk in stream]

    assert raised.value is failure
    assert tts.calls == ()
    assert matched == []
    with pytest.raises(UnconsumedVoiceSteps) as left:
        tts.assert_complete()
    assert left.value.remaining_steps == 1
    # The same model answers the call once the settings can be copied.
    assert [chunk async for chunk in tts.run("x", TTSModelSettings())] == [PCM]
    assert matched == ["x"]


@pytest.mark.asyncio
async def test_with_extra_checks_a_failed_settings_copy_is_an_uncopyable_value() -> None:
    failure = RuntimeError("x")
    stt = ScriptedSTTModel("unused", sessions=["unused"], extra_checks=True)
    tts = ScriptedTTSModel([[PCM]], extra_checks=True)
    stt_settings = STTModelSettings(turn_detection={"k": CopyRefusing(failure)})

    with pytest.raises(UncopyableValue) as transcribing:
        await stt.transcribe(_silence(), stt_settings, False, False)
    with pytest.raises(UncopyableValue) as creating:
        await stt.create_session(StreamedAudioInput(), stt_settings, False, False)
    with pytest.raises(UncopyableValue) as speaking:
        [
            chunk
            async for chunk in tts.run(
                "x", TTSModelSettings(transform_data=CallableCopyRefusing(failure))
            )
        ]

    for error in (transcribing.value, creating.value, speaking.value):
        assert error.__cause__ is failure
    assert transcribing.value.path == "settings.turn_detection['k']"
    assert speaking.value.path == "settings.transform_data"
    assert (stt.calls, stt.session_calls, tts.calls) == ((), (), ())


def _pipeline(stt: ScriptedSTTModel, tts: ScriptedTTSModel, **config: Any) -> VoicePipeline:
    return VoicePipeline(
        workflow=ScriptedVoiceWorkflow(["Hello there."]),
        stt_model=stt,
        tts_model=tts,
        config=VoicePipelineConfig(tracing_disabled=True, **config),
    )


async def _error_of(pipeline: VoicePipeline, audio: Any) -> BaseException | None:
    result = await pipeline.run(audio)
    try:
        async for _ in result.stream():
            pass
    except Exception as error:
        return error
    return None


@pytest.mark.parametrize("extra_checks", [False, True], ids=["bare", "extra-checks"])
@pytest.mark.asyncio
async def test_a_pipeline_reports_the_copy_error_and_nothing_is_consumed(
    extra_checks: bool,
) -> None:
    """Shows GEN-1."""
    failure = RuntimeError("x")
    stt = ScriptedSTTModel("hello", extra_checks=extra_checks)
    tts = ScriptedTTSModel([[PCM]], extra_checks=extra_checks)
    broken = STTModelSettings(turn_detection={"k": CopyRefusing(failure)})

    error = await _error_of(_pipeline(stt, tts, stt_settings=broken), _silence())

    if extra_checks:
        assert isinstance(error, UncopyableValue)
        assert error.__cause__ is failure
    else:
        assert error is failure
    assert stt.calls == ()
    # Run again with settings that copy: the transcription left pending is used.
    assert await _error_of(_pipeline(stt, tts), _silence()) is None
    assert len(stt.calls) == 1
    stt.assert_complete()
    tts.assert_complete()


@pytest.mark.asyncio
async def test_a_pipeline_reports_a_tts_settings_copy_error_with_nothing_consumed() -> None:
    failure = RuntimeError("x")
    tts = ScriptedTTSModel([[PCM]])
    broken = TTSModelSettings(buffer_size=1, transform_data=CallableCopyRefusing(failure))

    error = await _error_of(_pipeline(ScriptedSTTModel("hi"), tts, tts_settings=broken), _silence())

    assert error is failure
    assert tts.calls == ()
    with pytest.raises(UnconsumedVoiceSteps):
        tts.assert_complete()
