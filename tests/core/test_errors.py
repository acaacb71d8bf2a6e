"""Error bases: one family, kind bases shared across boundaries."""

from __future__ import annotations

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
