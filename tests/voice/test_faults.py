"""A transcription session that drops mid-turn and a TTS stream that stalls, via ``VoicePipeline``.

What a drop looks like was read off the SDK's own ``OpenAISTTTranscriptionSession``
against a real socket dropped in the middle of a user's second utterance: from 0.19.3
the pipeline's stream raises ``STTWebsocketConnectionError("Error parsing events")``
caused by ``websockets``' ``ConnectionClosedError``; 0.14.8 raises that
``ConnectionClosedError`` itself. The SDK puts no timeout on a TTS stream, so a stalled
one holds the pipeline for as long as it stalls, on the virtual clock here.
"""

from __future__ import annotations

import asyncio
from typing import Any

import numpy as np
import pytest
from agents.voice import (
    AudioInput,
    StreamedAudioInput,
    StreamedAudioResult,
    VoicePipeline,
    VoicePipelineConfig,
)
from websockets.exceptions import ConnectionClosedError

from agents_testing.core import ClockWait, VirtualClock, compat
from agents_testing.voice import (
    InvalidVoiceStep,
    ScriptedSTTModel,
    ScriptedTranscriptionSession,
    ScriptedTTSModel,
    ScriptedVoiceWorkflow,
    TTSResult,
    UnconsumedVoiceSteps,
    pcm16_samples,
)

# What the pipeline's stream raises when the transcription socket drops (0.19.3 wraps it).
DROP_ERROR: type[Exception] = ConnectionClosedError
if compat.sdk_at_least(0, 19, 3):
    from agents.voice.exceptions import STTWebsocketConnectionError

    DROP_ERROR = STTWebsocketConnectionError
DROP_MESSAGE = "Error parsing events" if compat.sdk_at_least(0, 19, 3) else "no close frame"

HELLO = pcm16_samples([0, 100, -100, 0])
WORLD = pcm16_samples([1, 2, 3, 4])
GUARD_SECONDS = 10.0


def pipeline(stt: ScriptedSTTModel, workflow: ScriptedVoiceWorkflow, tts: ScriptedTTSModel) -> Any:
    return VoicePipeline(
        workflow=workflow,
        stt_model=stt,
        tts_model=tts,
        config=VoicePipelineConfig(tracing_disabled=True),
    )


async def consume(result: StreamedAudioResult) -> list[str]:
    """The stream's event types (lifecycle events by name) until it ends or raises."""
    seen: list[str] = []

    async def scan() -> None:
        async for event in result.stream():
            seen.append(getattr(event, "event", None) or event.type)

    await asyncio.wait_for(scan(), GUARD_SECONDS)
    return seen


# -- a transcription session that drops ---------------------------------------------------


@pytest.mark.asyncio
async def test_a_transcription_session_dropping_mid_turn_fails_the_stream_as_the_sdk_does() -> None:
    session = ScriptedTranscriptionSession(["Book a flight to Oslo"], drop_after=1)
    workflow = ScriptedVoiceWorkflow(["Which day?"])
    run = pipeline(ScriptedSTTModel(sessions=[session]), workflow, ScriptedTTSModel([[HELLO]]))

    result = await run.run(StreamedAudioInput())
    seen: list[str] = []

    async def listen() -> None:
        async for event in result.stream():
            seen.append(getattr(event, "event", None) or event.type)

    with pytest.raises(DROP_ERROR) as raised:
        await asyncio.wait_for(listen(), GUARD_SECONDS)

    # The first turn was answered before the connection dropped in the second.
    assert seen == ["turn_started", "voice_stream_event_audio", "turn_ended"]
    if compat.sdk_at_least(0, 19, 3):
        assert type(raised.value) is STTWebsocketConnectionError
        assert str(raised.value) == "Error parsing events"
        cause = raised.value.__cause__
        assert isinstance(cause, ConnectionClosedError)
        assert str(cause) == "no close frame received or sent"
    else:
        assert type(raised.value) is ConnectionClosedError
        assert str(raised.value) == "no close frame received or sent"
    assert workflow.transcriptions == ("Book a flight to Oslo",)
    assert session.dropped is True
    assert session.closed is True  # the pipeline closed it, as it closes the SDK's own


@pytest.mark.asyncio
async def test_a_session_that_drops_before_any_turn_ends_the_run_with_the_drop() -> None:
    session = ScriptedTranscriptionSession([], drop_after=0)
    workflow = ScriptedVoiceWorkflow([])
    run = pipeline(ScriptedSTTModel(sessions=[session]), workflow, ScriptedTTSModel([]))

    result = await run.run(StreamedAudioInput())

    with pytest.raises(DROP_ERROR, match=DROP_MESSAGE):
        await consume(result)
    assert workflow.transcriptions == ()


