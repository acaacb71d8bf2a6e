"""The script of a :class:`ScriptedModel`: core's engine, with the model's own errors.

The model holds it rather than deriving from it, so that importing the model's class
imports nothing of the engine; it is made with the first model.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from agents_testing.core import CallableProblem, Entry, ScriptedDouble

from .._call import ModelCall
from .._errors import invalid_step, matcher_rejected, unconsumed_steps, unexpected_call
from .._step import ModelStep, QueuedStep, copy_step

__all__ = ["ModelScript"]


class ModelScript(ScriptedDouble[QueuedStep, "tuple[ModelCall, int]", ModelStep]):
    """A model's steps, and how a call takes one: any step answers any call, the first
    whose matcher accepts it; a matcher gets the recorded call itself (it is read-only)."""

    def __init__(self, entries: Iterable[QueuedStep | Entry[QueuedStep]]) -> None:
        self._start_script(entries, remembers=False, checks_calls=True)

    def _spec(self, queued: QueuedStep) -> ModelStep:
        return copy_step(queued.step)

    def _unconsumed(self, pending: tuple[QueuedStep, ...]) -> BaseException:
        return unconsumed_steps(tuple(map(self._spec, pending)), self._script.consumed)

    def _unexpected(
        self, call: tuple[ModelCall, int], candidates: tuple[QueuedStep, ...], grouped: bool
    ) -> BaseException:
        return unexpected_call(*call)

    def _rejected(
        self, call: tuple[ModelCall, int], same: tuple[QueuedStep, ...], grouped: bool
    ) -> BaseException:
        copies = tuple(map(self._spec, same))
        return matcher_rejected(*call, same[0].input_index, copies, grouped)

    def _invalid_callable(
        self, step: QueuedStep, role: Literal["match", "responder"], problem: CallableProblem
    ) -> BaseException:
        if problem == "awaitable":
            detail = (
                "match returned an awaitable; a matcher must answer at once (a plain "
                "function returning False to reject the call)."
            )
        else:
            detail = (
                "calling match with the ModelCall failed; a matcher takes the ModelCall as "
                "its only argument."
            )
        return invalid_step("invalid_matcher", step.input_index, detail)

    def _handed(self, call: tuple[ModelCall, int]) -> ModelCall:
        return call[0]
