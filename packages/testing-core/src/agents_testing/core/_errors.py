"""Error bases shared by every boundary.

Each boundary defines its own base (``ModelScriptError``, ``SandboxScriptError``, ...)
and concrete errors that also inherit one of the kind bases below, so tooling can
treat "a step was left over" the same way for every double. Index fields are 0-based;
human-readable messages count from 1 (see :func:`ordinal`).
"""

from __future__ import annotations

__all__ = [
    "AgentsTestingError",
    "InvalidStepError",
    "UnconsumedStepsError",
    "UnexpectedCallError",
    "ordinal",
]


def ordinal(index: int) -> int:
    """The 1-based number of a 0-based index, for messages meant for people."""
    return index + 1


class AgentsTestingError(Exception):
    """Base of every error raised by an agents-testing double."""


class InvalidStepError(AgentsTestingError):
    """A scripted step was malformed and rejected before it was queued.

    Concrete subclasses set ``reason`` (a machine-readable string) and
    ``input_index`` (0-based position in the sequence the test passed).
    """

    reason: str
    input_index: int


class UnexpectedCallError(AgentsTestingError):
    """The code under test made a call that the script did not expect."""


class UnconsumedStepsError(AgentsTestingError):
    """``assert_complete()`` found scripted steps that were never used.

    ``remaining_steps`` says what is left; its type is the boundary's own.
    """

    remaining_steps: object
