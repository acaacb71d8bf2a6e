"""Shared primitives of the agents-testing doubles: snapshots, errors and the step script.

For tests: :func:`to_snapshot` (stable snapshot data) and :func:`capture_traces`
(the SDK's spans in memory).

Public modules for the boundary packages: :mod:`agents_testing.core.compat` (SDK release
differences), :mod:`agents_testing.core.lazy` (lazy package exports) and
:mod:`agents_testing.core.pytest_support` (what the boundary fixtures share).
"""

from __future__ import annotations

from ._bridge.resolve import MissingBoundaryError
from ._cassette.file import (
    CassetteError,
    CassetteFormatError,
    CassetteMismatch,
    CassetteNotFound,
    CassetteVersionError,
    CassetteWriteError,
)
from ._cassette.modes import RecordMode
from ._cassette.secrets import AllowedSecret, CassetteSecretError, Scrubber, SecretFinding
from ._detach.cache import SnapshotCache
from ._detach.detach import detach, readonly
from ._errors import (
    AgentsTestingError,
    InvalidStepError,
    ModelRequestBlocked,
    NetworkBlocked,
    UnconsumedStepsError,
    UncopyableValue,
    UnexpectedCallError,
    UnsnapshottableValue,
    ordinal,
)
from ._script.fifo import Entry, StepScript
from ._script.group import AnyOrder, GroupEntry, any_order, build_group, member_problem
from ._snapshot.data import SupportsSnapshot, to_snapshot
from ._tracing.capture import CapturedTraces, TraceCaptureError, capture_traces
from ._values import (
    as_sentence,
    callable_problem,
    cycle_problem,
    exception_problem,
    safe_repr,
)

__all__ = [
    "AgentsTestingError",
    "AllowedSecret",
    "AnyOrder",
    "CapturedTraces",
    "CassetteError",
    "CassetteFormatError",
    "CassetteMismatch",
    "CassetteNotFound",
    "CassetteSecretError",
    "CassetteVersionError",
    "CassetteWriteError",
    "Entry",
    "GroupEntry",
    "InvalidStepError",
    "MissingBoundaryError",
    "ModelRequestBlocked",
    "NetworkBlocked",
    "RecordMode",
    "Scrubber",
    "SecretFinding",
    "SnapshotCache",
    "StepScript",
    "SupportsSnapshot",
    "TraceCaptureError",
    "UnconsumedStepsError",
    "UncopyableValue",
    "UnexpectedCallError",
    "any_order",
    "as_sentence",
    "build_group",
    "callable_problem",
    "cycle_problem",
    "UnsnapshottableValue",
    "capture_traces",
    "detach",
    "exception_problem",
    "member_problem",
    "ordinal",
    "readonly",
    "safe_repr",
    "to_snapshot",
]

from .lazy import publish as _publish

# Tracebacks and pickles name the public module, e.g. agents_testing.core.ModelRequestBlocked.
_publish(__name__, [globals()[name] for name in __all__])
