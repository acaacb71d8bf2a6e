"""A speech-to-text model that returns scripted transcriptions and sessions."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from agents.voice import AudioInput, StreamedAudioInput, STTModel, STTModelSettings

from agents_testing.core import StepScript, UncopyableValue, detach, ordinal

from ._errors import InvalidVoiceStep, VoiceOperation, invalid_step, unconsumed, unexpected_call
from ._session import ScriptedTranscriptionSession, TranscriptionTurn
from ._settings import ScriptedVoiceModel, settings_snapshot
from ._steps import (
    ScriptedError,
    as_sequence,
    check_name,
    describe,
    raised,
    scripted_error,
    text_or_error,
)

__all__ = ["STTCall", "STTSessionCall", "ScriptedSTTModel", "SessionSpec", "TranscriptionSpec"]

TranscriptionSpec = str | Exception | type[Exception]
"""One static transcription: the text, or an exception ``transcribe`` raises instead."""

SessionSpec = (
    ScriptedTranscriptionSession | Sequence[TranscriptionTurn] | Exception | type[Exception] | str
)
"""One streamed session: a session, its turns, a single turn, or an exception to raise."""


@dataclass(frozen=True)
class STTCall:
    """One ``transcribe`` call: a snapshot of the static audio and settings it received."""

    input: AudioInput
    settings: STTModelSettings
    trace_include_sensitive_data: bool
    trace_include_sensitive_audio_data: bool


@dataclass(frozen=True)
class STTSessionCall:
    """One ``create_session`` call: the live streamed input and a snapshot of the settings."""

    input: StreamedAudioInput
    settings: STTModelSettings
    trace_include_sensitive_data: bool
    trace_include_sensitive_audio_data: bool


_Call = TypeVar("_Call", STTCall, STTSessionCall)
S = TypeVar("S")


class ScriptedSTTModel(ScriptedVoiceModel, STTModel):
    """An ``STTModel`` whose transcriptions and streamed sessions come from a script.

    ``transcribe`` consumes ``transcriptions`` in order; ``create_session`` consumes
    ``sessions`` in order. A single string is one transcription (or one session of
    one turn). Apart from the constructor, :meth:`assert_complete` and the inspection
    properties, every method is the ``STTModel`` interface.

    The static audio is recorded through its buffer's own ``copy()`` and the settings as
    a deep copy; a copy that raises re-raises its own exception, and nothing is recorded
    or consumed. ``extra_checks=True`` raises ``UncopyableValue`` (caused by it) instead.
    """

    def __init__(
        self,
        transcriptions: Iterable[TranscriptionSpec] | TranscriptionSpec = (),
        *,
        sessions: Iterable[SessionSpec] | SessionSpec = (),
        model_name: str = "scripted-stt",
        extra_checks: bool = False,
    ) -> None:
        static_items = as_sequence(
            transcriptions,
            (str,),
            "transcriptions",
            ("invalid_transcription", "transcription") if extra_checks else None,
        )
        session_items = as_sequence(
            sessions,
            (str, ScriptedTranscriptionSession),
            "sessions",
            ("invalid_session", "session") if extra_checks else None,
        )
        static = [
            text_or_error(
                item, "invalid_transcription", index, "transcriptions", "a static transcription"
            )
            for index, item in enumerate(static_items)
        ]
        streamed = [_session(item, index) for index, item in enumerate(session_items)]
        self._model_name = check_name(model_name, "model_name")
        self._transcriptions: StepScript[str | ScriptedError] = StepScript(static)
        self._sessions: StepScript[ScriptedTranscriptionSession | ScriptedError] = StepScript(
            streamed
        )
        self._calls: list[STTCall] = []
        self._session_calls: list[STTSessionCall] = []
        self._created: list[ScriptedTranscriptionSession] = []
        self._extra_checks = extra_checks

    @property
    def calls(self) -> tuple[STTCall, ...]:
        """Every ``transcribe`` call so far, as detached snapshots."""
        return tuple(_copy(call) for call in self._calls)

    @property
    def session_calls(self) -> tuple[STTSessionCall, ...]:
        """Every ``create_session`` call so far; the streamed input keeps its identity."""
        return tuple(_copy(call) for call in self._session_calls)

    @property
    def created_sessions(self) -> tuple[ScriptedTranscriptionSession, ...]:
        """The live sessions handed to the pipeline, in creation order."""
        return tuple(self._created)

    async def transcribe(
        self,
        input: AudioInput,
        settings: STTModelSettings,
        trace_include_sensitive_data: bool,
        trace_include_sensitive_audio_data: bool,
    ) -> str:
        # Both copies come first: a copy that fails leaves no trace.
        wrap = self._extra_checks
        call = STTCall(
            _audio_snapshot(input, wrap),
            settings_snapshot(settings, wrap_errors=wrap),
            trace_include_sensitive_data,
            trace_include_sensitive_audio_data,
        )
        step = _next_step(self._transcriptions, self._calls, call, "static_transcription")
        if isinstance(step, str):
            return step
        raise raised(step)

    async def create_session(
        self,
        input: StreamedAudioInput,
        settings: STTModelSettings,
        trace_include_sensitive_data: bool,
        trace_include_sensitive_audio_data: bool,
    ) -> ScriptedTranscriptionSession:
        call = STTSessionCall(
            input,
            settings_snapshot(settings, wrap_errors=self._extra_checks),
            trace_include_sensitive_data,
            trace_include_sensitive_audio_data,
        )
        step = _next_step(self._sessions, self._session_calls, call, "streamed_session")
        if not isinstance(step, ScriptedTranscriptionSession):
            raise raised(step)
        self._created.append(step)
        return step

    def assert_complete(self) -> None:
        """Raise ``UnconsumedVoiceSteps`` for unused transcriptions and sessions, then for
        the unused turns of each session this model created.

        Turns skipped because a session was closed count too.
        """
        # A session scripted twice is one object: count its turns once.
        created = {id(session): session for session in self._created}.values()
        turns = sum(session.remaining_turns for session in created)
        left = unconsumed(
            "STT step",
            ("static_transcription", len(self._transcriptions)),
            ("streamed_session", len(self._sessions)),
            also=f" The sessions it created have {turns} turn(s) left too." if turns else "",
        )
        if left is not None:
            raise left
        for session in created:
            session.assert_complete()


def _next_step(
    script: StepScript[S], calls: list[_Call], call: _Call, operation: VoiceOperation
) -> S:
    """Record ``call`` and take the next step of ``script`` for it (none left: unexpected)."""
    calls.append(call)
    step = script.take()
    if step is None:
        raise unexpected_call(operation, _copy(call), len(calls) - 1)
    return step


def _audio_snapshot(audio: AudioInput, wrap_errors: bool) -> AudioInput:
    """The static audio as recorded: its buffer's own ``copy()``, with the format alongside."""
    try:
        buffer = audio.buffer.copy()
    except Exception as error:
        if not wrap_errors:
            add_note = getattr(error, "add_note", None)
            if add_note is not None:
                with contextlib.suppress(Exception):  # a courtesy; the error is what counts
                    add_note(
                        "agents-testing: the static audio buffer's copy() failed; the "
                        "transcription was not recorded or consumed."
                    )
            raise
        failure: Exception = error
    else:
        return AudioInput(
            buffer=buffer,
            frame_rate=audio.frame_rate,
            sample_width=audio.sample_width,
            channels=audio.channels,
        )
    raise UncopyableValue(
        "input.buffer",
        type(audio.buffer).__name__,
        f"its copy() raised {type(failure).__name__}",
    ) from failure


