"""A streamed transcription session that yields scripted turns."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

from agents.voice import StreamedTranscriptionSession

from agents_testing.core import StepScript

from ._errors import InvalidVoiceStep, UnconsumedVoiceSteps, VoiceStepKind, steps_of
from ._steps import as_sequence

__all__ = ["ScriptedTranscriptionSession", "TranscriptionTurn"]

TranscriptionTurn = str | BaseException
"""One scripted turn: the transcribed text, or an exception the session raises instead."""


class ScriptedTranscriptionSession(StreamedTranscriptionSession):
    """A ``StreamedTranscriptionSession`` that yields scripted turns, one per user utterance.

    Iteration ends when the turns run out or the session is closed; turns skipped by
    closing stay pending and :meth:`assert_complete` reports them. ``close_error`` is
    raised by every ``close()`` call (the session is closed all the same).
    """

    def __init__(
        self,
        turns: Sequence[TranscriptionTurn] | TranscriptionTurn = (),
        *,
        close_error: BaseException | None = None,
    ) -> None:
        items = as_sequence(turns, (str,))
        for index, turn in enumerate(items):
            if not isinstance(turn, (str, BaseException)):
                raise InvalidVoiceStep(
                    "invalid_turn",
                    index,
                    "a transcription turn must be a string or an exception instance, "
                    f"got {type(turn).__name__} {turn!r}",
                )
        if close_error is not None and not isinstance(close_error, BaseException):
            raise InvalidVoiceStep(
                "invalid_close_error",
                0,
                "close_error must be an exception instance or None, "
                f"got {type(close_error).__name__} {close_error!r}",
            )
        self._turns: StepScript[TranscriptionTurn] = StepScript(items)  # type: ignore[arg-type]
        self._close_error = close_error
        self._closed = False
        self._close_calls = 0

    @property
    def closed(self) -> bool:
        """Whether ``close()`` has been called."""
        return self._closed

    @property
    def close_calls(self) -> int:
        """How many times ``close()`` has been called."""
        return self._close_calls

    @property
    def remaining_turns(self) -> int:
        """How many scripted turns have not been yielded yet."""
        return len(self._turns)

    @property
    def pending_turns(self) -> tuple[TranscriptionTurn, ...]:
        """The turns not yielded yet, in script order (strings, or the exceptions to raise)."""
        return self._turns.pending()

    async def transcribe_turns(self) -> AsyncIterator[str]:
        # The closed check runs before every turn, so a close() while the consumer
        # handles one turn stops the next one from being transcribed.
        take = self._turns.take
        while not self._closed:
            turn = take()
            if type(turn) is not str:
                if turn is None:
                    return
                if isinstance(turn, BaseException):
                    raise turn
            yield turn

    async def close(self) -> None:
        self._close_calls += 1
        self._closed = True
        if self._close_error is not None:
            raise self._close_error

    def assert_complete(self) -> None:
        """Raise ``UnconsumedVoiceSteps`` when scripted turns were never yielded."""
        pending = self._pending_kinds()
        if pending:
            raise UnconsumedVoiceSteps(pending)

    def _pending_kinds(self) -> tuple[VoiceStepKind, ...]:
        return steps_of("session_turn", len(self._turns))
