"""Error bases: one family, kind bases shared across boundaries."""

from __future__ import annotations

import pickle

from agents_testing.core import (
    AgentsTestingError,
    InvalidStepError,
    UnconsumedStepsError,
    UnexpectedCallError,
    ordinal,
)


def test_kind_bases_share_the_family_base() -> None:
    for kind in (InvalidStepError, UnexpectedCallError, UnconsumedStepsError):
        assert issubclass(kind, AgentsTestingError)


def test_ordinal_counts_from_one() -> None:
    assert ordinal(0) == 1
    assert ordinal(4) == 5


class _LeftOver(UnconsumedStepsError):
    def __init__(self, pending_steps: tuple[str, ...]) -> None:
        self._set_pending_steps(pending_steps)
        super().__init__(f"{self.remaining_steps} left: {', '.join(pending_steps)}")


def test_unconsumed_steps_count_and_hold_what_is_left() -> None:
    error = _LeftOver(("exec", "read"))

    assert (error.remaining_steps, error.pending_steps) == (2, ("exec", "read"))
    assert str(error) == "2 left: exec, read"


def test_unconsumed_steps_survive_pickling_through_their_constructor() -> None:
    copy = pickle.loads(pickle.dumps(_LeftOver(("write",))))

    assert type(copy) is _LeftOver
    assert (copy.remaining_steps, copy.pending_steps) == (1, ("write",))
    assert str(copy) == "1 left: write"
