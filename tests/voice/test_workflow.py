"""ScriptedVoiceWorkflow: start, turns, fragment boundaries and completeness."""

from __future__ import annotations

from typing import Any

import pytest
from agents.voice import AudioInput, StreamedAudioInput, VoicePipeline, VoiceWorkflowBase
from agents.voice.testing import (
    InvalidVoiceStep,
    ScriptedSTTModel,
    ScriptedTTSModel,
    ScriptedVoiceWorkflow,
    UnconsumedVoiceSteps,
    UnexpectedVoiceCall,
    pcm16_samples,
)

from agents_testing.core import compat

PCM = pcm16_samples([9, 9])


async def texts(iterator: Any) -> list[str]:
    return [text async for text in iterator]


def test_is_a_voice_workflow() -> None:
    assert isinstance(ScriptedVoiceWorkflow(), VoiceWorkflowBase)


@pytest.mark.asyncio
async def test_fragment_boundaries_reach_tts_where_the_script_put_them(
    drain: Any, voice_config: Any, silence: AudioInput, fragment_splitter: Any
) -> None:
    workflow = ScriptedVoiceWorkflow(
        [
            [
                "Your flight to Lisbon is on time",
                " and it boards from gate twelve",
                " at nine o'clock tonight.",
            ]
        ]
    )
    tts = ScriptedTTSModel([[PCM]] * 3)
    pipeline = VoicePipeline(
        workflow=workflow,
        stt_model=ScriptedSTTModel("is my flight on time"),
        tts_model=tts,
        config=voice_config(text_splitter=fragment_splitter),
    )

    outcome = await drain(await pipeline.run(silence))

    assert outcome.error is None
    assert [call.text for call in tts.calls] == [
        "Your flight to Lisbon is on time",
        " and it boards from gate twelve",
        " at nine o'clock tonight.",
    ]
    # The splitter sent all text before the turn ended; older releases then skip turn_ended.
    ended = ["turn_ended"] if compat.voice_ends_flushed_turns() else []
    assert outcome.kinds == ["turn_started", "audio", "audio", "audio", *ended, "session_ended"]


@pytest.mark.asyncio
async def test_a_single_string_is_one_fragment_even_with_a_fragment_splitter(
    drain: Any, voice_config: Any, silence: AudioInput, fragment_splitter: Any
) -> None:
    workflow = ScriptedVoiceWorkflow("Your flight to Lisbon is on time. It boards at nine.")
    tts = ScriptedTTSModel([[PCM]])
    pipeline = VoicePipeline(
        workflow=workflow,
        stt_model=ScriptedSTTModel("status"),
        tts_model=tts,
        config=voice_config(text_splitter=fragment_splitter),
    )

    await drain(await pipeline.run(silence))

    assert [call.text for call in tts.calls] == [
        "Your flight to Lisbon is on time. It boards at nine."
    ]


@pytest.mark.asyncio
async def test_fragments_go_through_the_sdk_sentence_splitter_by_default(
    drain: Any, voice_config: Any, silence: AudioInput
) -> None:
    workflow = ScriptedVoiceWorkflow(
        [["Your flight to Lisbon ", "is on time. ", "It boards at nine."]]
    )
    tts = ScriptedTTSModel([[PCM], [PCM]])
    pipeline = VoicePipeline(
        workflow=workflow,
        stt_model=ScriptedSTTModel("status"),
        tts_model=tts,
        config=voice_config(),
    )

    await drain(await pipeline.run(silence))

    assert [call.text for call in tts.calls] == [
        "Your flight to Lisbon is on time.",
        "It boards at nine.",
    ]


@pytest.mark.asyncio
async def test_start_is_not_consumed_by_a_static_run(
    drain: Any, voice_config: Any, silence: AudioInput
) -> None:
    workflow = ScriptedVoiceWorkflow(["Hello there."], start="Welcome.")
    tts = ScriptedTTSModel([[PCM]])
    pipeline = VoicePipeline(
        workflow=workflow, stt_model=ScriptedSTTModel("hi"), tts_model=tts, config=voice_config()
    )

    await drain(await pipeline.run(silence))

    assert [call.text for call in tts.calls] == ["Hello there."]
    with pytest.raises(UnconsumedVoiceSteps) as caught:
        workflow.assert_complete()
    assert caught.value.remaining_steps == 1
    assert caught.value.pending_steps == ("workflow_start",)


