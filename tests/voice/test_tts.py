"""ScriptedTTSModel: scripted audio reaches the pipeline's audio events exactly."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest
from agents.voice import AudioInput, TTSModel, TTSModelSettings, VoicePipeline
from agents.voice.testing import (
    InvalidVoiceStep,
    ScriptedSTTModel,
    ScriptedTTSModel,
    ScriptedVoiceWorkflow,
    TTSCall,
    TTSResult,
    UnconsumedVoiceSteps,
    UnexpectedVoiceCall,
    pcm16_samples,
)

from agents_testing.core import compat

FIRST = pcm16_samples([0, 100, -100, 0])
SECOND = pcm16_samples([32767, -32768])
THIRD = pcm16_samples([42])


def run_once(workflow: ScriptedVoiceWorkflow, tts: ScriptedTTSModel, config: Any) -> VoicePipeline:
    return VoicePipeline(
        workflow=workflow, stt_model=ScriptedSTTModel("hi"), tts_model=tts, config=config
    )


def test_is_a_tts_model_with_a_name() -> None:
    assert isinstance(ScriptedTTSModel(), TTSModel)
    assert ScriptedTTSModel().model_name == "scripted-tts"
    assert ScriptedTTSModel(model_name="voice-double").model_name == "voice-double"


@pytest.mark.asyncio
async def test_audio_events_carry_exactly_the_scripted_pcm_in_order(
    drain: Any, voice_config: Any, silence: AudioInput, fragment_splitter: Any
) -> None:
    workflow = ScriptedVoiceWorkflow([["The first sentence is here.", "The second one follows."]])
    tts = ScriptedTTSModel([TTSResult([FIRST, SECOND]), [THIRD]])

    outcome = await drain(
        await run_once(workflow, tts, voice_config(text_splitter=fragment_splitter)).run(silence)
    )

    assert outcome.error is None
    assert outcome.audio == [FIRST, SECOND, THIRD]
    # The splitter sent all text before the turn ended; older releases then skip turn_ended.
    ended = ["turn_ended"] if compat.voice_ends_flushed_turns() else []
    assert outcome.kinds == ["turn_started", "audio", "audio", "audio", *ended, "session_ended"]
    assert [call.text for call in tts.calls] == [
        "The first sentence is here.",
        "The second one follows.",
    ]
    audio_events = [event for event in outcome.events if event.type == "voice_stream_event_audio"]
    assert all(event.data.dtype == np.int16 for event in audio_events)
    tts.assert_complete()


@pytest.mark.asyncio
async def test_a_result_given_as_a_list_of_chunks_streams_those_chunks() -> None:
    tts = ScriptedTTSModel([[FIRST, bytearray(SECOND)], TTSResult([])])  # type: ignore[list-item]

    first = [chunk async for chunk in tts.run("one", TTSModelSettings())]
    second = [chunk async for chunk in tts.run("two", TTSModelSettings())]

    assert first == [FIRST, SECOND]
    assert all(type(chunk) is bytes for chunk in first)
    assert second == []
    tts.assert_complete()


@pytest.mark.asyncio
async def test_a_scripted_exception_is_reported_like_a_provider_failure(
    drain: Any, voice_config: Any, silence: AudioInput
) -> None:
    failure = ConnectionError("tts provider unavailable")
    workflow = ScriptedVoiceWorkflow(["Hello there."])
    tts = ScriptedTTSModel([failure])

    outcome = await drain(await run_once(workflow, tts, voice_config()).run(silence))

    # The SDK ends the session on a TTS failure and re-raises it from stream().
    assert outcome.kinds == ["turn_started", "session_ended"]
    assert outcome.error is failure
    assert outcome.audio == []
    assert [call.text for call in tts.calls] == ["Hello there."]
    tts.assert_complete()


@pytest.mark.asyncio
async def test_a_tts_call_beyond_the_script_is_unexpected(
    drain: Any, voice_config: Any, silence: AudioInput
) -> None:
    workflow = ScriptedVoiceWorkflow(["Hello there."])
    tts = ScriptedTTSModel()

    outcome = await drain(await run_once(workflow, tts, voice_config()).run(silence))

    error = outcome.error
    assert isinstance(error, UnexpectedVoiceCall)
    assert error.operation == "tts"
    assert error.call_index == 0
    assert isinstance(error.call, TTSCall)
    assert error.call.text == "Hello there."
    assert outcome.kinds == ["turn_started", "session_ended"]


@pytest.mark.asyncio
async def test_calls_snapshot_the_settings_at_call_time(
    drain: Any, silence: AudioInput, voice_config: Any
) -> None:
    config = voice_config(voice={"id": "custom-voice"}, speed=1.5)
    tts = ScriptedTTSModel([[FIRST]])

    await drain(await run_once(ScriptedVoiceWorkflow(["Hello there."]), tts, config).run(silence))
    config.tts_settings.speed = 3.0
    config.tts_settings.voice["id"] = "changed"

    (call,) = tts.calls
    assert call.settings.speed == 1.5
    assert call.settings.voice == {"id": "custom-voice"}
    assert call.settings.buffer_size == 1
    call.settings.voice["id"] = "mutated through the snapshot"
    assert tts.calls[0].settings.voice == {"id": "custom-voice"}


def test_scripted_chunks_are_copied_when_the_script_is_built() -> None:
    chunk = bytearray(FIRST)
    result = TTSResult([chunk])
    chunk[:] = b"\x00" * len(chunk)

    assert result.chunks == (FIRST,)
    assert result == TTSResult([FIRST])


@pytest.mark.asyncio
async def test_assert_complete_counts_the_results_never_streamed() -> None:
    tts = ScriptedTTSModel([[FIRST], [SECOND], RuntimeError("unused")])
    [chunk async for chunk in tts.run("only one", TTSModelSettings())]

    with pytest.raises(UnconsumedVoiceSteps) as caught:
        tts.assert_complete()

    assert caught.value.remaining_steps == 2
    assert caught.value.pending_steps == ("tts", "tts")


@pytest.mark.parametrize(
    ("results", "index"),
    [
        ([[FIRST], FIRST], 1),
        (["text instead of audio"], 0),
        ([[FIRST, "not bytes"]], 0),
        ([42], 0),
        (42, 0),
        (FIRST, 0),
    ],
)
def test_malformed_results_are_rejected(results: list[Any], index: int) -> None:
    with pytest.raises(InvalidVoiceStep) as caught:
        ScriptedTTSModel(results)
    assert caught.value.reason == "invalid_tts_result"
    assert caught.value.input_index == index


def test_a_tts_result_needs_a_sequence_of_byte_chunks() -> None:
    with pytest.raises(InvalidVoiceStep) as whole:
        TTSResult(FIRST)  # type: ignore[arg-type]
    assert whole.value.reason == "invalid_chunk"
    with pytest.raises(InvalidVoiceStep) as chunk:
        TTSResult([FIRST, 3])  # type: ignore[list-item]
    assert chunk.value.reason == "invalid_chunk"
    assert chunk.value.input_index == 1


@pytest.mark.asyncio
async def test_settings_changed_between_calls_are_recorded_per_call() -> None:
    tts = ScriptedTTSModel([[FIRST], [SECOND]])
    settings = TTSModelSettings(speed=1.0, voice={"id": "first"})

    [chunk async for chunk in tts.run("one", settings)]
    settings.speed = 2.0
    settings.voice["id"] = "second"  # type: ignore[index]
    [chunk async for chunk in tts.run("two", settings)]
    settings.speed = 3.0

    first, second = tts.calls
    assert (first.settings.speed, first.settings.voice) == (1.0, {"id": "first"})
    assert (second.settings.speed, second.settings.voice) == (2.0, {"id": "second"})


@pytest.mark.asyncio
async def test_the_call_in_an_unexpected_call_error_is_a_copy() -> None:
    tts = ScriptedTTSModel([[FIRST]])
    settings = TTSModelSettings(voice={"id": "kept"})
    [chunk async for chunk in tts.run("scripted", settings)]

    with pytest.raises(UnexpectedVoiceCall) as caught:
        [chunk async for chunk in tts.run("one too many", settings)]
    assert isinstance(caught.value.call, TTSCall)
    caught.value.call.settings.voice["id"] = "changed"  # type: ignore[index]

    assert [call.settings.voice for call in tts.calls] == [{"id": "kept"}, {"id": "kept"}]
    assert caught.value.call_index == 1


class LockedSplitter:
    """A stateful text splitter that, like many live objects, cannot be deep-copied."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seen: list[str] = []

    def __call__(self, text: str) -> tuple[str, str]:
        with self.lock:
            self.seen.append(text)
        return text, ""


