"""A voice workflow that answers each transcription with scripted text fragments."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Sequence

from agents.voice import VoiceWorkflowBase

from agents_testing.core import StepScript

from ._errors import (
    InvalidVoiceStep,
    UnconsumedVoiceSteps,
    UnexpectedVoiceCall,
    VoiceStepKind,
    steps_of,
)
from ._steps import as_sequence, fail, fragments, replay

__all__ = ["ScriptedVoiceWorkflow", "WorkflowResultSpec"]

WorkflowResultSpec = str | Sequence[str] | BaseException
"""One scripted result: one fragment, fragments with explicit boundaries, or an exception."""


class ScriptedVoiceWorkflow(VoiceWorkflowBase):
    """A ``VoiceWorkflowBase`` that yields scripted text instead of running agents.

    Each ``run(transcription)`` records the transcription and consumes one turn; a
    string is one fragment and a sequence of strings sets the fragment boundaries the
    pipeline sees before text splitting and TTS. ``start``, when given, is consumed by
    the first ``on_start()``; without it ``on_start()`` yields nothing, as the base
    class does. Apart from the constructor, :meth:`assert_complete` and
    ``transcriptions``, every method is the ``VoiceWorkflowBase`` interface.
    """

    def __init__(
        self,
        turns: Iterable[WorkflowResultSpec] | str | BaseException = (),
        *,
        start: WorkflowResultSpec | None = None,
    ) -> None:
        results = [
            _result(item, index, "turn") for index, item in enumerate(as_sequence(turns, (str,)))
        ]
        self._turns: StepScript[tuple[str, ...] | BaseException] = StepScript(results)
        self._start: StepScript[tuple[str, ...] | BaseException] = StepScript(
            [] if start is None else [_result(start, 0, "start")]
        )
        self._scripted_start = start is not None
        self._start_calls = 0
        self._transcriptions: list[str] = []

    @property
    def transcriptions(self) -> tuple[str, ...]:
        """The transcriptions the workflow was run with, in turn order."""
        return tuple(self._transcriptions)

    def run(self, transcription: str) -> AsyncIterator[str]:
        self._transcriptions.append(transcription)
        step = self._turns.take()
        if isinstance(step, tuple):
            return replay(step)
        if step is None:
            step = UnexpectedVoiceCall(
                "workflow_turn", transcription, len(self._transcriptions) - 1
            )
        return fail(step)

    def on_start(self) -> AsyncIterator[str]:
        self._start_calls += 1
        if not self._scripted_start:
            return replay(())
        step = self._start.take()
        if isinstance(step, tuple):
            return replay(step)
        if step is None:
            step = UnexpectedVoiceCall("workflow_start", None, self._start_calls - 1)
        return fail(step)

    def assert_complete(self) -> None:
        """Raise ``UnconsumedVoiceSteps`` for an unused start or unused turns."""
        pending: tuple[VoiceStepKind, ...] = steps_of("workflow_start", len(self._start))
        pending += steps_of("workflow_turn", len(self._turns))
        if pending:
            raise UnconsumedVoiceSteps(pending)


def _result(item: object, index: int, what: str) -> tuple[str, ...] | BaseException:
    if isinstance(item, BaseException):
        return item
    parts = fragments(item, "invalid_fragment", index, f"workflow {what} {index + 1}")
    if parts is None:
        raise InvalidVoiceStep(
            "invalid_workflow_result",
            index,
            f"a workflow {what} must be a string, a sequence of strings or an exception "
            f"instance, got {type(item).__name__} {item!r}",
        )
    return parts
