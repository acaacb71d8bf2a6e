"""``any_order`` groups of TTS results, each chosen by a match on the text to speak."""

from __future__ import annotations

import asyncio
import pickle
from types import SimpleNamespace
from typing import Any

import pytest
from agents.voice import AudioInput, TTSModelSettings, VoicePipeline
from agents.voice.testing import (
    InvalidVoiceStep,
    ScriptedSTTModel,
    ScriptedTTSModel,
    ScriptedVoiceWorkflow,
    TTSCall,
    TTSResult,
    UnconsumedVoiceSteps,
    VoiceCallMatcherError,
    any_order,
    pcm16_samples,
)

FIRST = pcm16_samples([0, 100, -100, 0])
SECOND = pcm16_samples([32767, -32768])


def _starts(prefix: str) -> Any:
    return lambda text: text.startswith(prefix)


def _pipeline(workflow: ScriptedVoiceWorkflow, tts: ScriptedTTSModel, config: Any) -> VoicePipeline:
    return VoicePipeline(
        workflow=workflow, stt_model=ScriptedSTTModel("hi"), tts_model=tts, config=config
    )


@pytest.mark.asyncio
async def test_each_sentence_gets_the_result_that_matches_its_text(
    drain: Any, voice_config: Any, silence: AudioInput, fragment_splitter: Any
) -> None:
    workflow = ScriptedVoiceWorkflow([["The first sentence is here.", "The second one follows."]])
    # Scripted in the opposite order of the sentences: the group does not care.
    tts = ScriptedTTSModel(
        [
            any_order(
                TTSResult([SECOND], match=_starts("The second")),
                TTSResult([FIRST], match=_starts("The first")),
            )
        ]
    )

    outcome = await drain(
        await _pipeline(workflow, tts, voice_config(text_splitter=fragment_splitter)).run(silence)
    )

    assert outcome.error is None
    assert outcome.audio == [FIRST, SECOND]
    tts.assert_complete()


@pytest.mark.asyncio
async def test_concurrent_pipelines_sharing_a_tts_model_get_their_own_audio(
    drain: Any, voice_config: Any, silence: AudioInput
) -> None:
    tts = ScriptedTTSModel(
        any_order(
            TTSResult([SECOND], match=lambda text: text == "Goodbye."),
            TTSResult([FIRST], match=lambda text: text == "Hello."),
        )
    )
    hello = _pipeline(ScriptedVoiceWorkflow(["Hello."]), tts, voice_config())
    goodbye = _pipeline(ScriptedVoiceWorkflow(["Goodbye."]), tts, voice_config())

    async def speak(pipeline: VoicePipeline) -> list[bytes]:
        outcome = await drain(await pipeline.run(silence))
        assert outcome.error is None
        audio: list[bytes] = outcome.audio
        return audio

    assert list(await asyncio.gather(speak(hello), speak(goodbye))) == [[FIRST], [SECOND]]
    tts.assert_complete()


@pytest.mark.asyncio
async def test_a_rejected_text_fails_the_stream_and_leaves_the_result_pending(
    drain: Any, voice_config: Any, silence: AudioInput
) -> None:
    tts = ScriptedTTSModel([TTSResult([FIRST], match=lambda text: text == "Hello.")])

    outcome = await drain(
        await _pipeline(ScriptedVoiceWorkflow(["Bye now."]), tts, voice_config()).run(silence)
    )

    error = outcome.error
    assert isinstance(error, VoiceCallMatcherError)
    assert str(error) == (
        "The matcher rejected TTS call #1 (text 'Bye now.'). Fix the matcher or the order of "
        "the results, or inspect the error's call to see what the pipeline asked for."
    )
    assert (error.operation, error.call_index, error.group_members) == ("tts", 0, 0)
    assert error.call == TTSCall("Bye now.", tts.calls[0].settings)
    with pytest.raises(UnconsumedVoiceSteps):
        tts.assert_complete()


@pytest.mark.asyncio
async def test_a_text_no_group_member_accepts_fails_the_stream() -> None:
    tts = ScriptedTTSModel(
        [
            any_order(
                TTSResult([FIRST], match=lambda text: text == "a"),
                TTSResult([SECOND], match=lambda text: text == "b"),
            )
        ]
    )

    with pytest.raises(VoiceCallMatcherError) as info:
        [chunk async for chunk in tts.run("c", _settings())]

    assert str(info.value) == (
        "The matchers of the any_order() group (2 pending member(s)) rejected TTS call #1 "
        "(text 'c'). Fix the matcher or the order of the results, or inspect the error's "
        "call to see what the pipeline asked for."
    )
    assert info.value.group_members == 2