@pytest.mark.asyncio
async def test_start_is_consumed_by_a_streamed_run_before_the_first_turn(
    drain: Any, voice_config: Any, fragment_splitter: Any
) -> None:
    workflow = ScriptedVoiceWorkflow(
        [
            ["The first answer is right here", " and it continues here."],
            "Here is the second answer.",
        ],
        start=["Welcome to the travel desk,", " how can I help you today?"],
    )
    tts = ScriptedTTSModel([[PCM]] * 5)
    pipeline = VoicePipeline(
        workflow=workflow,
        stt_model=ScriptedSTTModel(sessions=[["first question", "second question"]]),
        tts_model=tts,
        config=voice_config(text_splitter=fragment_splitter),
    )

    outcome = await drain(await pipeline.run(StreamedAudioInput()))

    assert outcome.error is None
    assert [call.text for call in tts.calls] == [
        "Welcome to the travel desk,",
        " how can I help you today?",
        "The first answer is right here",
        " and it continues here.",
        "Here is the second answer.",
    ]
    assert workflow.transcriptions == ("first question", "second question")
    if compat.voice_finalizes_intro_turn():
        # The greeting is a turn of its own, ended before the first transcription.
        greeting = ["turn_started", "audio", "audio", "turn_ended"]
        first = ["turn_started", "audio", "audio", "turn_ended"]
        second = ["turn_started", "audio", "turn_ended"]
        assert outcome.kinds == [*greeting, *first, *second, "session_ended"]
    else:
        assert outcome.kinds[0] == "turn_started"
        assert outcome.kinds.count("audio") == 5
        assert outcome.kinds[-1] == "session_ended"
    workflow.assert_complete()
    tts.assert_complete()


@pytest.mark.asyncio
async def test_without_start_on_start_yields_nothing(drain: Any, voice_config: Any) -> None:
    workflow = ScriptedVoiceWorkflow(["Hello there."])
    tts = ScriptedTTSModel([[PCM]])
    pipeline = VoicePipeline(
        workflow=workflow,
        stt_model=ScriptedSTTModel(sessions=["hi"]),
        tts_model=tts,
        config=voice_config(),
    )

    outcome = await drain(await pipeline.run(StreamedAudioInput()))

    assert outcome.kinds == ["turn_started", "audio", "turn_ended", "session_ended"]
    assert [call.text for call in tts.calls] == ["Hello there."]
    assert await texts(workflow.on_start()) == []
    workflow.assert_complete()


@pytest.mark.asyncio
async def test_a_second_start_is_unexpected_and_the_pipeline_carries_on_without_greeting(
    drain: Any, voice_config: Any
) -> None:
    workflow = ScriptedVoiceWorkflow(["First.", "Second."], start="Welcome.")
    tts = ScriptedTTSModel([[PCM]] * 3)
    if not compat.voice_finalizes_intro_turn():
        tts = ScriptedTTSModel([[PCM]] * 2)
    pipeline = VoicePipeline(
        workflow=workflow,
        stt_model=ScriptedSTTModel(sessions=["one", "two"]),
        tts_model=tts,
        config=voice_config(),
    )

    await drain(await pipeline.run(StreamedAudioInput()))
    # The pipeline treats a failing on_start() as "no greeting" and only logs it.
    second = await drain(await pipeline.run(StreamedAudioInput()))

    assert second.error is None
    assert second.kinds == ["turn_started", "audio", "turn_ended", "session_ended"]
    spoken = [call.text for call in tts.calls]
    if compat.voice_finalizes_intro_turn():
        assert spoken == ["Welcome.", "First.", "Second."]
    else:
        assert spoken == ["Welcome.First.", "Second."]
    assert workflow.transcriptions == ("one", "two")
    with pytest.raises(UnexpectedVoiceCall) as caught:
        await texts(workflow.on_start())
    assert caught.value.operation == "workflow_start"
    assert caught.value.call_index == 2
    workflow.assert_complete()


