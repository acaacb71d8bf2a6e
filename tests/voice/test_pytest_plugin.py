"""The voice fixtures: doubles with the stricter checks on unless a test opts out."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from agents.voice import AudioInput, STTModelSettings, TTSModelSettings
from agents.voice.testing import (
    ScriptedSTTModelFactory,
    ScriptedTTSModelFactory,
    ScriptedVoiceWorkflowFactory,
    UnconsumedVoiceSteps,
    pcm16_samples,
)

from agents_testing.core import UncopyableValue

PCM = pcm16_samples([1, -1])


class CopyRefusing:
    """A settings value whose deep copy raises."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        raise RuntimeError("x")

    def __call__(self, data: Any) -> Any:
        return data


def _broken_stt_settings() -> STTModelSettings:
    return STTModelSettings(turn_detection={"k": CopyRefusing()})


def _silence() -> AudioInput:
    return AudioInput(np.zeros(2, dtype=np.int16))


@pytest.mark.asyncio
async def test_the_voice_fixtures_turn_the_extra_checks_on(
    scripted_stt: ScriptedSTTModelFactory,
    scripted_tts: ScriptedTTSModelFactory,
    scripted_voice_workflow: ScriptedVoiceWorkflowFactory,
) -> None:
    stt, tts = scripted_stt("hello"), scripted_tts([[PCM]])
    workflow = scripted_voice_workflow([["One", " two."]])
    assert (stt.extra_checks, tts.extra_checks, workflow.extra_checks) == (True, True, True)

    with pytest.raises(UncopyableValue):
        await stt.transcribe(_silence(), _broken_stt_settings(), False, False)
    with pytest.raises(UncopyableValue):
        [chunk async for chunk in tts.run("x", TTSModelSettings(transform_data=CopyRefusing()))]
    turn = workflow.run("first")
    assert await turn.__anext__() == "One"
    # A turn read only in part still counts as unused.
    with pytest.raises(UnconsumedVoiceSteps, match="1 scripted workflow turn"):
        workflow.assert_complete()

    # Use everything, so the fixtures' own check at teardown passes.
    assert await stt.transcribe(_silence(), STTModelSettings(), False, False) == "hello"
    assert [chunk async for chunk in tts.run("x", TTSModelSettings())] == [PCM]
    assert [text async for text in turn] == [" two."]


@pytest.mark.agents_testing(extra_checks=False)
@pytest.mark.asyncio
async def test_the_marker_turns_the_voice_extra_checks_off(
    scripted_stt: ScriptedSTTModelFactory,
    scripted_tts: ScriptedTTSModelFactory,
    scripted_voice_workflow: ScriptedVoiceWorkflowFactory,
) -> None:
    stt, tts = scripted_stt("hello"), scripted_tts([[PCM]])
    workflow = scripted_voice_workflow([["One", " two."]])
    assert (stt.extra_checks, tts.extra_checks, workflow.extra_checks) == (False, False, False)

    with pytest.raises(RuntimeError, match="x") as raised:
        await stt.transcribe(_silence(), _broken_stt_settings(), False, False)
    assert not isinstance(raised.value, UncopyableValue)
    with pytest.raises(RuntimeError, match="x"):
        [chunk async for chunk in tts.run("x", TTSModelSettings(transform_data=CopyRefusing()))]
    turn = workflow.run("first")
    assert await turn.__anext__() == "One"
    workflow.assert_complete()

    assert await stt.transcribe(_silence(), STTModelSettings(), False, False) == "hello"
    assert [chunk async for chunk in tts.run("x", TTSModelSettings())] == [PCM]


@pytest.mark.agents_testing(extra_checks=False)
def test_a_keyword_wins_over_the_marker(
    scripted_stt: ScriptedSTTModelFactory,
    scripted_tts: ScriptedTTSModelFactory,
    scripted_voice_workflow: ScriptedVoiceWorkflowFactory,
) -> None:
    assert scripted_stt(extra_checks=True).extra_checks is True
    assert scripted_tts(extra_checks=True).extra_checks is True
    assert scripted_voice_workflow(extra_checks=True).extra_checks is True


def test_a_keyword_turns_the_checks_off_for_one_double(
    scripted_stt: ScriptedSTTModelFactory,
    scripted_tts: ScriptedTTSModelFactory,
    scripted_voice_workflow: ScriptedVoiceWorkflowFactory,
) -> None:
    assert scripted_stt(extra_checks=False).extra_checks is False
    assert scripted_tts(extra_checks=False).extra_checks is False
    assert scripted_voice_workflow(extra_checks=False).extra_checks is False
