"""What ``ScriptedModel`` asks of faults: an attached schedule, and a fault error's advice.

A fault's error carries how to advise on it (as the SDK's OpenAI models would, a fixed
``ModelRetryAdvice``, or none), so ``ScriptedModel.get_retry_advice`` answers for it
whether the error came out of a step, a responder or the middle of a stream. This module
imports no model module, so the model can import it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from agents.retry import ModelRetryAdvice, ModelRetryAdviceRequest

    from .._call import ModelCall
    from .._step import QueuedStep

__all__ = ["Advise", "AttachedFaults", "fault_advice", "mark_fault_error"]


class AttachedFaults(Protocol):
    """A fault schedule as the model it is attached to sees it."""

    async def _answer(self, model: Any, call: ModelCall, index: int) -> QueuedStep:
        """The step that answers call ``index`` (0-based): injected, or the script's."""
        ...

    def assert_complete(self) -> None:
        """Raise when a fault's call never came."""
        ...


Advise = Callable[["ModelRetryAdviceRequest"], "ModelRetryAdvice | None"]

# The attribute a fault's error carries; a private name no client or SDK reads.
_ATTRIBUTE = "_agents_testing_retry_advice"


def mark_fault_error(error: Exception, advise: Advise) -> None:
    """Note on ``error`` how the model advises on it."""
    setattr(error, _ATTRIBUTE, advise)


def fault_advice(request: ModelRetryAdviceRequest) -> ModelRetryAdvice | None:
    """The advice for ``request.error`` if a fault raised it, else ``None``."""
    # Read from the error's own attributes: a class answering every name never matches.
    advise: Advise | None = getattr(request.error, "__dict__", {}).get(_ATTRIBUTE)
    return None if advise is None else advise(request)
