"""Shared primitives of the agents-testing doubles: snapshots, errors and the step script.

Public modules for the boundary packages: :mod:`agents_testing.core.compat` (SDK release
differences), :mod:`agents_testing.core.lazy` (lazy package exports) and
:mod:`agents_testing.core.pytest_support` (what the boundary fixtures share).
"""

from __future__ import annotations

from ._bridge import MissingBoundaryError
from ._cassette import (
    CassetteError,
    CassetteFormatError,
    CassetteMismatch,
    CassetteNotFound,
    CassetteVersionError,
    RecordMode,
)
from ._cassette_secrets import CassetteSecretError, Scrubber, SecretFinding
from ._errors import (
    AgentsTestingError,
    InvalidStepError,
    ModelRequestBlocked,
    UnconsumedStepsError,
    UncopyableValue,
    UnexpectedCallError,
    ordinal,
)
from ._group import AnyOrder, GroupEntry, any_order, build_group, member_problem
from ._script import Entry, StepScript
from ._snapshot import detach, readonly
from ._snapshot_cache import SnapshotCache
from ._values import exception_problem, safe_repr

__all__ = [
    "AgentsTestingError",
    "AnyOrder",
    "CassetteError",
    "CassetteFormatError",
    "CassetteMismatch",
    "CassetteNotFound",
    "CassetteSecretError",
    "CassetteVersionError",
    "Entry",
    "GroupEntry",
    "InvalidStepError",
    "MissingBoundaryError",
    "ModelRequestBlocked",
    "RecordMode",
    "Scrubber",
    "SecretFinding",
    "SnapshotCache",
    "StepScript",
    "UnconsumedStepsError",
    "UncopyableValue",
    "UnexpectedCallError",
    "any_order",
    "build_group",
    "detach",
    "exception_problem",
    "member_problem",
    "ordinal",
    "readonly",
    "safe_repr",
]

from .lazy import publish as _publish

# Tracebacks and pickles name the public module, e.g. agents_testing.core.ModelRequestBlocked.
_publish(__name__, [globals()[name] for name in __all__])