def _copy(call: _Call) -> _Call:
    """A user-facing copy of a recorded call; a streamed input stays the live object."""
    if isinstance(call, STTCall):
        return dataclasses.replace(
            call, input=detach(call.input), settings=settings_snapshot(call.settings)
        )
    return dataclasses.replace(call, settings=settings_snapshot(call.settings))


def _session(item: object, index: int) -> ScriptedTranscriptionSession | ScriptedError:
    if isinstance(item, ScriptedTranscriptionSession):
        # The test keeps this object to inspect it, so it stays the live session.
        return item
    failure = scripted_error(item, "invalid_session", index, "sessions")
    if failure is not None:
        return failure
    if isinstance(item, str):
        return ScriptedTranscriptionSession([item])
    if isinstance(item, Sequence) and not isinstance(item, (bytes, bytearray)):
        try:
            return ScriptedTranscriptionSession(item)
        except InvalidVoiceStep as error:
            raise invalid_step(
                "invalid_session",
                index,
                f"session {index + 1}, turn {ordinal(error.input_index)}: {error.detail}",
                "sessions",
            ) from error
    raise invalid_step(
        "invalid_session",
        index,
        "a session must be a ScriptedTranscriptionSession, a sequence of turns, a string "
        "or an exception, got " + describe(item),
        "sessions",
    )


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
