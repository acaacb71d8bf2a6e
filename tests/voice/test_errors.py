"""The voice errors: one base, the core kind bases, structured fields, worded as the SDK's own."""

from __future__ import annotations

import pickle
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
    InvalidVoiceStep,
    ScriptedSTTModel,
    ScriptedTranscriptionSession,
    ScriptedTTSModel,
    ScriptedVoiceWorkflow,
    UnconsumedVoiceSteps,
    UnexpectedVoiceCall,
    VoiceCallMatcherError,
    VoiceScriptError,
)

from agents_testing.core import (
    AgentsTestingError,
    InvalidStepError,
    UnconsumedStepsError,
    UnexpectedCallError,
    compat,
)


def test_every_error_has_the_voice_base_and_its_kind_base() -> None:
    assert issubclass(VoiceScriptError, AgentsTestingError)
    assert issubclass(InvalidVoiceStep, VoiceScriptError)
    assert issubclass(InvalidVoiceStep, InvalidStepError)
    assert issubclass(UnexpectedVoiceCall, VoiceScriptError)
    assert issubclass(UnexpectedVoiceCall, UnexpectedCallError)
    assert issubclass(UnconsumedVoiceSteps, VoiceScriptError)
    assert issubclass(UnconsumedVoiceSteps, UnconsumedStepsError)


def test_errors_are_built_from_a_message_and_keyword_fields() -> None:
    unexpected = UnexpectedVoiceCall("no more", operation="tts")
    left = UnconsumedVoiceSteps("left over", remaining_steps=2)
    invalid = InvalidVoiceStep("bad", reason="invalid_turn", input_index=1)
    rejected = VoiceCallMatcherError("no", operation="tts", call=None, call_index=0)

    assert (str(unexpected), unexpected.operation, unexpected.call, unexpected.call_index) == (
        "no more",
        "tts",
        None,
        0,
    )
    assert (str(left), left.remaining_steps, left.pending_steps) == ("left over", 2, ())
    assert (str(invalid), invalid.reason, invalid.input_index, invalid.argument) == (
        "bad",
        "invalid_turn",
        1,
        None,
    )
    assert (str(rejected), rejected.group_members) == ("no", 0)


@pytest.mark.parametrize(
    "error",
    [
        InvalidVoiceStep(
            "bad chunk", reason="invalid_chunk", input_index=2, detail="d", argument="chunks"
        ),
        UnexpectedVoiceCall("no more", operation="tts", call=None, call_index=1),
        UnconsumedVoiceSteps("left", remaining_steps=2, pending_steps=("tts", "tts")),
        VoiceCallMatcherError("no", operation="tts", call="text", call_index=1, group_members=2),
    ],
    ids=lambda error: type(error).__name__,
)
def test_errors_survive_pickling_with_their_fields(error: Exception) -> None:
    copy = pickle.loads(pickle.dumps(error))

    assert type(copy) is type(error)
    assert vars(copy) == vars(error)
    assert str(copy) == str(error)


def test_an_invalid_step_keeps_a_zero_based_index_and_numbers_from_one() -> None:
    with pytest.raises(InvalidVoiceStep) as caught:
        ScriptedTranscriptionSession(["fine", 3])  # type: ignore[list-item]

    assert (caught.value.reason, caught.value.input_index, caught.value.argument) == (
        "invalid_turn",
        1,
        "turns",
    )
    assert str(caught.value).endswith("(turns item 2, reason 'invalid_turn')")


def _silence() -> AudioInput:
    return AudioInput(np.zeros(2, dtype=np.int16))


async def _drain(pipeline: VoicePipeline, audio: Any) -> BaseException | None:
    result = await pipeline.run(audio)
    try:
        async for _ in result.stream():
            pass
    except Exception as error:
        return error
    return None


def _pipeline(
    stt: ScriptedSTTModel, workflow: ScriptedVoiceWorkflow, tts: ScriptedTTSModel
) -> VoicePipeline:
    return VoicePipeline(
        workflow=workflow,
        stt_model=stt,
        tts_model=tts,
        config=VoicePipelineConfig(
            tracing_disabled=True, tts_settings=TTSModelSettings(buffer_size=1)
        ),
    )


