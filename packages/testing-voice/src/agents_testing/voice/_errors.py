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
    safe_repr,
)

__all__ = [
    "InvalidVoiceStep",
    "InvalidVoiceStepReason",
    "UnconsumedVoiceSteps",
    "UnexpectedVoiceCall",
    "VoiceCallMatcherError",
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
    "invalid_argument",
    "invalid_matcher",
    "invalid_group",
]
"""Why a scripted voice step (or a constructor argument) was rejected."""

# "Unexpected <what> #N: no scripted <step> left." for each operation.
_UNEXPECTED: dict[str, tuple[str, str]] = {
    "static_transcription": ("STT transcription", "transcription"),
    "streamed_session": ("STT session", "session"),
    "tts": ("TTS call", "result"),
    "workflow_start": ("workflow start", "start"),
    "workflow_turn": ("workflow turn", "turn"),
}


def steps_of(kind: VoiceStepKind, count: int) -> tuple[VoiceStepKind, ...]:
    """``count`` pending steps of one kind, for :class:`UnconsumedVoiceSteps`."""
    return (kind,) * count


class VoiceScriptError(AgentsTestingError):
    """Base of every error raised by the scripted voice components."""


class InvalidVoiceStep(VoiceScriptError, InvalidStepError):
    """A scripted voice step or constructor argument was malformed and rejected when built.

    ``reason`` says what was wrong; ``input_index`` is the 0-based position of the
    offending value in the sequence the test passed (0 for a lone value);
    ``argument`` names the constructor argument it was given as (``"transcriptions"``,
    ``"chunks"``, ``"model_name"``, ...); ``detail`` is the explanation.
    """

    reason: InvalidVoiceStepReason

    def __init__(
        self,
        reason: InvalidVoiceStepReason,
        input_index: int,
        detail: str,
        argument: str | None = None,
    ) -> None:
        self.reason = reason
        self.input_index = input_index
        self.detail = detail
        self.argument = argument
        where = (
            f"{argument} item {ordinal(input_index)}"
            if argument
            else f"item {ordinal(input_index)}"
        )
        super().__init__(f"{detail} ({where}, reason {reason!r})")

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.reason, self.input_index, self.detail, self.argument))


class UnexpectedVoiceCall(VoiceScriptError, UnexpectedCallError):
    """The pipeline asked for a voice step that the script did not provide.

    ``operation`` names what was asked for; ``call`` is the recorded call (an
    ``STTCall``, ``STTSessionCall``, ``TTSCall``, the transcription of a workflow turn,
    or ``None`` for a workflow start) and ``call_index`` its 0-based position among
    the component's calls of that operation. The message reads, for example,
    ``"Unexpected TTS call #2: no scripted result left."``.
    """

    def __init__(self, operation: VoiceOperation, call: object = None, call_index: int = 0) -> None:
        self.operation = operation
        self.call = call
        self.call_index = call_index
        what, step = _UNEXPECTED[operation]
        super().__init__(f"Unexpected {what} #{ordinal(call_index)}: no scripted {step} left.")

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.operation, self.call, self.call_index))


class VoiceCallMatcherError(VoiceScriptError, UnexpectedCallError):
    """The matcher of every result that could answer a call returned ``False``.

    Nothing is consumed. ``operation`` is what was asked for (``"tts"``), ``call`` the
    recorded call (a ``TTSCall``) and ``call_index`` its 0-based position among the
    component's calls; ``group_members`` is how many pending members of an
    ``any_order()`` group rejected it (0 outside a group). Like other voice failures it
    is raised by the stream the call returned.
    """

    def __init__(
        self, operation: VoiceOperation, call: object, call_index: int, group_members: int = 0
    ) -> None:
        self.operation = operation
        self.call = call
        self.call_index = call_index
        self.group_members = group_members
        what = _UNEXPECTED[operation][0]
        spoken = getattr(call, "text", None)
        about = "" if spoken is None else f" (text {safe_repr(spoken, 80)})"
        if group_members:
            head = (
                f"The matchers of the any_order() group ({group_members} pending member(s)) "
                f"rejected {what} #{ordinal(call_index)}{about}."
            )
        else:
            head = f"The matcher rejected {what} #{ordinal(call_index)}{about}."
        super().__init__(
            f"{head} Fix the matcher or the order of the results, or inspect the error's "
            "call to see what the pipeline asked for."
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.operation, self.call, self.call_index, self.group_members))


class UnconsumedVoiceSteps(VoiceScriptError, UnconsumedStepsError):
    """``assert_complete()`` found scripted voice steps that were never used.

    ``remaining_steps`` is how many are left; ``pending_steps`` says, in script order,
    what each was scripted for. The message counts them per kind, for example
    ``"3 unconsumed voice steps: 2 tts, 1 session_turn."``.
    """

    remaining_steps: int
    pending_steps: tuple[VoiceStepKind, ...]

    def __init__(self, pending_steps: tuple[VoiceStepKind, ...]) -> None:
        self._set_pending_steps(pending_steps)
        counts: dict[str, int] = {}
        for kind in pending_steps:
            counts[kind] = counts.get(kind, 0) + 1
        summary = ", ".join(f"{count} {kind}" for kind, count in counts.items())
        noun = "step" if self.remaining_steps == 1 else "steps"
        super().__init__(f"{self.remaining_steps} unconsumed voice {noun}: {summary}.")
