"""Shared primitives of the agents-testing doubles: snapshots, errors and the step script.

For tests: :func:`to_snapshot` (stable snapshot data) and :func:`capture_traces`
(the SDK's spans in memory).

Public modules for the boundary packages: :mod:`agents_testing.core.compat` (SDK release
differences), :mod:`agents_testing.core.lazy` (lazy package exports) and
:mod:`agents_testing.core.pytest_support` (what the boundary fixtures share).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import lazy_exports

if TYPE_CHECKING:
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
    from ._clock.scripted import delay_problem, scripted_wait
    from ._clock.virtual import ClockWait, VirtualClock, VirtualClockError, virtual_clock
    from ._detach.cache import SnapshotCache
    from ._detach.detach import detach, readonly
    from ._errors import (
        AgentsTestingError,
        BoundaryError,
        IncompatibleOpenAIClient,
        InvalidStepError,
        ModelRequestBlocked,
        NetworkBlocked,
        UnconsumedStepsError,
        UncopyableValue,
        UnexpectedCallError,
        UnsnapshottableValue,
        error_fields,
        ordinal,
    )
    from ._faults.schedule import (
        ArgumentProblem,
        CallSchedule,
        schedule_problem,
        seconds_problem,
    )
    from ._script.engine import (
        CallableProblem,
        ScriptedDouble,
        close_awaitable,
        fresh_error,
        raised_by_the_call,
    )
    from ._script.fifo import Entry, StepScript
    from ._script.group import (
        AnyOrder,
        GroupEntry,
        any_order,
        build_entry,
        build_group,
        group_reason,
        member_problem,
    )
    from ._script.steps import DictStep, OutcomeKind, Part, StepReader
    from ._snapshot.data import SupportsSnapshot, to_snapshot
    from ._tracing.capture import CapturedTraces, TraceCaptureError, capture_traces
    from ._values import (
        as_sentence,
        callable_problem,
        cycle_problem,
        exception_problem,
        safe_repr,
    )
    from ._view import ReadOnly

__all__ = [
    "AgentsTestingError",
    "IncompatibleOpenAIClient",
    "AllowedSecret",
    "AnyOrder",
    "BoundaryError",
    "CallableProblem",
    "ArgumentProblem",
    "CallSchedule",
    "CapturedTraces",
    "CassetteError",
    "CassetteFormatError",
    "CassetteMismatch",
    "CassetteNotFound",
    "CassetteSecretError",
    "CassetteVersionError",
    "CassetteWriteError",
    "DictStep",
    "ClockWait",
    "Entry",
    "GroupEntry",
    "InvalidStepError",
    "MissingBoundaryError",
    "ModelRequestBlocked",
    "NetworkBlocked",
    "OutcomeKind",
    "Part",
    "ReadOnly",
    "RecordMode",
    "ScriptedDouble",
    "Scrubber",
    "SecretFinding",
    "SnapshotCache",
    "StepReader",
    "StepScript",
    "SupportsSnapshot",
    "TraceCaptureError",
    "UnconsumedStepsError",
    "UncopyableValue",
    "UnexpectedCallError",
    "any_order",
    "as_sentence",
    "build_entry",
    "build_group",
    "callable_problem",
    "cycle_problem",
    "delay_problem",
    "UnsnapshottableValue",
    "VirtualClock",
    "VirtualClockError",
    "capture_traces",
    "close_awaitable",
    "detach",
    "error_fields",
    "exception_problem",
    "fresh_error",
    "group_reason",
    "member_problem",
    "ordinal",
    "raised_by_the_call",
    "readonly",
    "safe_repr",
    "schedule_problem",
    "seconds_problem",
    "scripted_wait",
    "to_snapshot",
    "virtual_clock",
]

# Loading the package (as the pytest plugins and the import bridge do) imports nothing
# more: each name is imported from its module on first use, and then reports this
# package as its ``__module__`` (tracebacks and pickles show agents_testing.core.X).
__getattr__, __dir__ = lazy_exports(
    __name__,
    globals(),
    {
        "AgentsTestingError": "._errors",
        "AllowedSecret": "._cassette.secrets",
        "AnyOrder": "._script.group",
        "BoundaryError": "._errors",
        "CallableProblem": "._script.engine",
        "ArgumentProblem": "._faults.schedule",
        "CallSchedule": "._faults.schedule",
        "CapturedTraces": "._tracing.capture",
        "CassetteError": "._cassette.file",
        "CassetteFormatError": "._cassette.file",
        "CassetteMismatch": "._cassette.file",
        "CassetteNotFound": "._cassette.file",
        "CassetteSecretError": "._cassette.secrets",
        "CassetteVersionError": "._cassette.file",
        "CassetteWriteError": "._cassette.file",
        "DictStep": "._script.steps",
        "ClockWait": "._clock.virtual",
        "Entry": "._script.fifo",
        "GroupEntry": "._script.group",
        "IncompatibleOpenAIClient": "._errors",
        "InvalidStepError": "._errors",
        "MissingBoundaryError": "._bridge.resolve",
        "ModelRequestBlocked": "._errors",
        "NetworkBlocked": "._errors",
        "OutcomeKind": "._script.steps",
        "Part": "._script.steps",
        "ReadOnly": "._view",
        "RecordMode": "._cassette.modes",
        "ScriptedDouble": "._script.engine",
        "Scrubber": "._cassette.secrets",
        "SecretFinding": "._cassette.secrets",
        "SnapshotCache": "._detach.cache",
        "StepReader": "._script.steps",
        "StepScript": "._script.fifo",
        "SupportsSnapshot": "._snapshot.data",
        "TraceCaptureError": "._tracing.capture",
        "UnconsumedStepsError": "._errors",
        "UncopyableValue": "._errors",
        "UnexpectedCallError": "._errors",
        "UnsnapshottableValue": "._errors",
        "any_order": "._script.group",
        "build_entry": "._script.group",
        "build_group": "._script.group",
        "as_sentence": "._values",
        "callable_problem": "._values",
        "cycle_problem": "._values",
        "capture_traces": "._tracing.capture",
        "close_awaitable": "._script.engine",
        "delay_problem": "._clock.scripted",
        "detach": "._detach.detach",
        "error_fields": "._errors",
        "exception_problem": "._values",
        "fresh_error": "._script.engine",
        "group_reason": "._script.group",
        "member_problem": "._script.group",
        "ordinal": "._errors",
        "raised_by_the_call": "._script.engine",
        "readonly": "._detach.detach",
        "safe_repr": "._values",
        "schedule_problem": "._faults.schedule",
        "seconds_problem": "._faults.schedule",
        "scripted_wait": "._clock.scripted",
        "to_snapshot": "._snapshot.data",
        "virtual_clock": "._clock.virtual",
        "VirtualClock": "._clock.virtual",
        "VirtualClockError": "._clock.virtual",
    },
)