@pytest.mark.asyncio
async def test_a_turn_beyond_the_script_is_unexpected(
    drain: Any, voice_config: Any, silence: AudioInput
) -> None:
    workflow = ScriptedVoiceWorkflow()
    pipeline = VoicePipeline(
        workflow=workflow,
        stt_model=ScriptedSTTModel("anyone there"),
        tts_model=ScriptedTTSModel(),
        config=voice_config(),
    )

    outcome = await drain(await pipeline.run(silence))

    error = outcome.error
    assert isinstance(error, UnexpectedVoiceCall)
    assert error.operation == "workflow_turn"
    assert error.call == "anyone there"
    assert error.call_index == 0
    assert workflow.transcriptions == ("anyone there",)


@pytest.mark.asyncio
async def test_a_turn_given_as_an_exception_fails_the_stream(
    drain: Any, voice_config: Any, silence: AudioInput
) -> None:
    failure = LookupError("booking system down")
    workflow = ScriptedVoiceWorkflow([failure])
    tts = ScriptedTTSModel()
    pipeline = VoicePipeline(
        workflow=workflow, stt_model=ScriptedSTTModel("book"), tts_model=tts, config=voice_config()
    )

    outcome = await drain(await pipeline.run(silence))

    assert outcome.error is failure
    assert tts.calls == ()
    workflow.assert_complete()


@pytest.mark.asyncio
async def test_assert_complete_counts_unused_turns() -> None:
    workflow = ScriptedVoiceWorkflow(["One.", ["Two", " parts."], "Three."])
    assert await texts(workflow.run("first")) == ["One."]

    with pytest.raises(UnconsumedVoiceSteps) as caught:
        workflow.assert_complete()

    assert caught.value.remaining_steps == 2
    assert caught.value.pending_steps == ("workflow_turn", "workflow_turn")
    assert await texts(workflow.run("second")) == ["Two", " parts."]


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"turns": ["ok", 5]}, "invalid_workflow_result"),
        ({"turns": [["ok", 5]]}, "invalid_fragment"),
        ({"turns": [b"bytes"]}, "invalid_workflow_result"),
        ({"start": 3}, "invalid_workflow_result"),
        ({"turns": 3}, "invalid_workflow_result"),
    ],
)
def test_malformed_results_are_rejected(kwargs: dict[str, Any], reason: str) -> None:
    with pytest.raises(InvalidVoiceStep) as caught:
        ScriptedVoiceWorkflow(**kwargs)
    assert caught.value.reason == reason


@pytest.mark.asyncio
async def test_a_short_fragment_is_its_own_segment_where_the_sdk_speaks_short_segments(
    drain: Any, voice_config: Any, silence: AudioInput, fragment_splitter: Any
) -> None:
    workflow = ScriptedVoiceWorkflow([["Your flight to Lisbon is on time", " Gate 12."]])
    tts = ScriptedTTSModel([[PCM], [PCM]])
    if not compat.voice_speaks_short_segments():
        tts = ScriptedTTSModel([[PCM]])
    pipeline = VoicePipeline(
        workflow=workflow,
        stt_model=ScriptedSTTModel("status"),
        tts_model=tts,
        config=voice_config(text_splitter=fragment_splitter),
    )

    outcome = await drain(await pipeline.run(silence))

    assert outcome.error is None
    spoken = [call.text for call in tts.calls]
    if compat.voice_speaks_short_segments():
        assert spoken == ["Your flight to Lisbon is on time", " Gate 12."]
    else:
        # Older pipelines drop a released segment shorter than 20 characters.
        assert spoken == ["Your flight to Lisbon is on time"]
    tts.assert_complete()