@pytest.mark.asyncio
async def test_turns_scripted_after_the_drop_are_never_transcribed_and_stay_pending() -> None:
    session = ScriptedTranscriptionSession(["one", "two", "three"], drop_after=1)
    stt = ScriptedSTTModel(sessions=[session])
    run = pipeline(stt, ScriptedVoiceWorkflow(["Answer."]), ScriptedTTSModel([[HELLO]]))

    result = await run.run(StreamedAudioInput())
    with pytest.raises(DROP_ERROR, match=DROP_MESSAGE):
        await consume(result)

    assert session.remaining_turns == 2
    with pytest.raises(UnconsumedVoiceSteps, match="2 scripted transcription turn"):
        stt.assert_complete()


@pytest.mark.parametrize(
    ("drop_after", "message"),
    [
        (2, "after more turns than the session has \\(1\\)"),
        (-1, "an int >= 0"),
        (True, "got bool"),
        ("1", "got str"),
    ],
)
def test_a_bad_drop_after_is_refused_when_the_session_is_made(
    drop_after: Any, message: str
) -> None:
    with pytest.raises(InvalidVoiceStep, match=message) as raised:
        ScriptedTranscriptionSession(["one"], drop_after=drop_after)

    assert (raised.value.reason, raised.value.argument) == ("invalid_fault", "drop_after")


def test_a_session_without_drop_after_never_drops() -> None:
    session = ScriptedTranscriptionSession(["one"])

    async def turns() -> list[str]:
        return [turn async for turn in session.transcribe_turns()]

    assert asyncio.run(turns()) == ["one"]
    assert session.dropped is False


# -- a TTS stream that stalls ---------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_stalled_tts_stream_holds_the_pipeline_on_the_clock(
    virtual_clock: VirtualClock,
) -> None:
    tts = ScriptedTTSModel([TTSResult([HELLO, WORLD], delays={1: 30.0})])
    run = pipeline(ScriptedSTTModel(["Hi"]), ScriptedVoiceWorkflow(["Hello there."]), tts)

    result = await run.run(AudioInput(buffer=np.zeros(8, dtype=np.int16)))
    stream = result.stream()
    first = await asyncio.wait_for(stream.__anext__(), GUARD_SECONDS)
    assert getattr(first, "event", None) == "turn_started"

    # The application's watchdog gives up on the audio after ten seconds...
    audio_event = asyncio.ensure_future(stream.__anext__())
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(asyncio.shield(audio_event), 10.0)
    assert virtual_clock.now == 10.0
    # ...while the pipeline goes on waiting: the audio comes when the stall ends.
    event = await audio_event
    assert event.type == "voice_stream_event_audio"
    assert (virtual_clock.now, event.data.tobytes()) == (30.0, HELLO + WORLD)
    rest = [getattr(event, "event", None) or event.type async for event in stream]

    assert rest == ["turn_ended", "session_ended"]
    assert ClockWait("scripted", 0.0, 30.0) in virtual_clock.waits
    tts.assert_complete()


@pytest.mark.asyncio
async def test_a_stall_before_the_end_delays_the_end_of_the_turn(
    virtual_clock: VirtualClock,
) -> None:
    tts = ScriptedTTSModel([TTSResult([HELLO], delays={0: 1.0, 1: 4.0})])
    run = pipeline(ScriptedSTTModel(["Hi"]), ScriptedVoiceWorkflow(["Hello there."]), tts)

    result = await run.run(AudioInput(buffer=np.zeros(8, dtype=np.int16)))
    ended_at = None
    async for event in result.stream():
        if getattr(event, "event", None) == "turn_ended":
            ended_at = virtual_clock.now

    assert ended_at == 5.0
    assert [wait.seconds for wait in virtual_clock.waits if wait.kind == "scripted"] == [1.0, 4.0]


@pytest.mark.parametrize(
    ("delays", "message"),
    [
        ({2: 1.0}, "has 1 chunk\\(s\\)"),
        ({0: -1.0}, "time only moves forward"),
        ({-1: 1.0}, "chunk position"),
        ({True: 1.0}, "chunk position"),
        ({"0": 1.0}, "chunk position"),
        ({0: float("inf")}, "finite"),
        ([(0, 1.0)], "maps chunk positions to seconds"),
    ],
)
def test_bad_tts_delays_are_refused_when_the_result_is_made(delays: Any, message: str) -> None:
    with pytest.raises(InvalidVoiceStep, match=message) as raised:
        TTSResult([HELLO], delays=delays)

    assert (raised.value.reason, raised.value.argument) == ("invalid_fault", "delays")


def test_tts_results_compare_and_show_their_delays() -> None:
    stalled = TTSResult([HELLO], delays={1: 2.0, 0: 0})

    assert stalled == TTSResult([HELLO], delays={1: 2.0})
    assert stalled != TTSResult([HELLO])
    assert stalled.delays == {1: 2.0}
    assert repr(stalled).endswith("delays={1: 2.0})")
    assert TTSResult([HELLO]).delays == {}
