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
    ("operation", "message"),
    [
        (
            "static_transcription",
            "Unexpected STT transcription #3: no scripted transcription left.",
        ),
        ("streamed_session", "Unexpected STT session #3: no scripted session left."),
        ("tts", "Unexpected TTS call #3: no scripted result left."),
        ("workflow_start", "Unexpected workflow start #3: no scripted start left."),
        ("workflow_turn", "Unexpected workflow turn #3: no scripted turn left."),
    ],
)
def test_unexpected_call_message_is_short_and_numbers_the_call_from_one(
    operation: str, message: str
) -> None:
    error = UnexpectedVoiceCall(operation, call=None, call_index=2)  # type: ignore[arg-type]

    assert (error.operation, error.call_index) == (operation, 2)
    assert str(error) == message


def test_unconsumed_steps_count_and_summarize_what_is_left() -> None:
    error = UnconsumedVoiceSteps(("tts", "session_turn", "tts"))

    assert error.remaining_steps == 3
    assert error.pending_steps == ("tts", "session_turn", "tts")
    assert str(error) == "3 unconsumed voice steps: 2 tts, 1 session_turn."
    assert str(UnconsumedVoiceSteps(("workflow_start",))) == (
        "1 unconsumed voice step: 1 workflow_start."
    )


def test_unconsumed_steps_survive_pickling_with_their_fields() -> None:
    error = UnconsumedVoiceSteps(("workflow_start", "workflow_turn"))

    copy = pickle.loads(pickle.dumps(error))

    assert type(copy) is UnconsumedVoiceSteps
    assert (copy.remaining_steps, copy.pending_steps) == (2, ("workflow_start", "workflow_turn"))
    assert str(copy) == str(error)


def test_invalid_step_keeps_a_zero_based_index_and_numbers_from_one() -> None:
    error = InvalidVoiceStep("invalid_turn", 0, "bad turn", "turns")

    assert (error.reason, error.input_index, error.argument) == ("invalid_turn", 0, "turns")
    assert str(error) == "bad turn (turns item 1, reason 'invalid_turn')"


@pytest.mark.parametrize(
    "error",
    [
        InvalidVoiceStep("invalid_chunk", 2, "bad chunk", "chunks"),
        UnexpectedVoiceCall("tts", None, 1),
    ],
)
def test_errors_survive_pickling_with_their_fields(error: Exception) -> None:
    copy = pickle.loads(pickle.dumps(error))

    assert type(copy) is type(error)
    assert vars(copy) == vars(error)
    assert str(copy) == str(error)