class FailsOnce:
    """A text splitter that fails the first time it runs, as a buggy splitter might."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, text: str) -> tuple[str, str]:
        self.calls += 1
        if self.calls == 1:
            raise ValueError("splitter not ready")
        return text, ""


@pytest.mark.asyncio
async def test_start_fragments_the_pipeline_stopped_reading_stay_reported(
    drain: Any, voice_config: Any
) -> None:
    workflow = ScriptedVoiceWorkflow(
        ["Here is the first answer."],
        start=["Welcome to the travel desk,", " how can I help you today?"],
        extra_checks=True,
    )
    pipeline = VoicePipeline(
        workflow=workflow,
        stt_model=ScriptedSTTModel(sessions=[["first question"]]),
        tts_model=ScriptedTTSModel([[PCM]]),
        config=voice_config(text_splitter=FailsOnce()),
    )

    # The splitter fails on the first greeting fragment; the pipeline logs the failed
    # on_start() and carries on with the session.
    outcome = await drain(await pipeline.run(StreamedAudioInput()))

    assert outcome.error is None
    assert workflow.transcriptions == ("first question",)
    with pytest.raises(UnconsumedVoiceSteps) as caught:
        workflow.assert_complete()
    assert caught.value.pending_steps == ("workflow_start",)
    assert str(caught.value).startswith("1 scripted workflow startup step was not consumed")
    # The start was handed out once: asking again is unexpected, not a replay.
    with pytest.raises(UnexpectedVoiceCall):
        await texts(workflow.on_start())


@pytest.mark.asyncio
async def test_a_turn_read_only_in_part_stays_reported_with_extra_checks() -> None:
    workflow = ScriptedVoiceWorkflow([["One", " two."], "Three."], extra_checks=True)

    turn = workflow.run("first")
    assert await turn.__anext__() == "One"

    with pytest.raises(UnconsumedVoiceSteps) as caught:
        workflow.assert_complete()
    assert caught.value.pending_steps == ("workflow_turn", "workflow_turn")
    assert await turn.__anext__() == " two."
    with pytest.raises(UnconsumedVoiceSteps) as after:
        workflow.assert_complete()
    assert after.value.pending_steps == ("workflow_turn",)


@pytest.mark.asyncio
async def test_a_bare_workflow_counts_a_turn_consumed_when_the_pipeline_asks_for_it() -> None:
    workflow = ScriptedVoiceWorkflow([["One", " two."], "Three."], start=["Hi", " there."])

    turn = workflow.run("first")
    assert await turn.__anext__() == "One"
    start = workflow.on_start()
    assert await start.__anext__() == "Hi"

    with pytest.raises(UnconsumedVoiceSteps, match="1 scripted workflow turn") as caught:
        workflow.assert_complete()
    assert caught.value.pending_steps == ("workflow_turn",)
    assert await texts(turn) == [" two."]


@pytest.mark.asyncio
async def test_assert_complete_reports_an_unused_start_and_every_unused_turn(
    drain: Any, voice_config: Any, silence: AudioInput
) -> None:
    workflow = ScriptedVoiceWorkflow(["One.", "Two.", "Three."], start="Welcome.")
    pipeline = VoicePipeline(
        workflow=workflow,
        stt_model=ScriptedSTTModel("hi"),
        tts_model=ScriptedTTSModel([[PCM]]),
        config=voice_config(),
    )

    await drain(await pipeline.run(silence))

    with pytest.raises(UnconsumedVoiceSteps) as caught:
        workflow.assert_complete()
    assert caught.value.pending_steps == ("workflow_start", "workflow_turn", "workflow_turn")
    assert str(caught.value).startswith(
        "3 scripted workflow step(s) were not consumed. Left: 1 workflow_start, 2 workflow_turn."
    )


@pytest.mark.asyncio
async def test_changing_the_turn_list_after_building_changes_nothing(
    drain: Any, voice_config: Any, silence: AudioInput, fragment_splitter: Any
) -> None:
    fragments = ["Your flight is on time,", " gate twelve."]
    turns: list[Any] = [fragments]
    workflow = ScriptedVoiceWorkflow(turns, start=fragments)
    fragments.append(" Changed later.")
    turns.append("Another turn.")
    tts = ScriptedTTSModel([[PCM]] * 2)
    pipeline = VoicePipeline(
        workflow=workflow,
        stt_model=ScriptedSTTModel("status"),
        tts_model=tts,
        config=voice_config(text_splitter=fragment_splitter),
    )

    await drain(await pipeline.run(silence))

    spoken = [call.text for call in tts.calls]
    if compat.voice_speaks_short_segments():
        assert spoken == ["Your flight is on time,", " gate twelve."]
    else:
        assert spoken == ["Your flight is on time,"]
    assert await texts(workflow.on_start()) == ["Your flight is on time,", " gate twelve."]
    workflow.assert_complete()
