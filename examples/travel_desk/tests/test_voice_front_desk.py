"""The voice front desk: scripted speech in, the real agent (or a scripted workflow), speech out.

Recipes: voice pipeline (static and streamed), streamed transcription sessions.
"""

from __future__ import annotations

import numpy as np
import pytest
from agents.testing import assistant_message, function_call
from agents.voice import (
    AudioInput,
    StreamedAudioInput,
    StreamedAudioResult,
    VoiceStreamEvent,
    VoiceStreamEventAudio,
    VoiceStreamEventLifecycle,
)
from agents.voice.testing import (
    ScriptedTranscriptionSession,
    TTSResult,
    pcm16_samples,
)
from travel_desk import GREETING, front_desk_config, front_desk_pipeline
from travel_desk.voice import speak_finished_sentences

from ._types import ScriptModel, ScriptSTT, ScriptTTS, ScriptWorkflow

CONFIG = front_desk_config(tracing_disabled=True)
SPEECH = pcm16_samples([0, 100, -100, 0])


def live_audio() -> StreamedAudioInput:
    """An open microphone stream; the scripted STT session decides what was said."""
    return StreamedAudioInput()


async def events_of(result: StreamedAudioResult) -> list[VoiceStreamEvent]:
    return [event async for event in result.stream()]


def lifecycle(events: list[VoiceStreamEvent]) -> list[str]:
    return [event.event for event in events if isinstance(event, VoiceStreamEventLifecycle)]


def audio_bytes(events: list[VoiceStreamEvent]) -> bytes:
    return b"".join(
        event.data.tobytes()
        for event in events
        if isinstance(event, VoiceStreamEventAudio) and event.data is not None
    )


@pytest.mark.asyncio
async def test_a_spoken_question_is_answered_by_the_agent_and_spoken_back(
    scripted_model: ScriptModel, scripted_stt: ScriptSTT, scripted_tts: ScriptTTS
) -> None:
    model = scripted_model(
        [
            [function_call("departure_board", {"flight_number": "TD205"}, call_id="board")],
            [assistant_message("Sorry, TD205 is sold out.")],
        ]
    )
    stt = scripted_stt("Is there room on TD205?")
    tts = scripted_tts([TTSResult([SPEECH])])
    pipeline = front_desk_pipeline(model=model, stt_model=stt, tts_model=tts, config=CONFIG)

    result = await pipeline.run(AudioInput(np.zeros(2, dtype=np.int16)))
    events = await events_of(result)

    assert [call.text for call in tts.calls] == ["Sorry, TD205 is sold out."]
    assert tts.calls[0].settings.voice == "nova"
    assert audio_bytes(events) == SPEECH
    assert lifecycle(events)[-1] == "session_ended"
    # The agent saw the transcription, and the board's answer before it spoke.
    assert model.first_call is not None
    assert model.first_call.input == [{"content": "Is there room on TD205?", "role": "user"}]
    assert model.last_call is not None
    assert list(model.last_call.tool_outputs().values()) == ["TD205 departs 2026-12-24: sold out."]


@pytest.mark.asyncio
async def test_a_live_call_is_greeted_then_each_turn_is_answered(
    scripted_model: ScriptModel, scripted_stt: ScriptSTT, scripted_tts: ScriptTTS
) -> None:
    model = scripted_model(
        [
            [assistant_message("TD101 has seats.")],
            [assistant_message("You are welcome.")],
        ]
    )
    stt = scripted_stt(sessions=[ScriptedTranscriptionSession(["Any seats on TD101?", "Thanks"])])
    greeting, first, second = (pcm16_samples([n, -n]) for n in (1, 2, 3))
    tts = scripted_tts([TTSResult([greeting]), TTSResult([first]), TTSResult([second])])
    pipeline = front_desk_pipeline(model=model, stt_model=stt, tts_model=tts, config=CONFIG)

    result = await pipeline.run(live_audio())
    events = await events_of(result)

    # The whole greeting is spoken before the caller's first question is answered.
    assert [call.text for call in tts.calls] == [GREETING, "TD101 has seats.", "You are welcome."]
    assert audio_bytes(events) == greeting + first + second
    assert lifecycle(events)[-1] == "session_ended"
    # The second turn remembers the first.
    assert model.last_call is not None
    said = [message.text for message in model.last_call.messages]
    assert said[0] == "Any seats on TD101?"
    assert len(stt.created_sessions) == 1


@pytest.mark.asyncio
async def test_a_swapped_in_workflow_is_greeted_and_spoken_sentence_by_sentence(
    scripted_stt: ScriptSTT, scripted_tts: ScriptTTS, scripted_voice_workflow: ScriptWorkflow
) -> None:
    # An operator bridge, say, instead of the agent: only the pipeline is under test here.
    workflow = scripted_voice_workflow(
        turns=[["Connecting you ", "to an operator."]],
        start="You are through to the front desk.",
    )
    stt = scripted_stt(sessions=[["I want a human"]])
    tts = scripted_tts([TTSResult([SPEECH]), TTSResult([SPEECH])])
    pipeline = front_desk_pipeline(workflow=workflow, stt_model=stt, tts_model=tts, config=CONFIG)

    result = await pipeline.run(live_audio())
    await events_of(result)

    assert workflow.transcriptions == ("I want a human",)
    # Two fragments, one sentence: the splitter joins them before speech.
    assert [call.text for call in tts.calls] == [
        "You are through to the front desk.",
        "Connecting you to an operator.",
    ]


@pytest.mark.asyncio
async def test_a_recorded_clip_is_never_greeted(
    scripted_stt: ScriptSTT, scripted_tts: ScriptTTS, scripted_voice_workflow: ScriptWorkflow
) -> None:
    workflow = scripted_voice_workflow(turns=["One moment."])
    stt = scripted_stt("Hello?")
    tts = scripted_tts([TTSResult([SPEECH])])
    pipeline = front_desk_pipeline(workflow=workflow, stt_model=stt, tts_model=tts, config=CONFIG)

    result = await pipeline.run(AudioInput(np.zeros(2, dtype=np.int16)))
    await events_of(result)

    assert [call.text for call in tts.calls] == ["One moment."]
    assert stt.calls[0].input.buffer.tolist() == [0, 0]


@pytest.mark.parametrize(
    ("buffer", "spoken", "kept"),
    [
        (
            "Welcome to the travel desk. How can I help?",
            "Welcome to the travel desk. How can I help?",
            "",
        ),
        ("TD101 has three seats left. Shall I", "TD101 has three seats left.", "Shall I"),
        ("Yes. No", "", "Yes. No"),
    ],
)
def test_finished_sentences_are_spoken_at_once_and_an_unfinished_tail_waits(
    buffer: str, spoken: str, kept: str
) -> None:
    assert speak_finished_sentences(buffer) == (spoken, kept)
