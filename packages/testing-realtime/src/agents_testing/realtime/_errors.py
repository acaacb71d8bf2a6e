"""Errors raised by :class:`ScriptedRealtimeModel` and :class:`RealtimeStep`.

Every error inherits :class:`RealtimeScriptError` and, where one fits, the core kind
base (invalid step, unexpected call, unconsumed steps). Each is built as
``Error(message, *, fields...)``, as the SDK's own testing errors are; the functions
below compose the messages the double raises. Index fields are 0-based; messages count
sends and steps from 1. Messages name event classes only, never a field value: sent
events carry what users say and type, which must not end up in CI logs.
"""

from __future__ import annotations

import dataclasses
import types
from typing import Any, Union, get_args, get_origin

from agents_testing.core import InvalidStepError, UnconsumedStepsError, UnexpectedCallError
from agents_testing.core.errors import BoundaryError, as_sentence, error_fields, ordinal

__all__ = [
    "InvalidRealtimeStep",
    "RealtimeAlreadyConnected",
    "RealtimeScriptError",
    "UnconsumedRealtimeSteps",
    "UnexpectedRealtimeSend",
    "already_connected",
    "conflicting_outcomes",
    "closed_before_delivery",
    "describe_expectation",
    "disconnected",
    "invalid_step",
    "unconsumed_steps",
    "unexpected_send",
]


class RealtimeScriptError(BoundaryError):
    """Base of the realtime double's errors; raised itself for invalid lifecycle use.

    For example: sending or emitting while the model is disconnected, or a delivery
    that could not start because the model was closed before its turn.
    """


class RealtimeAlreadyConnected(RealtimeScriptError, AssertionError):
    """``connect()`` was refused: the model is connected, or still delivering events.

    It is an ``AssertionError`` too, as the SDK's own scripted model raises one. Nothing
    was recorded and nothing was emitted.
    """


@error_fields
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
    (a constructor argument of the wrong type), ``invalid_fault`` (a
    ``RealtimeFault`` with a bad argument, or one that does not fit its step) or
    ``conflicting_outcomes`` (a step with both ``emit`` and ``error``, a step with an
    ``error`` and faults, or a model with both ``connect_events`` and a
    ``connect_error``). ``field`` names the argument that held the bad value and
    ``input_index`` its 0-based position in that argument (0 for a single value such as
    ``expect`` or ``error``); ``event_field`` names the offending field of an event,
    when it was one.
    """

    reason: str = "invalid_input"
    input_index: int = 0
    field: str = "steps"
    event_field: str | None = None


@error_fields
class UnexpectedRealtimeSend(RealtimeScriptError, UnexpectedCallError):
    """A strict send did not match the next step, or no step was left.

    ``actual`` is a copy of the sent event, ``expected`` the pending step's ``expect``
    (a copy of an exact event; ``None`` when the script was used up). The message names
    event classes only, never their contents: compare ``actual`` with ``expected``.
    ``send_index`` is the 0-based position the send would have had in ``sent_events``
    (a rejected send is not recorded) and ``step_index`` the 0-based position of the
    pending step (``None`` when none was left). When the pending position is an
    ``any_order()`` group, ``group_expects`` holds the ``expect`` of each pending member
    (``expected`` is the first of them); otherwise it is empty.
    """

    actual: Any
    expected: Any
    send_index: int | None = None
    step_index: int | None = None
    group_expects: tuple[Any, ...] = ()


@error_fields
class UnconsumedRealtimeSteps(RealtimeScriptError, UnconsumedStepsError):
    """``assert_complete()`` found steps whose sends never arrived.

    ``remaining_steps`` is how many are left and ``pending_steps`` holds the pending
    :class:`RealtimeStep` objects in script order.
    """

    remaining_steps: int
    # RealtimeStep objects: typed loosely so that errors need not import the steps, whose
    # construction raises these errors.
    pending_steps: tuple[Any, ...] = ()


# -- messages ------------------------------------------------------------------------


def _name(value: object) -> str:
    """The qualified name of a function or class, else of the value's class; never a repr."""
    try:
        name = getattr(value, "__qualname__", None)
    except Exception:  # a hostile __getattr__ must not break the message
        name = None
    return name if isinstance(name, str) else type(value).__qualname__


def describe_expectation(expect: object) -> str:
    """What an expectation asks for, by class and function names only (no field value)."""
    if isinstance(expect, type):
        return f"a {expect.__name__}"
    origin = get_origin(expect)
    if origin is Union or origin is types.UnionType:
        return " or ".join(describe_expectation(arm) for arm in get_args(expect))
    if dataclasses.is_dataclass(expect):
        return f"a {type(expect).__name__} equal to the scripted one"
    if callable(expect):
        return f"a send that the predicate {_name(expect)}() accepts"
    return f"a send equal to the scripted {type(expect).__name__}"


def invalid_step(
    reason: str,
    input_index: int,
    field: str,
    detail: str,
    *,
    event_field: str | None = None,
    lead: str | None = None,
) -> InvalidRealtimeStep:
    """The :class:`InvalidRealtimeStep` for ``detail`` about ``field``.

    ``lead`` is the sentence the SDK's own double says for the same problem; it starts
    the message, and ``detail`` follows it.
    """
    return InvalidRealtimeStep(
        f"Invalid realtime script ({reason}) in {field!r}: {detail}"
        if lead is None
        else f"{lead} {as_sentence(detail)}",
        reason=reason,
        input_index=input_index,
        field=field,
        event_field=event_field,
    )