@pytest.mark.asyncio
async def test_an_exhausted_static_transcription_says_no_scripted_transcriptions_remain() -> None:
    """Shows VOX-2."""
    stt = ScriptedSTTModel(sessions=["streamed only"])
    error = await _drain(_pipeline(stt, ScriptedVoiceWorkflow(), ScriptedTTSModel()), _silence())

    assert isinstance(error, UnexpectedVoiceCall)
    assert error.operation == "static_transcription"
    assert str(error).startswith(
        "Unexpected static transcription call: no scripted transcriptions remain. "
    )
    with pytest.raises(UnexpectedVoiceCall, match="no scripted transcriptions remain"):
        await stt.transcribe(_silence(), STTModelSettings(), False, False)


@pytest.mark.asyncio
async def test_an_exhausted_session_script_says_no_scripted_sessions_remain() -> None:
    """Shows VOX-2."""
    stt = ScriptedSTTModel("static only")
    error = await _drain(
        _pipeline(stt, ScriptedVoiceWorkflow(), ScriptedTTSModel()), StreamedAudioInput()
    )

    assert isinstance(error, UnexpectedVoiceCall)
    assert error.operation == "streamed_session"
    assert str(error).startswith(
        "Unexpected streamed transcription session: no scripted sessions remain. "
    )


@pytest.mark.asyncio
async def test_an_exhausted_tts_script_says_no_scripted_results_remain() -> None:
    """Shows VOX-2."""
    tts = ScriptedTTSModel()
    error = await _drain(
        _pipeline(ScriptedSTTModel("hi"), ScriptedVoiceWorkflow(["Hello."]), tts), _silence()
    )

    assert isinstance(error, UnexpectedVoiceCall)
    assert error.operation == "tts"
    assert str(error).startswith("Unexpected TTS call: no scripted results remain. ")
    with pytest.raises(UnexpectedVoiceCall, match="no scripted results remain"):
        [chunk async for chunk in tts.run("again", TTSModelSettings())]


@pytest.mark.asyncio
async def test_an_exhausted_workflow_says_no_scripted_turns_remain() -> None:
    """Shows VOX-2."""
    workflow = ScriptedVoiceWorkflow()
    error = await _drain(
        _pipeline(ScriptedSTTModel("hi"), workflow, ScriptedTTSModel()), _silence()
    )

    assert isinstance(error, UnexpectedVoiceCall)
    assert error.operation == "workflow_turn"
    assert str(error).startswith("Unexpected workflow turn: no scripted turns remain. ")


@pytest.mark.asyncio
async def test_a_second_start_says_no_scripted_startup_step_remains() -> None:
    """Shows VOX-2."""
    workflow = ScriptedVoiceWorkflow(["Hello."], start="Welcome.")
    # Releases before 0.20 speak the greeting together with the first answer.
    spoken = 2 if compat.voice_finalizes_intro_turn() else 1
    tts = ScriptedTTSModel([[b"\x00\x00"]] * spoken)
    stt = ScriptedSTTModel(sessions=[["hi"]])
    assert await _drain(_pipeline(stt, workflow, tts), StreamedAudioInput()) is None

    with pytest.raises(
        UnexpectedVoiceCall,
        match=r"^Unexpected workflow startup call: no scripted startup step remains\. ",
    ) as caught:
        [text async for text in workflow.on_start()]
    assert (caught.value.operation, caught.value.call_index) == ("workflow_start", 1)
    # A workflow made without a start may start any number of times.
    unscripted = ScriptedVoiceWorkflow()
    for _ in range(3):
        assert [text async for text in unscripted.on_start()] == []


@pytest.mark.asyncio
async def test_unconsumed_transcription_turns_are_counted_also_after_close() -> None:
    """Shows VOX-2."""
    session = ScriptedTranscriptionSession(["one", "two", "three"])
    turns = session.transcribe_turns()
    assert await turns.__anext__() == "one"
    await session.close()

    with pytest.raises(
        UnconsumedVoiceSteps, match=r"^2 scripted transcription turn\(s\) were not consumed\. "
    ) as caught:
        session.assert_complete()
    assert (caught.value.remaining_steps, caught.value.pending_steps) == (
        2,
        ("session_turn", "session_turn"),
    )


def test_unconsumed_stt_steps_count_static_transcriptions_and_sessions_first() -> None:
    stt = ScriptedSTTModel(["a", "b"], sessions=[["turn"]])

    with pytest.raises(
        UnconsumedVoiceSteps, match=r"^3 scripted STT step\(s\) were not consumed\. "
    ) as caught:
        stt.assert_complete()
    assert caught.value.remaining_steps == 3


