"""Shared primitives of the agents-testing doubles: snapshots, errors and the step script."""

from __future__ import annotations

from ._bridge import MissingBoundaryError
from ._errors import (
    AgentsTestingError,
    InvalidStepError,
    ModelRequestBlocked,
    UnconsumedStepsError,
    UncopyableValue,
    UnexpectedCallError,
    ordinal,
)
from ._script import Entry, StepScript
from ._snapshot import detach, readonly
from ._snapshot_cache import SnapshotCache
from ._values import exception_problem, safe_repr

__all__ = [
    "AgentsTestingError",
    "Entry",
    "InvalidStepError",
    "MissingBoundaryError",
    "ModelRequestBlocked",
    "SnapshotCache",
    "StepScript",
    "UnconsumedStepsError",
    "UncopyableValue",
    "UnexpectedCallError",
    "detach",
    "exception_problem",
    "ordinal",
    "readonly",
    "safe_repr",
]