@pytest.mark.asyncio
async def test_callables_in_the_settings_keep_their_identity(
    drain: Any, voice_config: Any, silence: AudioInput
) -> None:
    splitter = LockedSplitter()

    def louder(audio: Any) -> Any:
        return audio * 2

    tts = ScriptedTTSModel([[FIRST]])
    config = voice_config(text_splitter=splitter, transform_data=louder)

    outcome = await drain(
        await run_once(ScriptedVoiceWorkflow(["Your flight is on time."]), tts, config).run(silence)
    )

    assert outcome.error is None
    assert splitter.seen == ["Your flight is on time."]
    assert outcome.audio == [(np.frombuffer(FIRST, dtype=np.int16) * 2).tobytes()]
    (call,) = tts.calls
    assert call.settings.text_splitter is splitter
    assert call.settings.transform_data is louder
    assert call.settings.dtype is np.int16


def test_an_invalid_chunk_inside_a_result_names_the_result_and_the_chunk() -> None:
    with pytest.raises(InvalidVoiceStep) as caught:
        ScriptedTTSModel([[FIRST], [FIRST, "text"]])  # type: ignore[list-item]

    assert (caught.value.reason, caught.value.input_index) == ("invalid_tts_result", 1)
    assert str(caught.value).startswith("result 2, chunk 2: an audio chunk must be bytes")


