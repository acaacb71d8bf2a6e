"""A voice workflow that answers each transcription with scripted text fragments."""

from __future__ import annotations

from collections import deque
from collections.abc import AsyncIterator, Iterable, Sequence

from agents.voice import VoiceWorkflowBase

from agents_testing.core import StepScript, cycle_problem

from ._errors import invalid_step, unconsumed, unexpected_call
from ._steps import ScriptedError, as_sequence, describe, fail, fragments, replay, scripted_error

__all__ = ["ScriptedVoiceWorkflow", "WorkflowResultSpec"]

WorkflowResultSpec = str | Sequence[str] | Exception | type[Exception]
"""One scripted result: one fragment, fragments with explicit boundaries, or an exception."""

_Result = tuple[str, ...] | ScriptedError


class _Fragments:
    """The fragments of one scripted result, handed out one at a time.

    With ``extra_checks`` a result counts as consumed only once every fragment has been
    yielded, so a consumer that stops early (a failing pipeline step) leaves it
    reportable.
    """

    __slots__ = ("left",)

    def __init__(self, parts: tuple[str, ...]) -> None:
        self.left = deque(parts)

    async def stream(self) -> AsyncIterator[str]:
        left = self.left
        while left:
            yield left.popleft()


class ScriptedVoiceWorkflow(VoiceWorkflowBase):
    """A ``VoiceWorkflowBase`` that yields scripted text instead of running agents.

    Each ``run(transcription)`` records the transcription and consumes one turn; a
    string is one fragment and a sequence of strings sets the fragment boundaries the
    pipeline sees before text splitting and TTS. ``start``, when given, is consumed by
    the first ``on_start()`` (a later call is an ``UnexpectedVoiceCall``); without it
    ``on_start()`` yields nothing, as the base class does. Apart from the constructor,
    :meth:`assert_complete` and ``transcriptions``, every method is the
    ``VoiceWorkflowBase`` interface.

    ``extra_checks=True`` also counts a start or turn whose fragments were not all
    yielded as not consumed, for :meth:`assert_complete`.
    """

    def __init__(
        self,
        turns: Iterable[WorkflowResultSpec] | str | Exception | type[Exception] = (),
        *,
        start: WorkflowResultSpec | None = None,
        extra_checks: bool = False,
    ) -> None:
        items = as_sequence(
            turns, (str,), "turns", ("invalid_workflow_result", "turn") if extra_checks else None
        )
        if extra_checks:
            problem = cycle_problem(start, "start")
            if problem is not None:
                raise invalid_step("invalid_workflow_result", 0, problem, "start")
        results = [_result(item, index, "turn", "turns") for index, item in enumerate(items)]
        # Two scripts: the start answers on_start(), the turns answer run(), each in order.
        self._turns: StepScript[_Result] = StepScript(results)
        self._next_turn = self._turns.popper()
        self._start: StepScript[_Result] = StepScript(
            [] if start is None else [_result(start, 0, "start", "start")]
        )
        self._scripted_start = start is not None
        self._start_calls = 0
        self._extra_checks = extra_checks
        self._started: _Fragments | None = None
        self._handed_out: list[_Fragments] = []
        self._transcriptions: list[str] = []

    @property
    def extra_checks(self) -> bool:
        """Whether a partly read start or turn still counts as not consumed."""
        return self._extra_checks

    @property
    def transcriptions(self) -> tuple[str, ...]:
        """The transcriptions the workflow was run with, in turn order."""
        return tuple(self._transcriptions)

    def run(self, transcription: str) -> AsyncIterator[str]:
        self._transcriptions.append(transcription)
        try:
            step = self._next_turn()
        except IndexError:
            index = len(self._transcriptions) - 1
            return fail(unexpected_call("workflow_turn", transcription, index))
        if not isinstance(step, tuple):
            return fail(step)
        if self._extra_checks:
            result = _Fragments(step)
            self._handed_out.append(result)
            return result.stream()
        if len(step) == 1:
            return _one(step[0])
        return replay(step)

    def on_start(self) -> AsyncIterator[str]:
        self._start_calls += 1
        if not self._scripted_start:
            return _nothing()
        step = self._start.take()
        if step is None:
            return fail(unexpected_call("workflow_start", None, self._start_calls - 1))
        if not isinstance(step, tuple):
            return fail(step)
        if self._extra_checks:
            self._started = _Fragments(step)
            return self._started.stream()
        return replay(step)

    def assert_complete(self) -> None:
        """Raise ``UnconsumedVoiceSteps`` for an unused start or unused turns.

        With ``extra_checks=True`` a start or turn the pipeline asked for but stopped
        reading before its last fragment counts as unused too.
        """
        started = self._started is not None and bool(self._started.left)
        starts = len(self._start) + started
        partial = sum(1 for result in self._handed_out if result.left)
        turns = partial + len(self._turns)
        if not starts:
            subject = "workflow turn"
        else:
            subject = "workflow step" if turns else "workflow startup step"
        left = unconsumed(subject, ("workflow_start", starts), ("workflow_turn", turns))
        if left is not None:
            raise left


async def _one(fragment: str) -> AsyncIterator[str]:
    # The common turn: one fragment, without the loop replay() needs for several.
    yield fragment


async def _nothing() -> AsyncIterator[str]:
    return
    yield  # pragma: no cover - makes this an async generator


def _result(item: object, index: int, what: str, argument: str) -> tuple[str, ...] | ScriptedError:
    failure = scripted_error(item, "invalid_workflow_result", index, argument)
    if failure is not None:
        return failure
    parts = fragments(item, "invalid_fragment", index, f"workflow {what} {index + 1}", argument)
    if parts is None:
        raise invalid_step(
            "invalid_workflow_result",
            index,
            f"a workflow {what} must be a string, a sequence of strings or an exception, "
            "got " + describe(item),
            argument,
        )
    return parts


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
