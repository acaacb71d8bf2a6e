"""ScriptedTranscriptionSession: turns, closing, close errors and skipped turns."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from agents.voice import (
    StreamedAudioInput,
    StreamedTranscriptionSession,
    VoicePipeline,
    VoiceWorkflowBase,
)
from agents.voice.testing import (
    InvalidVoiceStep,
    ScriptedSTTModel,
    ScriptedTranscriptionSession,
    ScriptedTTSModel,
    ScriptedVoiceWorkflow,
    UnconsumedVoiceSteps,
    pcm16_samples,
)

from agents_testing.core import compat

PCM = pcm16_samples([5, 6])


class HangUpWorkflow(VoiceWorkflowBase):
    """An application workflow that ends the call when the caller says goodbye."""

    def __init__(self, stt: ScriptedSTTModel, answers: ScriptedVoiceWorkflow) -> None:
        self._stt = stt
        self._answers = answers

    async def run(self, transcription: str) -> AsyncIterator[str]:
        async for text in self._answers.run(transcription):
            yield text
        if transcription == "goodbye":
            await self._stt.created_sessions[-1].close()


async def collect(session: ScriptedTranscriptionSession) -> list[str]:
    return [turn async for turn in session.transcribe_turns()]


def test_is_a_streamed_transcription_session() -> None:
    assert isinstance(ScriptedTranscriptionSession(), StreamedTranscriptionSession)


@pytest.mark.asyncio
async def test_turns_are_yielded_in_order_and_then_iteration_ends() -> None:
    session = ScriptedTranscriptionSession(["first turn", "second turn"])

    assert await collect(session) == ["first turn", "second turn"]
    assert (session.remaining_turns, session.pending_turns) == (0, ())
    assert not session.closed
    session.assert_complete()


@pytest.mark.asyncio
async def test_a_single_string_is_one_turn() -> None:
    assert await collect(ScriptedTranscriptionSession("only turn")) == ["only turn"]


@pytest.mark.asyncio
async def test_closing_stops_iteration_and_leaves_the_skipped_turns_pending() -> None:
    session = ScriptedTranscriptionSession(["one", "two", "three"])
    turns = session.transcribe_turns()

    assert await turns.__anext__() == "one"
    await session.close()

    with pytest.raises(StopAsyncIteration):
        await turns.__anext__()
    assert session.closed
    assert session.close_calls == 1
    assert (session.remaining_turns, session.pending_turns) == (2, ("two", "three"))
    with pytest.raises(UnconsumedVoiceSteps) as caught:
        session.assert_complete()
    assert caught.value.remaining_steps == 2
    assert caught.value.pending_steps == ("session_turn", "session_turn")


@pytest.mark.asyncio
async def test_closing_mid_session_ends_the_pipeline_run_and_stt_reports_the_skipped_turns(
    drain: Any, voice_config: Any
) -> None:
    stt = ScriptedSTTModel(sessions=[["hello", "goodbye", "are you still there", "hello?"]])
    answers = ScriptedVoiceWorkflow(["Hi there.", "Bye now."])
    tts = ScriptedTTSModel([[PCM], [PCM]])
    pipeline = VoicePipeline(
        workflow=HangUpWorkflow(stt, answers), stt_model=stt, tts_model=tts, config=voice_config()
    )

    outcome = await drain(await pipeline.run(StreamedAudioInput()))

    assert outcome.error is None
    assert outcome.kinds[-1] == "session_ended"
    assert answers.transcriptions == ("hello", "goodbye")
    (session,) = stt.created_sessions
    assert session.closed
    # Once by the workflow, once more by the pipeline's own cleanup.
    assert session.close_calls == 2
    answers.assert_complete()
    tts.assert_complete()
    with pytest.raises(UnconsumedVoiceSteps) as caught:
        stt.assert_complete()
    assert caught.value.remaining_steps == 2
    assert caught.value.pending_steps == ("session_turn", "session_turn")


@pytest.mark.asyncio
async def test_the_pipeline_closes_the_session_when_its_turns_run_out(
    drain: Any, voice_config: Any
) -> None:
    session = ScriptedTranscriptionSession(["hello"])
    stt = ScriptedSTTModel(sessions=[session])
    pipeline = VoicePipeline(
        workflow=ScriptedVoiceWorkflow(["Hi."]),
        stt_model=stt,
        tts_model=ScriptedTTSModel([[PCM]]),
        config=voice_config(),
    )

    outcome = await drain(await pipeline.run(StreamedAudioInput()))

    assert outcome.kinds == ["turn_started", "audio", "turn_ended", "session_ended"]
    assert session.close_calls == 1
    stt.assert_complete()


needs_close_error_reporting = pytest.mark.skipif(
    not compat.voice_reports_close_errors(),
    reason="close_error is refused before openai-agents 0.20 (see the next test)",
)


def test_close_error_is_refused_where_the_pipeline_cannot_report_it() -> None:
    if compat.voice_reports_close_errors():
        assert ScriptedTranscriptionSession(close_error=RuntimeError("gone")).close_calls == 0
        return
    # Before 0.20 the pipeline's task dies on a failing close() and stream() never ends.
    with pytest.raises(InvalidVoiceStep, match=r"needs openai-agents 0\.20") as caught:
        ScriptedTranscriptionSession(["hello"], close_error=RuntimeError("gone"))
    assert (caught.value.reason, caught.value.argument) == ("invalid_close_error", "close_error")


@needs_close_error_reporting
@pytest.mark.asyncio
async def test_close_error_is_raised_by_close_and_the_session_is_closed_anyway() -> None:
    failure = RuntimeError("socket already gone")
    session = ScriptedTranscriptionSession(["hello"], close_error=failure)

    with pytest.raises(RuntimeError) as caught:
        await session.close()

    assert caught.value is failure
    assert session.closed
    assert await collect(session) == []
    assert (session.remaining_turns, session.pending_turns) == (1, ("hello",))


@needs_close_error_reporting
@pytest.mark.asyncio
async def test_close_error_reaches_the_pipeline_consumer(drain: Any, voice_config: Any) -> None:
    failure = RuntimeError("socket already gone")
    session = ScriptedTranscriptionSession(["hello"], close_error=failure)
    stt = ScriptedSTTModel(sessions=[session])
    workflow = ScriptedVoiceWorkflow(["Hi."])
    pipeline = VoicePipeline(
        workflow=workflow,
        stt_model=stt,
        tts_model=ScriptedTTSModel([[PCM]]),
        config=voice_config(),
    )

    outcome = await drain(await pipeline.run(StreamedAudioInput()))

    assert outcome.error is failure
    assert "session_ended" not in outcome.kinds
    assert workflow.transcriptions == ("hello",)
    assert session.closed
    assert session.close_calls == 1
    stt.assert_complete()


@pytest.mark.asyncio
async def test_a_turn_given_as_an_exception_fails_the_stream_after_earlier_turns(
    drain: Any, voice_config: Any
) -> None:
    failure = ConnectionResetError("stream dropped")
    session = ScriptedTranscriptionSession(["hello", failure, "never heard"])
    stt = ScriptedSTTModel(sessions=[session])
    workflow = ScriptedVoiceWorkflow(["Hi."])
    pipeline = VoicePipeline(
        workflow=workflow,
        stt_model=stt,
        tts_model=ScriptedTTSModel([[PCM]]),
        config=voice_config(),
    )

    outcome = await drain(await pipeline.run(StreamedAudioInput()))

    assert outcome.error is failure
    assert workflow.transcriptions == ("hello",)
    assert session.closed
    assert (session.remaining_turns, session.pending_turns) == (1, ("never heard",))
    with pytest.raises(UnconsumedVoiceSteps) as caught:
        stt.assert_complete()
    assert caught.value.remaining_steps == 1


@pytest.mark.parametrize(
    ("turns", "index"),
    [(["ok", 1], 1), ([None], 0), ([b"audio"], 0), (7, 0)],
)
def test_malformed_turns_are_rejected(turns: list[Any], index: int) -> None:
    with pytest.raises(InvalidVoiceStep) as caught:
        ScriptedTranscriptionSession(turns)
    assert caught.value.reason == "invalid_turn"
    assert caught.value.input_index == index


@pytest.mark.parametrize("close_error", ["socket gone", 3, KeyboardInterrupt(), UnicodeDecodeError])
def test_close_error_must_be_an_exception_that_can_be_raised(close_error: Any) -> None:
    with pytest.raises(InvalidVoiceStep) as caught:
        ScriptedTranscriptionSession(["hi"], close_error=close_error)
    assert (caught.value.reason, caught.value.argument) == ("invalid_close_error", "close_error")


@pytest.mark.skipif(
    not compat.voice_ends_silent_sessions(),
    reason="before openai-agents 0.20 the pipeline never ends a streamed run without text",
)
@pytest.mark.asyncio
async def test_a_session_closed_before_the_run_yields_no_turn_and_keeps_them_pending(
    drain: Any, voice_config: Any
) -> None:
    session = ScriptedTranscriptionSession(["hello", "goodbye"])
    await session.close()
    stt = ScriptedSTTModel(sessions=[session])
    workflow = ScriptedVoiceWorkflow()
    pipeline = VoicePipeline(
        workflow=workflow, stt_model=stt, tts_model=ScriptedTTSModel(), config=voice_config()
    )

    outcome = await drain(await pipeline.run(StreamedAudioInput()))

    assert outcome.error is None
    assert outcome.kinds == ["session_ended"]
    assert workflow.transcriptions == ()
    assert stt.created_sessions == (session,)
    assert session.pending_turns == ("hello", "goodbye")
    with pytest.raises(UnconsumedVoiceSteps) as caught:
        stt.assert_complete()
    assert caught.value.pending_steps == ("session_turn", "session_turn")


@pytest.mark.asyncio
async def test_an_iteration_started_after_close_yields_nothing() -> None:
    session = ScriptedTranscriptionSession(["hello"])
    turns = session.transcribe_turns()
    await session.close()

    assert [turn async for turn in turns] == []
    assert [turn async for turn in session.transcribe_turns()] == []
    assert session.remaining_turns == 1


@pytest.mark.asyncio
async def test_changing_the_turn_list_after_building_changes_nothing() -> None:
    turns: list[Any] = ["hello"]
    session = ScriptedTranscriptionSession(turns)
    turns.append("added later")
    turns[0] = "replaced"

    assert await collect(session) == ["hello"]
    assert session.pending_turns == ()
