"""A streamed transcription session that yields scripted turns."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

from agents.voice import StreamedTranscriptionSession

from agents_testing.core import ReadOnly, StepScript, compat

from ._errors import invalid_step, unconsumed
from ._faults import check_drop_after, transcription_drop
from ._steps import (
    ScriptedError,
    as_sequence,
    describe,
    raised,
    scripted_error,
    text_or_error,
)

__all__ = ["ScriptedTranscriptionSession", "TranscriptionTurn"]

TranscriptionTurn = str | Exception | type[Exception]
"""One scripted turn: the transcribed text, or an exception the session raises instead.

An exception is an ``Exception`` instance or an ``Exception`` class that can be created
without arguments.
"""


class ScriptedTranscriptionSession(StreamedTranscriptionSession):
    """A ``StreamedTranscriptionSession`` that yields scripted turns, one per user utterance.

    Iteration ends when the turns run out or the session is closed; turns skipped by
    closing stay pending and :meth:`assert_complete` reports them. ``close_error`` is
    raised by every ``close()`` call (the session is closed all the same).
    ``drop_after=n`` (our own, opt-in) makes the connection drop after ``n`` turns, in the
    middle of the next utterance: iteration then fails as the SDK's own session fails
    when its WebSocket drops.
    """

    def __init__(
        self,
        turns: Sequence[TranscriptionTurn] | TranscriptionTurn = (),
        *,
        close_error: Exception | type[Exception] | None = None,
        drop_after: int | None = None,
    ) -> None:
        items = [
            text_or_error(turn, "invalid_turn", index, "turns", "a transcription turn")
            for index, turn in enumerate(as_sequence(turns, (str,), "turns"))
        ]
        self._drop_after = check_drop_after(drop_after, len(items))
        self._transcribed = 0
        self._dropped = False
        if close_error is not None:
            close_error = _close_error(close_error)
        # Turns are always taken in order, one per transcription.
        self._turns: StepScript[str | ScriptedError] = StepScript(items)
        self._close_error: ScriptedError | None = close_error
        self._closed = False
        self._close_calls = 0

    closed = ReadOnly[bool]("_closed", "Whether ``close()`` has been called.")
    close_calls = ReadOnly[int]("_close_calls", "How many times ``close()`` has been called.")
    dropped = ReadOnly[bool](
        "_dropped", "Whether the connection dropped (``drop_after``) while turns were transcribed."
    )

    @property
    def remaining_turns(self) -> int:
        """How many scripted turns have not been yielded yet."""
        return len(self._turns)

    @property
    def pending_turns(self) -> tuple[TranscriptionTurn, ...]:
        """The turns not yielded yet, in script order (strings, or the exceptions to raise)."""
        return tuple(self._turns)

    async def transcribe_turns(self) -> AsyncIterator[str]:
        # The closed check runs before every turn, so a close() while the consumer
        # handles one turn stops the next one from being transcribed.
        take = self._turns.popper()
        drop_after = self._drop_after
        while not self._closed:
            if drop_after is not None and self._transcribed == drop_after:
                self._dropped = True
                raise transcription_drop()
            try:
                turn = take()
            except IndexError:
                return
            self._transcribed += 1
            if type(turn) is str:
                yield turn
            else:
                raise raised(turn)  # type: ignore[arg-type]

    async def close(self) -> None:
        self._close_calls += 1
        self._closed = True
        if self._close_error is not None:
            raise raised(self._close_error)

    def assert_complete(self) -> None:
        """Raise ``UnconsumedVoiceSteps`` when scripted turns were never yielded."""
        left = unconsumed("transcription turn", ("session_turn", len(self._turns)))
        if left is not None:
            raise left


def _close_error(value: object) -> ScriptedError:
    error = scripted_error(value, "invalid_close_error", 0, "close_error")
    if error is None:
        raise invalid_step(
            "invalid_close_error",
            0,
            "close_error must be an exception or None, got " + describe(value),
            "close_error",
        )
    if not compat.voice_reports_close_errors():
        # These releases let a failing close() end the pipeline's task before it finishes
        # the stream, so every run using this session would leave stream() waiting.
        raise invalid_step(
            "invalid_close_error",
            0,
            "close_error needs openai-agents 0.20 or later: the installed VoicePipeline "
            "does not report a failing close() and its result stream would never end",
            "close_error",
        )
    return error


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
