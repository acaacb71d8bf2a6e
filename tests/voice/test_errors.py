"""The voice errors: one base, the core kind bases, structured fields, numbered messages."""

from __future__ import annotations

import pickle

import pytest
from agents.voice.testing import (
    InvalidVoiceStep,
    UnconsumedVoiceSteps,
    UnexpectedVoiceCall,
    VoiceScriptError,
)

from agents_testing.core import (
    AgentsTestingError,
    InvalidStepError,
    UnconsumedStepsError,
    UnexpectedCallError,
)


def test_every_error_has_the_voice_base_and_its_kind_base() -> None:
    assert issubclass(VoiceScriptError, AgentsTestingError)
    assert issubclass(InvalidVoiceStep, VoiceScriptError)
    assert issubclass(InvalidVoiceStep, InvalidStepError)
    assert issubclass(UnexpectedVoiceCall, VoiceScriptError)
    assert issubclass(UnexpectedVoiceCall, UnexpectedCallError)
    assert issubclass(UnconsumedVoiceSteps, VoiceScriptError)
    assert issubclass(UnconsumedVoiceSteps, UnconsumedStepsError)


@pytest.mark.parametrize(
    ("operation", "where"),
    [
        ("static_transcription", "ScriptedSTTModel(transcriptions=...)"),
        ("streamed_session", "ScriptedSTTModel(sessions=...)"),
        ("tts", "ScriptedTTSModel(results=...)"),
        ("workflow_start", "ScriptedVoiceWorkflow(start=...)"),
        ("workflow_turn", "ScriptedVoiceWorkflow(turns=...)"),
    ],
)
def test_unexpected_call_names_the_operation_and_what_to_script(operation: str, where: str) -> None:
    error = UnexpectedVoiceCall(operation, call=None, call_index=2)  # type: ignore[arg-type]

    assert error.operation == operation
    assert error.call_index == 2
    assert "number 3" in str(error)
    assert where in str(error)


def test_unconsumed_steps_count_and_summarize_what_is_left() -> None:
    error = UnconsumedVoiceSteps(("tts", "session_turn", "tts"))

    assert error.remaining_steps == 3
    assert error.pending_steps == ("tts", "session_turn", "tts")
    assert "3 scripted voice step(s)" in str(error)
    assert "2 tts, 1 session_turn" in str(error)


def test_unconsumed_steps_survive_pickling_with_their_fields() -> None:
    error = UnconsumedVoiceSteps(("workflow_start", "workflow_turn"))

    copy = pickle.loads(pickle.dumps(error))

    assert type(copy) is UnconsumedVoiceSteps
    assert (copy.remaining_steps, copy.pending_steps) == (2, ("workflow_start", "workflow_turn"))
    assert str(copy) == str(error)


def test_invalid_step_keeps_a_zero_based_index_and_numbers_from_one() -> None:
    error = InvalidVoiceStep("invalid_turn", 0, "bad turn")

    assert (error.reason, error.input_index) == ("invalid_turn", 0)
    assert "item 1" in str(error)