# Outcomes that exclude each other, by the argument that brings the second: what was
# given both, the two outcomes, and the advice.
_CONFLICTS = {
    "emit": (
        "RealtimeStep",
        "emit events and an error",
        "split it into two steps or drop one outcome",
    ),
    "connect_events": (
        "ScriptedRealtimeModel",
        "connect events and a connect error",
        "a failed connect emits nothing, so drop one of them",
    ),
}


def conflicting_outcomes(field: str) -> InvalidRealtimeStep:
    """The refusal of a step (``"emit"``) or a model (``"connect_events"``) given two
    outcomes that exclude each other."""
    owner, outcomes, advice = _CONFLICTS[field]
    lead = f"A {owner} cannot define both {outcomes}."
    return invalid_step("conflicting_outcomes", 0, field, advice, lead=lead)


def unexpected_send(
    actual: Any,
    expected: Any,
    *,
    send_index: int,
    step_index: int | None,
    group_expects: tuple[Any, ...] = (),
) -> UnexpectedRealtimeSend:
    """The :class:`UnexpectedRealtimeSend` for a strict send that no pending step expects."""
    # The SDK double's sentence first; which send it was (by class, never by value) after.
    sent = f"Send #{ordinal(send_index)} was a {type(actual).__name__}"
    if step_index is None:
        message = (
            f"Unexpected Realtime send: no scripted steps remain. {sent}; add a RealtimeStep "
            "that expects it, or pass strict=False to record unrelated sends without "
            "failing. The sent event is on this error as .actual."
        )
    else:
        if group_expects:
            wanted = "; ".join(describe_expectation(expect) for expect in group_expects)
            where = (
                f"no pending member of the any_order() group at step {ordinal(step_index)} "
                f"expects it (they expect: {wanted})"
            )
        else:
            where = f"step {ordinal(step_index)} expects {describe_expectation(expected)}"
        message = (
            f"Unexpected Realtime send: event did not match the next scripted expectation. "
            f"{sent}; {where}. Nothing was recorded and the step is still pending. Fix the "
            "order of the steps or the expectation, or pass strict=False to let unrelated "
            "sends through; compare .actual with .expected on this error."
        )
    return UnexpectedRealtimeSend(
        message,
        actual=actual,
        expected=expected,
        send_index=send_index,
        step_index=step_index,
        group_expects=group_expects,
    )


def unconsumed_steps(pending_steps: tuple[Any, ...]) -> UnconsumedRealtimeSteps:
    """The :class:`UnconsumedRealtimeSteps` for the steps still pending."""
    wanted = "; ".join(describe_expectation(step.expect) for step in pending_steps[:5])
    if len(pending_steps) > 5:
        wanted += f"; and {len(pending_steps) - 5} more"
    return UnconsumedRealtimeSteps(
        f"{len(pending_steps)} scripted Realtime step(s) were not consumed. Still expected: "
        f"{wanted}. The session ended before sending them; check what the code under test "
        "sent (model.sent_events) or remove the steps.",
        remaining_steps=len(pending_steps),
        pending_steps=pending_steps,
    )


def disconnected(
    action: str, event: object, *, closed: bool, dropped: bool = False
) -> RealtimeScriptError:
    """The error of a send (``action="send"``) or ``emit()`` made while disconnected."""
    if dropped:
        state = "after the connection dropped (a scripted fault)"
    else:
        state = "after close()" if closed else "before connect()"
    if action == "send":
        return RealtimeScriptError(
            f"Cannot send an event while the scripted model is disconnected. A "
            f"{type(event).__name__} was sent {state}; nothing was recorded. Send inside the "
            "RealtimeSession context (async with await runner.run() as session)."
        )
    return RealtimeScriptError(
        f"Cannot emit events while the scripted model is disconnected. emit() was called "
        f"{state}; nothing was delivered. Emit inside the RealtimeSession context, or "
        "script connect_events for what the model says while connecting."
    )


def closed_before_delivery(what: str) -> RealtimeScriptError:
    """The error of a delivery whose turn came after ``close()`` disconnected the model.

    ``what`` names the call whose events were queued: ``"a RealtimeModelSendAudio send"``,
    ``"emit()"``.
    """
    return RealtimeScriptError(
        f"Cannot emit events while the scripted model is disconnected. close() disconnected "
        f"it before the events queued by {what} could be delivered; none of them reached a "
        "listener (a send stays recorded). Close the session only after the calls whose "
        "replies it needs have returned."
    )


def already_connected(*, delivering: bool, dropped: bool = False) -> RealtimeAlreadyConnected:
    """The refusal of a ``connect()`` made while connected or while events are delivered."""
    if dropped:
        return RealtimeAlreadyConnected(
            "Already connected: connect() was called after the connection dropped but "
            "before close(), which the SDK's own model refuses too; nothing was recorded. "
            "Close the model (the RealtimeSession does when it sees the drop) before "
            "connecting again."
        )
    if delivering:
        return RealtimeAlreadyConnected(
            "Already connected: connect() was refused because events of the previous "
            "connection are still being delivered to a listener; nothing was recorded. Let "
            "that listener finish (the call that queued the events returns then) before "
            "connecting again."
        )
    return RealtimeAlreadyConnected(
        "Already connected: connect() was called while the scripted model is connected; "
        "nothing was recorded. Close it first, or use a new ScriptedRealtimeModel for "
        "another session."
    )


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