@pytest.mark.parametrize("chunks", [5, None, 2.5, {b"a": b"b"}, {b"chunk"}], ids=repr)
def test_a_tts_result_that_is_not_a_sequence_of_chunks_names_the_chunks_argument(
    chunks: Any,
) -> None:
    with pytest.raises(InvalidVoiceStep) as caught:
        TTSResult(chunks)

    assert (caught.value.reason, caught.value.argument) == ("invalid_chunk", "chunks")
    assert "TTSResult chunks must be a sequence of byte chunks" in str(caught.value)


def test_a_released_memoryview_chunk_is_refused_when_built() -> None:
    view = memoryview(bytearray(FIRST))
    view.release()

    with pytest.raises(InvalidVoiceStep) as caught:
        TTSResult([FIRST, view])

    assert (caught.value.reason, caught.value.input_index) == ("invalid_chunk", 1)


@pytest.mark.asyncio
async def test_chunks_of_bytes_subclasses_and_views_stream_as_plain_bytes(
    drain: Any, voice_config: Any, silence: AudioInput
) -> None:
    class Tagged(bytes):
        def __bytes__(self) -> bytes:
            return b"substituted"

    source = bytearray(SECOND)
    tts = ScriptedTTSModel([[Tagged(FIRST), memoryview(source)]])  # type: ignore[list-item]
    source[:] = b"\x00" * len(source)
    workflow = ScriptedVoiceWorkflow("Hello there.")

    outcome = await drain(await run_once(workflow, tts, voice_config()).run(silence))

    assert outcome.audio == [FIRST, SECOND]


@pytest.mark.asyncio
async def test_changing_the_script_list_after_building_changes_nothing(
    drain: Any, voice_config: Any, silence: AudioInput
) -> None:
    chunks = [FIRST]
    results: list[Any] = [chunks]
    tts = ScriptedTTSModel(results)
    chunks.append(SECOND)
    results.append([THIRD])

    outcome = await drain(
        await run_once(ScriptedVoiceWorkflow("Hello there."), tts, voice_config()).run(silence)
    )

    assert outcome.audio == [FIRST]
    tts.assert_complete()


@pytest.mark.asyncio
async def test_an_unexpected_tts_call_has_a_short_numbered_message(
    drain: Any, voice_config: Any, silence: AudioInput, fragment_splitter: Any
) -> None:
    workflow = ScriptedVoiceWorkflow([["The first sentence is here.", "The second one follows."]])
    tts = ScriptedTTSModel([[FIRST]])

    outcome = await drain(
        await run_once(workflow, tts, voice_config(text_splitter=fragment_splitter)).run(silence)
    )

    assert isinstance(outcome.error, UnexpectedVoiceCall)
    assert str(outcome.error).startswith(
        "Unexpected TTS call: no scripted results remain. It was TTS call #2; "
    )
    assert outcome.error.call == TTSCall("The second one follows.", tts.calls[1].settings)
