"""``UnusedModelFaults``: scheduled faults whose call never came."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from agents_testing.core import UnconsumedStepsError

from .._errors import ModelScriptError

if TYPE_CHECKING:
    from .fault import ModelFault

__all__ = ["UnusedModelFaults", "unused_faults"]


class UnusedModelFaults(ModelScriptError, UnconsumedStepsError):
    """``assert_complete()`` found faults of a :class:`FaultSchedule` that were never injected.

    The run made fewer calls than the schedule counts on, so the failures the test meant
    to show never happened. ``pending_faults`` maps each unused call number (counted from
    1) to its fault; ``calls`` is how many calls the model got; ``remaining_steps`` and
    ``pending_steps`` are the count and the faults, as for every leftover-step error.
    """

    _keyword_fields = ("pending_faults", "calls")

    def __init__(
        self, message: str, *, pending_faults: Mapping[int, ModelFault], calls: int
    ) -> None:
        self.pending_faults = dict(pending_faults)
        self.calls = calls
        self._set_pending_steps(tuple(self.pending_faults.values()))
        super().__init__(message)


def unused_faults(pending: Mapping[int, ModelFault], calls: int) -> UnusedModelFaults:
    """``N scheduled model fault(s) were never injected: ...``."""
    listed = ", ".join(f"call #{number} ({fault!r})" for number, fault in pending.items())
    return UnusedModelFaults(
        f"{len(pending)} scheduled model fault(s) were never injected: {listed}; the model "
        f"got {calls} call(s). The run stopped before the calls the schedule counts on "
        f"(every call counts, injected ones included): number the faults by the calls the "
        f"run makes, or script the steps that lead to them.",
        pending_faults=pending,
        calls=calls,
    )


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