@pytest.mark.asyncio
async def test_the_stt_check_then_reports_each_created_sessions_own_turns() -> None:
    stt = ScriptedSTTModel(sessions=[["heard", "never heard"]])
    # The workflow has no turn for the first transcription, so the pipeline stops there.
    error = await _drain(
        _pipeline(stt, ScriptedVoiceWorkflow(), ScriptedTTSModel()), StreamedAudioInput()
    )
    assert isinstance(error, UnexpectedVoiceCall)

    with pytest.raises(UnconsumedVoiceSteps, match="1 scripted transcription turn") as caught:
        stt.assert_complete()
    assert (caught.value.remaining_steps, caught.value.pending_steps) == (1, ("session_turn",))


def test_unconsumed_tts_results_say_scripted_tts_result() -> None:
    """Shows VOX-2."""
    with pytest.raises(
        UnconsumedVoiceSteps, match=r"^2 scripted TTS result\(s\) were not consumed\. "
    ) as caught:
        ScriptedTTSModel([[b"\x00\x00"], [b"\x00\x00"]]).assert_complete()
    assert caught.value.remaining_steps == 2


@pytest.mark.parametrize(
    ("turns", "start", "message", "remaining"),
    [
        ([], "Welcome.", "1 scripted workflow startup step was not consumed. ", 1),
        (["One.", "Two."], None, "2 scripted workflow turn(s) were not consumed. ", 2),
        (["One.", "Two."], "Welcome.", "3 scripted workflow step(s) were not consumed. ", 3),
    ],
    ids=["start", "turns", "start-and-turns"],
)
def test_unconsumed_workflow_steps_are_worded_by_what_is_left(
    turns: list[str], start: str | None, message: str, remaining: int
) -> None:
    """Shows VOX-2: the message begins with the SDK double's whole sentence."""
    with pytest.raises(UnconsumedVoiceSteps) as caught:
        ScriptedVoiceWorkflow(turns, start=start).assert_complete()
    assert str(caught.value).startswith(message)
    assert caught.value.remaining_steps == remaining


def _looped_chunks() -> list[Any]:
    chunks: list[Any] = [b"\x00\x00"]
    chunks.append(chunks)
    return chunks


def _looped_turn() -> list[Any]:
    turn: list[Any] = ["Hello."]
    turn.append(turn)
    return turn


@pytest.mark.parametrize(
    ("build", "reason", "argument", "where"),
    [
        (
            lambda checks: ScriptedTTSModel([_looped_chunks()], extra_checks=checks),
            "invalid_tts_result",
            "results",
            "result 1[1] refers back to result 1",
        ),
        (
            lambda checks: ScriptedSTTModel([_looped_turn()], extra_checks=checks),  # type: ignore[list-item]
            "invalid_transcription",
            "transcriptions",
            "transcription 1[1] refers back to transcription 1",
        ),
        (
            lambda checks: ScriptedSTTModel(sessions=[_looped_turn()], extra_checks=checks),
            "invalid_session",
            "sessions",
            "session 1[1] refers back to session 1",
        ),
        (
            lambda checks: ScriptedVoiceWorkflow([_looped_turn()], extra_checks=checks),
            "invalid_workflow_result",
            "turns",
            "turn 1[1] refers back to turn 1",
        ),
        (
            lambda checks: ScriptedVoiceWorkflow(start=_looped_turn(), extra_checks=checks),
            "invalid_workflow_result",
            "start",
            "start[1] refers back to start",
        ),
    ],
    ids=["tts", "transcription", "session", "turn", "start"],
)
def test_a_result_that_contains_itself_is_refused_naming_the_cycle_with_extra_checks(
    build: Any, reason: str, argument: str, where: str
) -> None:
    """With ``extra_checks`` the cycle is named; a bare double refuses the same value by
    its type, as before (the SDK's doubles take it and fail later); never a
    ``RecursionError``."""
    with pytest.raises(InvalidVoiceStep) as checked:
        build(True)
    assert (checked.value.reason, checked.value.input_index, checked.value.argument) == (
        reason,
        0,
        argument,
    )
    assert str(checked.value).startswith(
        f"{where}, so the value contains itself (a cycle) ({argument} item 1, "
    )

    with pytest.raises(InvalidVoiceStep) as bare:
        build(False)
    assert "contains itself" not in str(bare.value)
