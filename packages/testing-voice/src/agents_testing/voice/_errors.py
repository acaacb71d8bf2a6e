"""Errors raised by the scripted voice components.

Every error derives from :class:`VoiceScriptError` and from the matching core kind
base, so code that handles "a step was left over" for any boundary handles voice too.
Each is built as ``Error(message, *, field=value, ...)``, as the SDK's own voice errors
are; the functions below write the messages the doubles raise.
"""

from __future__ import annotations

from typing import Literal

from agents_testing.core import InvalidStepError, UnconsumedStepsError, UnexpectedCallError
from agents_testing.core.errors import BoundaryError, error_fields, ordinal, safe_repr

# In the order they are defined: what errors say, the errors, and how the doubles word them.
__all__ = [
    "VoiceOperation",
    "VoiceStepKind",
    "InvalidVoiceStepReason",
    "VoiceScriptError",
    "InvalidVoiceStep",
    "UnexpectedVoiceCall",
    "VoiceCallMatcherError",
    "UnconsumedVoiceSteps",
    "invalid_step",
    "unexpected_call",
    "matcher_rejected",
    "unconsumed",
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
    "invalid_fault",
]
"""Why a scripted voice step (or a constructor argument) was rejected."""

# What each operation asked for, and what the script had no more of, as the SDK's own
# voice doubles word it: "Unexpected <what> #N: no scripted <left>."
_UNEXPECTED: dict[str, tuple[str, str]] = {
    "static_transcription": ("static transcription call", "transcriptions remain"),
    "streamed_session": ("streamed transcription session", "sessions remain"),
    "tts": ("TTS call", "results remain"),
    "workflow_start": ("workflow startup call", "startup step remains"),
    "workflow_turn": ("workflow turn", "turns remain"),
}


class VoiceScriptError(BoundaryError):
    """Base of every error raised by the scripted voice components."""


@error_fields
class InvalidVoiceStep(VoiceScriptError, InvalidStepError):
    """A scripted voice step or constructor argument was malformed and rejected when built.

    ``reason`` says what was wrong; ``input_index`` is the 0-based position of the
    offending value in the sequence the test passed (0 for a lone value);
    ``argument`` names the constructor argument it was given as (``"transcriptions"``,
    ``"chunks"``, ``"model_name"``, ...); ``detail`` is the explanation.
    """

    reason: InvalidVoiceStepReason
    argument: str | None = None


@error_fields
class UnexpectedVoiceCall(VoiceScriptError, UnexpectedCallError):
    """The pipeline asked for a voice step that the script did not provide.

    ``operation`` names what was asked for; ``call`` is the recorded call (an
    ``STTCall``, ``STTSessionCall``, ``TTSCall``, the transcription of a workflow turn,
    or ``None`` for a workflow start) and ``call_index`` its 0-based position among
    the component's calls of that operation. The message reads, for example,
    ``"Unexpected TTS call #2: no scripted results remain."``.
    """

    operation: VoiceOperation
    call: object = None
    call_index: int = 0


@error_fields
class VoiceCallMatcherError(VoiceScriptError, UnexpectedCallError):
    """The matcher of every result that could answer a call returned ``False``.

    Nothing is consumed. ``operation`` is what was asked for (``"tts"``), ``call`` the
    recorded call (a ``TTSCall``) and ``call_index`` its 0-based position among the
    component's calls; ``group_members`` is how many pending members of an
    ``any_order()`` group rejected it (0 outside a group). Like other voice failures it
    is raised by the stream the call returned.
    """

    operation: VoiceOperation
    call: object
    call_index: int
    group_members: int = 0


@error_fields
class UnconsumedVoiceSteps(VoiceScriptError, UnconsumedStepsError):
    """``assert_complete()`` found scripted voice steps that were never used.

    ``remaining_steps`` is how many are left; ``pending_steps`` says, in script order,
    what each was scripted for.
    """

    remaining_steps: int
    pending_steps: tuple[VoiceStepKind, ...] = ()


# --- the messages the voice doubles raise -----------------------------------------------


def invalid_step(
    reason: InvalidVoiceStepReason, input_index: int, detail: str, argument: str | None = None
) -> InvalidVoiceStep:
    """A malformed step or argument, numbered from 1 in the message."""
    item = f"item {ordinal(input_index)}"
    where = f"{argument} {item}" if argument else item
    return InvalidVoiceStep(
        f"{detail} ({where}, reason {reason!r})",
        reason=reason,
        input_index=input_index,
        detail=detail,
        argument=argument,
    )


def unexpected_call(
    operation: VoiceOperation, call: object = None, call_index: int = 0
) -> UnexpectedVoiceCall:
    """A call after the script of ``operation`` ran out."""
    what, left = _UNEXPECTED[operation]
    return UnexpectedVoiceCall(
        f"Unexpected {what}: no scripted {left}. It was {what} #{ordinal(call_index)}; "
        "script one more, or find out why the pipeline asked again.",
        operation=operation,
        call=call,
        call_index=call_index,
    )


def matcher_rejected(
    operation: VoiceOperation, call: object, call_index: int, group_members: int = 0
) -> VoiceCallMatcherError:
    """A call every candidate result's matcher refused."""
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
    return VoiceCallMatcherError(
        f"{head} Fix the matcher or the order of the results, or inspect the error's "
        "call to see what the pipeline asked for.",
        operation=operation,
        call=call,
        call_index=call_index,
        group_members=group_members,
    )


def unconsumed(
    subject: str, *left: tuple[VoiceStepKind, int], also: str = ""
) -> UnconsumedVoiceSteps | None:
    """The steps ``left`` (each kind with how many of it, in script order), worded as the
    SDK's own doubles do; ``None`` when none is left.

    ``subject`` is what was scripted (``"TTS result"``, ``"workflow turn"``, ...); the
    kinds are counted after it, and ``also`` adds a sentence before the advice.
    """
    pending = tuple(kind for kind, number in left for _ in range(number))
    count = len(pending)
    if not count:
        return None
    if count == 1 and subject == "workflow startup step":
        head = "1 scripted workflow startup step was not consumed"
    else:
        head = f"{count} scripted {subject}(s) were not consumed"
    kinds: dict[str, int] = {}
    for kind in pending:
        kinds[kind] = kinds.get(kind, 0) + 1
    summary = ", ".join(f"{number} {kind}" for kind, number in kinds.items())
    return UnconsumedVoiceSteps(
        f"{head}. Left: {summary}.{also} The pipeline ended before using them; remove them "
        "or find out why it stopped early.",
        remaining_steps=count,
        pending_steps=pending,
    )


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
