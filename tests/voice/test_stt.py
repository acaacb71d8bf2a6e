"""ScriptedSTTModel: static transcriptions, streamed sessions, history and completeness."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest
from agents import Agent
from agents.testing import ScriptedModel, assistant_message
from agents.voice import (
    AudioInput,
    SingleAgentVoiceWorkflow,
    StreamedAudioInput,
    STTModel,
    STTModelSettings,
    VoicePipeline,
)
from agents.voice.testing import (
    InvalidVoiceStep,
    ScriptedSTTModel,
    ScriptedTranscriptionSession,
    ScriptedTTSModel,
    ScriptedVoiceWorkflow,
    STTCall,
    STTSessionCall,
    UnconsumedVoiceSteps,
    UnexpectedVoiceCall,
    VoiceScriptError,
    pcm16_samples,
)

from agents_testing.core import UncopyableValue

PCM = pcm16_samples([7, -7])


def pipeline(stt: ScriptedSTTModel, workflow: Any, tts: ScriptedTTSModel, config: Any) -> Any:
    return VoicePipeline(workflow=workflow, stt_model=stt, tts_model=tts, config=config())


def test_is_an_stt_model_with_a_name() -> None:
    assert isinstance(ScriptedSTTModel(), STTModel)
    assert ScriptedSTTModel().model_name == "scripted-stt"
    assert ScriptedSTTModel(model_name="whisper-double").model_name == "whisper-double"


@pytest.mark.asyncio
async def test_static_input_is_transcribed_for_a_scripted_workflow(
    drain: Any, voice_config: Any, silence: AudioInput
) -> None:
    stt = ScriptedSTTModel("what time is it")
    workflow = ScriptedVoiceWorkflow(["It is noon."])
    tts = ScriptedTTSModel([[PCM]])

    outcome = await drain(await pipeline(stt, workflow, tts, voice_config).run(silence))

    assert outcome.error is None
    assert outcome.kinds == ["turn_started", "audio", "turn_ended", "session_ended"]
    assert outcome.audio == [PCM]
    assert workflow.transcriptions == ("what time is it",)
    assert len(stt.calls) == 1
    assert stt.session_calls == ()
    stt.assert_complete()


@pytest.mark.asyncio
async def test_static_input_runs_a_single_agent_workflow_over_a_scripted_model(
    drain: Any, voice_config: Any, silence: AudioInput
) -> None:
    model = ScriptedModel([[assistant_message("Your flight leaves at nine.")]])
    stt = ScriptedSTTModel("when does my flight leave")
    tts = ScriptedTTSModel([[PCM, pcm16_samples([1, 2, 3])]])
    workflow = SingleAgentVoiceWorkflow(Agent(name="Desk", model=model))

    outcome = await drain(await pipeline(stt, workflow, tts, voice_config).run(silence))

    assert outcome.error is None
    assert outcome.kinds == ["turn_started", "audio", "audio", "turn_ended", "session_ended"]
    assert outcome.audio == [PCM, pcm16_samples([1, 2, 3])]
    assert [call.text for call in tts.calls] == ["Your flight leaves at nine."]
    assert model.calls[0].input == [{"role": "user", "content": "when does my flight leave"}]
    assert model.calls[0].streamed
    for double in (stt, tts, model):
        double.assert_complete()


@pytest.mark.asyncio
async def test_streamed_turns_carry_the_conversation_through_a_single_agent_workflow(
    drain: Any, voice_config: Any
) -> None:
    model = ScriptedModel(
        [[assistant_message("Hello, traveller.")], [assistant_message("Gate twelve.")]]
    )
    stt = ScriptedSTTModel(sessions=[["hello", "which gate"]])
    tts = ScriptedTTSModel([[PCM], [PCM]])
    workflow = SingleAgentVoiceWorkflow(Agent(name="Desk", model=model))

    outcome = await drain(
        await pipeline(stt, workflow, tts, voice_config).run(StreamedAudioInput())
    )

    assert outcome.error is None
    assert [call.text for call in tts.calls] == ["Hello, traveller.", "Gate twelve."]
    second_input = model.calls[1].input
    assert second_input[0] == {"role": "user", "content": "hello"}
    assert second_input[-1] == {"role": "user", "content": "which gate"}
    for double in (stt, tts, model):
        double.assert_complete()


@pytest.mark.asyncio
async def test_static_calls_snapshot_the_audio_and_settings(drain: Any, voice_config: Any) -> None:
    buffer = np.array([1, 2, 3], dtype=np.int16)
    stt = ScriptedSTTModel("hi")
    voice = pipeline(
        stt, ScriptedVoiceWorkflow(["Hello."]), ScriptedTTSModel([[PCM]]), voice_config
    )
    voice.config.stt_settings = STTModelSettings(language="en", turn_detection={"type": "vad"})

    await drain(await voice.run(AudioInput(buffer, frame_rate=16000)))
    buffer[:] = 0
    voice.config.stt_settings.language = "fr"
    assert voice.config.stt_settings.turn_detection is not None
    voice.config.stt_settings.turn_detection["type"] = "changed"

    (call,) = stt.calls
    assert isinstance(call, STTCall)
    assert call.input.buffer.tolist() == [1, 2, 3]
    assert call.input.frame_rate == 16000
    assert call.settings.language == "en"
    assert call.settings.turn_detection == {"type": "vad"}
    assert call.trace_include_sensitive_data is True
    assert call.trace_include_sensitive_audio_data is True
    # What the accessor hands out is a copy too.
    call.input.buffer[:] = 9
    assert call.settings.turn_detection is not None
    call.settings.turn_detection["type"] = "mutated"
    assert stt.calls[0].input.buffer.tolist() == [1, 2, 3]
    assert stt.calls[0].settings.turn_detection == {"type": "vad"}


@pytest.mark.asyncio
async def test_sessions_may_be_given_as_a_session_a_list_of_turns_or_a_string(
    drain: Any, voice_config: Any
) -> None:
    given = ScriptedTranscriptionSession(["one"])
    stt = ScriptedSTTModel(sessions=[given, ["two", "three"], "four"])
    workflow = ScriptedVoiceWorkflow(["A.", "B.", "C.", "D."])
    tts = ScriptedTTSModel([[PCM]] * 4)
    voice = pipeline(stt, workflow, tts, voice_config)
    inputs = [StreamedAudioInput() for _ in range(3)]

    for audio in inputs:
        outcome = await drain(await voice.run(audio))
        assert outcome.error is None

    assert workflow.transcriptions == ("one", "two", "three", "four")
    sessions = stt.created_sessions
    assert len(sessions) == 3
    assert sessions[0] is given
    assert all(session.closed for session in sessions)
    assert [call.input for call in stt.session_calls] == inputs
    assert all(a is b for a, b in zip([c.input for c in stt.session_calls], inputs, strict=True))
    assert all(isinstance(call, STTSessionCall) for call in stt.session_calls)
    assert stt.calls == ()
    stt.assert_complete()


@pytest.mark.asyncio
async def test_session_calls_keep_the_input_live_and_snapshot_the_settings(
    drain: Any, voice_config: Any
) -> None:
    stt = ScriptedSTTModel(sessions=["hi"])
    voice = pipeline(
        stt, ScriptedVoiceWorkflow(["Hello."]), ScriptedTTSModel([[PCM]]), voice_config
    )
    voice.config.stt_settings = STTModelSettings(prompt="names of airports")
    audio = StreamedAudioInput()

    await drain(await voice.run(audio))
    voice.config.stt_settings.prompt = "changed"

    (call,) = stt.session_calls
    assert call.input is audio
    assert call.settings.prompt == "names of airports"
    assert stt.session_calls[0].settings is not call.settings


@pytest.mark.asyncio
async def test_a_session_given_as_an_exception_fails_the_stream(
    drain: Any, voice_config: Any
) -> None:
    failure = ConnectionError("transcription service unreachable")
    stt = ScriptedSTTModel(sessions=[failure])
    workflow = ScriptedVoiceWorkflow()
    tts = ScriptedTTSModel()

    outcome = await drain(
        await pipeline(stt, workflow, tts, voice_config).run(StreamedAudioInput())
    )

    assert outcome.error is failure
    assert len(stt.session_calls) == 1
    assert stt.created_sessions == ()
    assert workflow.transcriptions == ()
    stt.assert_complete()


@pytest.mark.asyncio
async def test_a_static_transcription_given_as_an_exception_fails_the_stream(
    drain: Any, voice_config: Any, silence: AudioInput
) -> None:
    failure = TimeoutError("transcription timed out")
    stt = ScriptedSTTModel([failure])
    workflow = ScriptedVoiceWorkflow()

    outcome = await drain(
        await pipeline(stt, workflow, ScriptedTTSModel(), voice_config).run(silence)
    )

    assert outcome.error is failure
    assert workflow.transcriptions == ()


@pytest.mark.asyncio
async def test_a_static_transcription_beyond_the_script_is_unexpected(
    drain: Any, voice_config: Any, silence: AudioInput
) -> None:
    stt = ScriptedSTTModel(sessions=["only streamed"])

    outcome = await drain(
        await pipeline(stt, ScriptedVoiceWorkflow(), ScriptedTTSModel(), voice_config).run(silence)
    )

    error = outcome.error
    assert isinstance(error, UnexpectedVoiceCall)
    assert isinstance(error, VoiceScriptError)
    assert error.operation == "static_transcription"
    assert error.call_index == 0
    assert isinstance(error.call, STTCall)
    assert str(error).startswith(
        "Unexpected static transcription call: no scripted transcriptions remain. It was "
        "static transcription call #1; "
    )
    assert len(stt.calls) == 1


@pytest.mark.asyncio
async def test_a_streamed_session_beyond_the_script_is_unexpected(
    drain: Any, voice_config: Any
) -> None:
    stt = ScriptedSTTModel("only static")
    audio = StreamedAudioInput()

    outcome = await drain(
        await pipeline(stt, ScriptedVoiceWorkflow(), ScriptedTTSModel(), voice_config).run(audio)
    )

    error = outcome.error
    assert isinstance(error, UnexpectedVoiceCall)
    assert error.operation == "streamed_session"
    assert isinstance(error.call, STTSessionCall)
    assert error.call.input is audio
    assert stt.created_sessions == ()


@pytest.mark.asyncio
async def test_assert_complete_counts_transcriptions_sessions_and_turns_of_created_sessions(
    drain: Any, voice_config: Any
) -> None:
    stt = ScriptedSTTModel(
        ["unused static", "another"],
        sessions=[ScriptedTranscriptionSession(["heard"]), ["never", "created"]],
    )
    created = stt.created_sessions
    assert created == ()
    with pytest.raises(UnconsumedVoiceSteps) as before:
        stt.assert_complete()
    assert before.value.remaining_steps == 4
    assert before.value.pending_steps == (
        "static_transcription",
        "static_transcription",
        "streamed_session",
        "streamed_session",
    )

    workflow = ScriptedVoiceWorkflow(["Heard you."])
    await drain(
        await pipeline(stt, workflow, ScriptedTTSModel([[PCM]]), voice_config).run(
            StreamedAudioInput()
        )
    )

    with pytest.raises(UnconsumedVoiceSteps) as after:
        stt.assert_complete()
    assert after.value.remaining_steps == 3
    assert after.value.pending_steps == (
        "static_transcription",
        "static_transcription",
        "streamed_session",
    )
    assert str(after.value).startswith(
        "3 scripted STT step(s) were not consumed. Left: 2 static_transcription, 1 "
        "streamed_session."
    )


@pytest.mark.asyncio
async def test_a_single_string_is_one_static_transcription() -> None:
    stt = ScriptedSTTModel("hello")
    settings = STTModelSettings()

    assert await stt.transcribe(AudioInput(np.zeros(1, dtype=np.int16)), settings, False, True) == (
        "hello"
    )
    call = stt.calls[0]
    assert (call.trace_include_sensitive_data, call.trace_include_sensitive_audio_data) == (
        False,
        True,
    )
    stt.assert_complete()


@pytest.mark.parametrize(
    ("kwargs", "reason", "index"),
    [
        ({"transcriptions": ["ok", 3]}, "invalid_transcription", 1),
        ({"transcriptions": [b"bytes"]}, "invalid_transcription", 0),
        ({"sessions": [["ok"], 5]}, "invalid_session", 1),
        ({"sessions": [["ok", None]]}, "invalid_session", 0),
        ({"sessions": [b"raw audio"]}, "invalid_session", 0),
        ({"transcriptions": 42}, "invalid_transcription", 0),
        ({"transcriptions": b"hello"}, "invalid_transcription", 0),
        ({"sessions": 42}, "invalid_session", 0),
    ],
)
def test_malformed_steps_are_rejected_when_scripted(
    kwargs: dict[str, Any], reason: str, index: int
) -> None:
    with pytest.raises(InvalidVoiceStep) as caught:
        ScriptedSTTModel(**kwargs)
    assert caught.value.reason == reason
    assert caught.value.input_index == index
    assert f"item {index + 1}" in str(caught.value)


@pytest.mark.asyncio
async def test_the_call_in_an_unexpected_call_error_is_a_copy() -> None:
    stt = ScriptedSTTModel()
    settings = STTModelSettings(turn_detection={"type": "vad"})
    audio = AudioInput(np.array([1, 2], dtype=np.int16))

    with pytest.raises(UnexpectedVoiceCall) as caught:
        await stt.transcribe(audio, settings, True, True)
    assert isinstance(caught.value.call, STTCall)
    caught.value.call.settings.turn_detection["type"] = "changed"  # type: ignore[index]
    caught.value.call.input.buffer[:] = 0

    assert stt.calls[0].settings.turn_detection == {"type": "vad"}
    assert stt.calls[0].input.buffer.tolist() == [1, 2]


@pytest.mark.asyncio
async def test_a_lone_session_or_exception_is_one_scripted_session() -> None:
    session = ScriptedTranscriptionSession(["hi", "there"])
    audio = StreamedAudioInput()
    stt = ScriptedSTTModel(sessions=session)

    created = await stt.create_session(audio, STTModelSettings(), False, False)

    assert created is session
    assert stt.created_sessions == (session,)
    with pytest.raises(UnconsumedVoiceSteps) as caught:
        stt.assert_complete()
    assert caught.value.pending_steps == ("session_turn", "session_turn")

    failure = ConnectionError("refused")
    failing = ScriptedSTTModel(sessions=failure)
    with pytest.raises(ConnectionError) as raised:
        await failing.create_session(audio, STTModelSettings(), False, False)
    assert raised.value is failure
    failing.assert_complete()


@pytest.mark.asyncio
async def test_a_session_scripted_twice_reports_its_turns_once() -> None:
    session = ScriptedTranscriptionSession(["only"])
    stt = ScriptedSTTModel(sessions=[session, session])
    audio = StreamedAudioInput()

    await stt.create_session(audio, STTModelSettings(), False, False)
    await stt.create_session(audio, STTModelSettings(), False, False)

    with pytest.raises(UnconsumedVoiceSteps) as caught:
        stt.assert_complete()
    assert caught.value.pending_steps == ("session_turn",)


def test_an_invalid_turn_inside_a_session_names_the_session_and_the_turn() -> None:
    with pytest.raises(InvalidVoiceStep) as caught:
        ScriptedSTTModel(sessions=[["fine"], ["also fine", 3]])  # type: ignore[list-item]

    assert (caught.value.reason, caught.value.input_index) == ("invalid_session", 1)
    assert str(caught.value).startswith("session 2, turn 2: a transcription turn must be")
    assert isinstance(caught.value.__cause__, InvalidVoiceStep)
    assert caught.value.__cause__.reason == "invalid_turn"


@pytest.mark.asyncio
async def test_a_call_whose_input_cannot_be_snapshotted_consumes_and_records_nothing(
    drain: Any, voice_config: Any
) -> None:
    stt = ScriptedSTTModel("first transcription")
    workflow = ScriptedVoiceWorkflow(["Hello."])
    voice = pipeline(stt, workflow, ScriptedTTSModel([[PCM]]), voice_config)
    # A lock cannot be copied, so the settings snapshot of this call fails.
    voice.config.stt_settings = STTModelSettings(turn_detection={"lock": threading.Lock()})

    failed = await drain(await voice.run(AudioInput(np.zeros(2, dtype=np.int16))))

    assert failed.error is not None
    assert not isinstance(failed.error, (KeyError, AttributeError))
    assert stt.calls == ()
    assert workflow.transcriptions == ()
    with pytest.raises(UnconsumedVoiceSteps) as caught:
        stt.assert_complete()
    assert caught.value.pending_steps == ("static_transcription",)

    voice.config.stt_settings = STTModelSettings(turn_detection={"type": "vad"})
    second = await drain(await voice.run(AudioInput(np.zeros(2, dtype=np.int16))))

    assert second.error is None
    assert workflow.transcriptions == ("first transcription",)  # type: ignore[comparison-overlap]
    assert len(stt.calls) == 1
    stt.assert_complete()


@pytest.mark.asyncio
async def test_a_session_call_whose_settings_cannot_be_snapshotted_creates_nothing(
    drain: Any, voice_config: Any
) -> None:
    session = ScriptedTranscriptionSession(["hello"])
    stt = ScriptedSTTModel(sessions=[session])
    voice = pipeline(stt, ScriptedVoiceWorkflow(["Hi."]), ScriptedTTSModel([[PCM]]), voice_config)
    voice.config.stt_settings = STTModelSettings(turn_detection={"lock": threading.Lock()})

    failed = await drain(await voice.run(StreamedAudioInput()))

    assert failed.error is not None
    assert (stt.session_calls, stt.created_sessions) == ((), ())
    assert session.remaining_turns == 1
    with pytest.raises(UnconsumedVoiceSteps) as caught:
        stt.assert_complete()
    assert caught.value.pending_steps == ("streamed_session",)


@pytest.mark.asyncio
async def test_scripted_text_is_a_plain_string_snapshot(drain: Any, voice_config: Any) -> None:
    class Shouting(str):
        def __str__(self) -> str:
            return self.upper()

    transcriptions: list[Any] = [Shouting("where is gate twelve")]
    stt = ScriptedSTTModel(transcriptions)
    transcriptions[0] = "replaced after building"
    workflow = ScriptedVoiceWorkflow(["Down the hall."])

    await drain(
        await pipeline(stt, workflow, ScriptedTTSModel([[PCM]]), voice_config).run(
            AudioInput(np.zeros(2, dtype=np.int16))
        )
    )

    assert workflow.transcriptions == ("where is gate twelve",)
    assert type(workflow.transcriptions[0]) is str


@pytest.mark.asyncio
async def test_changing_a_session_list_after_building_changes_nothing(
    drain: Any, voice_config: Any
) -> None:
    turns = ["first turn"]
    sessions: list[Any] = [turns]
    stt = ScriptedSTTModel(sessions=sessions)
    turns.append("added later")
    sessions.append(["another session"])
    workflow = ScriptedVoiceWorkflow(["Answer."])

    outcome = await drain(
        await pipeline(stt, workflow, ScriptedTTSModel([[PCM]]), voice_config).run(
            StreamedAudioInput()
        )
    )

    assert outcome.error is None
    assert workflow.transcriptions == ("first turn",)
    stt.assert_complete()


class RefusingBuffer(np.ndarray):
    """Audio samples whose own ``copy()`` fails."""

    failure: BaseException = RuntimeError("x")

    def copy(self, order: Any = "C") -> Any:
        raise self.failure


MARKED_COPIES: list[Any] = []


class MarkedBuffer(np.ndarray):
    """Audio samples whose own ``copy()`` hands back a marked plain array."""

    def copy(self, order: Any = "C") -> Any:
        copied = np.array(self, dtype=self.dtype) + 1
        MARKED_COPIES.append(copied)
        return copied


@pytest.mark.asyncio
async def test_static_audio_is_recorded_through_its_buffers_own_copy() -> None:
    """Shows VOX-1."""
    samples = np.zeros(3, dtype=np.int16).view(MarkedBuffer)
    audio = AudioInput(samples, frame_rate=16000, sample_width=2, channels=1)
    stt = ScriptedSTTModel("hello")

    assert await stt.transcribe(audio, STTModelSettings(), False, False) == "hello"

    [copied] = MARKED_COPIES
    [call] = stt.calls
    # What copy() returned was recorded (the +1 marks it), with the format alongside.
    assert call.input.buffer.tolist() == copied.tolist() == [1, 1, 1]
    assert (call.input.frame_rate, call.input.sample_width, call.input.channels) == (16000, 2, 1)
    samples[0] = 9
    assert stt.calls[0].input.buffer.tolist() == [1, 1, 1]


@pytest.mark.asyncio
async def test_a_buffer_whose_copy_raises_re_raises_it_and_consumes_nothing(
    drain: Any, voice_config: Any
) -> None:
    """Shows VOX-1."""
    failure = RuntimeError("x")
    RefusingBuffer.failure = failure
    audio = AudioInput(np.zeros(2, dtype=np.int16).view(RefusingBuffer))
    stt = ScriptedSTTModel("hello")
    workflow = ScriptedVoiceWorkflow(["Hi."])

    with pytest.raises(RuntimeError) as raised:
        await stt.transcribe(audio, STTModelSettings(), False, False)
    outcome = await drain(
        await pipeline(stt, workflow, ScriptedTTSModel([[PCM]]), voice_config).run(audio)
    )

    assert raised.value is failure
    assert outcome.error is failure
    assert (failure.__cause__, failure.__suppress_context__) == (None, False)
    assert (stt.calls, workflow.transcriptions) == ((), ())
    with pytest.raises(UnconsumedVoiceSteps) as left:
        stt.assert_complete()
    assert left.value.remaining_steps == 1


@pytest.mark.asyncio
async def test_with_extra_checks_a_buffer_whose_copy_raises_is_an_uncopyable_value() -> None:
    failure = RuntimeError("x")
    RefusingBuffer.failure = failure
    audio = AudioInput(np.zeros(2, dtype=np.int16).view(RefusingBuffer))
    stt = ScriptedSTTModel("hello", extra_checks=True)

    with pytest.raises(UncopyableValue, match=r"input\.buffer") as raised:
        await stt.transcribe(audio, STTModelSettings(), False, False)

    assert raised.value.__cause__ is failure
    assert stt.calls == ()
    with pytest.raises(UnconsumedVoiceSteps):
        stt.assert_complete()
