"""Errors raised by :class:`ScriptedRealtimeModel` and :class:`RealtimeStep`.

Every error inherits :class:`RealtimeScriptError` and, where one fits, the core kind
base (invalid step, unexpected call, unconsumed steps). Index fields are 0-based;
messages count sends and steps from 1.
"""

from __future__ import annotations

from typing import Any

from agents_testing.core import (
    AgentsTestingError,
    InvalidStepError,
    UnconsumedStepsError,
    UnexpectedCallError,
    ordinal,
    safe_repr,
)

__all__ = [
    "InvalidRealtimeStep",
    "RealtimeScriptError",
    "UnconsumedRealtimeSteps",
    "UnexpectedRealtimeSend",
]


class RealtimeScriptError(AgentsTestingError):
    """Base of the realtime double's errors; raised itself for invalid lifecycle use.

    For example: sending or emitting while the model is not connected, or connecting
    twice without closing in between.
    """


class InvalidRealtimeStep(RealtimeScriptError, InvalidStepError, ValueError):
    """A scripted step, event or argument was malformed and rejected.

    It is also a ``ValueError``, so ``except ValueError`` written for an invalid
    argument keeps working.

    ``reason`` is one of ``invalid_input`` (a ``steps`` item is not a
    :class:`RealtimeStep`), ``invalid_group`` (an empty or nested ``any_order()``),
    ``invalid_expect`` (an expectation that can never work, or
    a predicate that failed to give a bool when called), ``invalid_event`` (not a
    normalized ``RealtimeModelEvent``, or one with a field of the wrong type),
    ``invalid_error`` (not an ``Exception`` that can be raised), ``invalid_argument``
    (a constructor argument of the wrong type) or ``conflicting_outcomes`` (a step
    with both ``emit`` and ``error``). ``field`` names the argument that held the bad
    value and ``input_index`` its 0-based position in that argument (0 for a single
    value such as ``expect`` or ``error``); ``event_field`` names the offending field
    of an event, when it was one.
    """

    def __init__(
        self,
        reason: str,
        input_index: int,
        field: str,
        detail: str,
        *,
        event_field: str | None = None,
    ) -> None:
        self.reason = reason
        self.input_index = input_index
        self.field = field
        self.event_field = event_field
        self.detail = detail
        super().__init__(f"Invalid realtime script ({reason}) in {field!r}: {detail}")

    def __reduce__(self) -> tuple[object, ...]:
        return (
            _rebuild_invalid_step,
            (self.reason, self.input_index, self.field, self.detail, self.event_field),
        )


def _rebuild_invalid_step(
    reason: str, input_index: int, field: str, detail: str, event_field: str | None
) -> InvalidRealtimeStep:
    return InvalidRealtimeStep(reason, input_index, field, detail, event_field=event_field)


class UnexpectedRealtimeSend(RealtimeScriptError, UnexpectedCallError):
    """A strict send did not match the next step, or no step was left.

    ``actual`` is a detached copy of the sent event, ``expected`` the pending step's
    ``expect`` (``None`` when the script was used up), ``send_index`` the 0-based
    position of the send in ``sent_events`` and ``step_index`` the 0-based position
    of the pending step (``None`` when none was left). When the pending position is an
    ``any_order()`` group, ``group_expects`` holds the ``expect`` of each pending member
    (``expected`` is the first of them); otherwise it is empty.
    """

    def __init__(
        self,
        actual: Any,
        expected: Any,
        *,
        send_index: int,
        step_index: int | None,
        group_expects: tuple[Any, ...] = (),
    ) -> None:
        self.actual = actual
        self.expected = expected
        self.send_index = send_index
        self.step_index = step_index
        self.group_expects = group_expects
        if group_expects and step_index is not None:
            expects = ", ".join(safe_repr(expect, 80) for expect in group_expects)
            message = (
                f"Send {ordinal(send_index)} ({safe_repr(actual)}) matches no pending member "
                f"of the any_order() group at step {ordinal(step_index)}, which expect: "
                f"{expects}. Fix the steps or the expectations, or pass strict=False to let "
                "unrelated sends through."
            )
        elif step_index is None:
            message = (
                f"Send {ordinal(send_index)} ({safe_repr(actual)}) arrived after every scripted "
                "step was used. Add a RealtimeStep that expects it, or pass strict=False "
                "to record unrelated sends without failing."
            )
        else:
            message = (
                f"Send {ordinal(send_index)} ({safe_repr(actual)}) does not match step "
                f"{ordinal(step_index)}, which expects {safe_repr(expected)}. Fix the order of the "
                "steps or the expectation, or pass strict=False to let unrelated sends "
                "through."
            )
        super().__init__(message)

    def __reduce__(self) -> tuple[object, ...]:
        return (
            _rebuild_unexpected_send,
            (self.actual, self.expected, self.send_index, self.step_index, self.group_expects),
        )


def _rebuild_unexpected_send(
    actual: Any,
    expected: Any,
    send_index: int,
    step_index: int | None,
    group_expects: tuple[Any, ...] = (),
) -> UnexpectedRealtimeSend:
    return UnexpectedRealtimeSend(
        actual,
        expected,
        send_index=send_index,
        step_index=step_index,
        group_expects=group_expects,
    )


class UnconsumedRealtimeSteps(RealtimeScriptError, UnconsumedStepsError):
    """``assert_complete()`` found steps whose sends never arrived.

    ``remaining_steps`` is how many are left and ``pending_steps`` holds the pending
    (immutable) :class:`RealtimeStep` objects in script order.
    """

    remaining_steps: int
    # RealtimeStep objects: typed loosely so that errors need not import the steps, whose
    # construction raises these errors.
    pending_steps: tuple[Any, ...]

    def __init__(self, pending_steps: tuple[Any, ...]) -> None:
        self._set_pending_steps(pending_steps)
        expects = ", ".join(safe_repr(step.expect, 80) for step in pending_steps[:5])
        if len(pending_steps) > 5:
            expects += f", and {len(pending_steps) - 5} more"
        super().__init__(
            f"{self.remaining_steps} scripted realtime step(s) were never matched: "
            f"{expects}. The session ended before sending them; check what the code "
            "under test sent (model.sent_events) or remove the steps."
        )
