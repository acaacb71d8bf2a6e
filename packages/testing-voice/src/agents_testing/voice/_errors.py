"""Errors raised by the scripted voice components.

Every error derives from :class:`VoiceScriptError` and from the matching core kind
base, so code that handles "a step was left over" for any boundary handles voice too.
"""

from __future__ import annotations

from typing import Literal

from agents_testing.core import (
    AgentsTestingError,
    InvalidStepError,
    UnconsumedStepsError,
    UnexpectedCallError,
    ordinal,
)

__all__ = [
    "InvalidVoiceStep",
    "InvalidVoiceStepReason",
    "UnconsumedVoiceSteps",
    "UnexpectedVoiceCall",
    "VoiceOperation",
    "VoiceScriptError",
    "VoiceStepKind",
    "steps_of",
]

VoiceOperation = Literal[
    "static_transcription", "streamed_session", "tts", "workflow_start", "workflow_turn"
]
"""The voice operation that found no scripted step left."""

VoiceStepKind = Literal[
    "static_transcription",
    "streamed_session",
    "session_turn",
    "tts",
    "workflow_start",
    "workflow_turn",
]
"""What a left-over step was scripted for (a turn inside a created session is its own kind)."""

InvalidVoiceStepReason = Literal[
    "invalid_transcription",
    "invalid_session",
    "invalid_turn",
    "invalid_close_error",
    "invalid_tts_result",
    "invalid_chunk",
    "invalid_workflow_result",
    "invalid_fragment",
]
"""Why a scripted voice step was rejected."""

_WHAT: dict[str, str] = {
    "static_transcription": "static transcription (STTModel.transcribe)",
    "streamed_session": "streamed transcription session (STTModel.create_session)",
    "tts": "text-to-speech call (TTSModel.run)",
    "workflow_start": "workflow start (VoiceWorkflowBase.on_start)",
    "workflow_turn": "workflow turn (VoiceWorkflowBase.run)",
}

_SCRIPT_ARGUMENT: dict[str, str] = {
    "static_transcription": "ScriptedSTTModel(transcriptions=...)",
    "streamed_session": "ScriptedSTTModel(sessions=...)",
    "tts": "ScriptedTTSModel(results=...)",
    "workflow_start": "ScriptedVoiceWorkflow(start=...)",
    "workflow_turn": "ScriptedVoiceWorkflow(turns=...)",
}


def steps_of(kind: VoiceStepKind, count: int) -> tuple[VoiceStepKind, ...]:
    """``count`` pending steps of one kind, for :class:`UnconsumedVoiceSteps`."""
    return (kind,) * count


class VoiceScriptError(AgentsTestingError):
    """Base of every error raised by the scripted voice components."""


class InvalidVoiceStep(VoiceScriptError, InvalidStepError):
    """A scripted voice step was malformed and rejected before it was queued.

    ``reason`` says what was wrong; ``input_index`` is the 0-based position of the
    offending value in the sequence the test passed; ``detail`` is the explanation.
    """

    def __init__(self, reason: InvalidVoiceStepReason, input_index: int, detail: str) -> None:
        self.reason = reason
        self.input_index = input_index
        self.detail = detail
        super().__init__(f"{detail} (item {ordinal(input_index)}, reason {reason!r})")


class UnexpectedVoiceCall(VoiceScriptError, UnexpectedCallError):
    """The pipeline asked for a voice step that the script did not provide.

    ``operation`` names what was asked for; ``call`` is the recorded call (an
    ``STTCall``, ``STTSessionCall``, ``TTSCall``, the transcription of a workflow turn,
    or ``None`` for a workflow start) and ``call_index`` its 0-based position among
    the component's calls of that operation.
    """

    def __init__(self, operation: VoiceOperation, call: object = None, call_index: int = 0) -> None:
        self.operation = operation
        self.call = call
        self.call_index = call_index
        super().__init__(
            f"{_WHAT[operation]} number {ordinal(call_index)} has no scripted step left; "
            f"add one more step to {_SCRIPT_ARGUMENT[operation]} or remove the call"
        )


class UnconsumedVoiceSteps(VoiceScriptError, UnconsumedStepsError):
    """``assert_complete()`` found scripted voice steps that were never used.

    ``remaining_steps`` is how many are left; ``pending_steps`` says, in script order,
    what each was scripted for.
    """

    remaining_steps: int
    pending_steps: tuple[VoiceStepKind, ...]

    def __init__(self, pending_steps: tuple[VoiceStepKind, ...]) -> None:
        self._set_pending_steps(pending_steps)
        counts: dict[str, int] = {}
        for kind in pending_steps:
            counts[kind] = counts.get(kind, 0) + 1
        summary = ", ".join(f"{count} {kind}" for kind, count in counts.items())
        super().__init__(
            f"{self.remaining_steps} scripted voice step(s) were never used ({summary}); "
            "remove them from the script or make the pipeline reach them"
        )