@pytest.mark.asyncio
async def test_pending_group_members_are_reported_and_plain_members_go_in_order() -> None:
    tts = ScriptedTTSModel(
        [any_order(TTSResult([FIRST]), TTSResult([SECOND]), ValueError("tts down")), [FIRST]]
    )

    assert [chunk async for chunk in tts.run("x", _settings())] == [FIRST]

    with pytest.raises(UnconsumedVoiceSteps) as info:
        tts.assert_complete()
    assert str(info.value).startswith("3 scripted TTS result(s) were not consumed. Left: 3 tts.")
    assert [chunk async for chunk in tts.run("y", _settings())] == [SECOND]
    with pytest.raises(ValueError, match="tts down"):
        [chunk async for chunk in tts.run("z", _settings())]


@pytest.mark.asyncio
async def test_a_matcher_error_fails_the_stream_and_leaves_the_result_pending() -> None:
    def broken(text: str) -> bool:
        raise LookupError(text)

    tts = ScriptedTTSModel([TTSResult([FIRST], match=broken)])

    with pytest.raises(LookupError, match="oops"):
        [chunk async for chunk in tts.run("oops", _settings())]
    with pytest.raises(UnconsumedVoiceSteps):
        tts.assert_complete()


@pytest.mark.parametrize(
    ("results", "message", "reason"),
    [
        (
            [[FIRST], any_order()],
            "any_order() needs at least one step; an empty group would match no call, so "
            "remove it or give it the steps that may come in any order (results item 2, "
            "reason 'invalid_group')",
            "invalid_group",
        ),
        (
            [any_order([FIRST], any_order([SECOND]))],
            "any_order() member 2 is itself a group; groups cannot be nested (a group already "
            "accepts its members in any order), so list the inner steps in the outer group "
            "(results item 1, reason 'invalid_group')",
            "invalid_group",
        ),
        (
            [any_order([FIRST], "text")],
            "any_order() member 2: a TTS result must be a TTSResult, a sequence of byte chunks "
            "or an exception, got str; wrap a single chunk as TTSResult([chunk]) (results "
            "item 1, reason 'invalid_tts_result')",
            "invalid_tts_result",
        ),
    ],
)
def test_malformed_groups_are_refused(results: list[Any], message: str, reason: str) -> None:
    with pytest.raises(InvalidVoiceStep) as info:
        ScriptedTTSModel(results)

    assert str(info.value) == message
    assert info.value.reason == reason


@pytest.mark.parametrize(
    ("match", "message"),
    [
        ("Hello.", "match must be a function taking the text to speak, got str 'Hello.'"),
        (lambda: True, "match must accept one positional argument (the text to speak)"),
    ],
)
def test_malformed_matchers_are_refused(match: Any, message: str) -> None:
    with pytest.raises(InvalidVoiceStep) as info:
        TTSResult([FIRST], match=match)

    assert str(info.value) == f"{message} (match item 1, reason 'invalid_matcher')"


def _settings() -> TTSModelSettings:
    return TTSModelSettings()


def test_results_with_a_matcher_compare_by_chunks_and_matcher() -> None:
    def accept(text: str) -> bool:
        return True

    assert TTSResult([FIRST], match=accept) == TTSResult([FIRST], match=accept)
    assert TTSResult([FIRST], match=accept) != TTSResult([FIRST])
    assert TTSResult([FIRST]).match is None


def test_the_matcher_error_pickles_with_its_fields() -> None:
    # The SDK's default settings hold a local text splitter, which pickle cannot carry.
    call = SimpleNamespace(text="Hi.")
    error = VoiceCallMatcherError(
        "The matchers of the any_order() group (3 pending member(s)) rejected TTS call #3 "
        "(text 'Hi.'). Fix the matcher or the order of the results, or inspect the error's "
        "call to see what the pipeline asked for.",
        operation="tts",
        call=call,
        call_index=2,
        group_members=3,
    )

    copy = pickle.loads(pickle.dumps(error))

    assert (
        str(copy)
        == str(error)
        == (
            "The matchers of the any_order() group (3 pending member(s)) rejected TTS call #3 "
            "(text 'Hi.'). Fix the matcher or the order of the results, or inspect the error's "
            "call to see what the pipeline asked for."
        )
    )
    assert (copy.operation, copy.call, copy.call_index, copy.group_members) == ("tts", call, 2, 3)
