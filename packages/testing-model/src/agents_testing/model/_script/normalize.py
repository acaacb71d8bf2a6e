"""Validating every accepted step form into one queued :class:`ModelStep`.

A malformed step raises :class:`InvalidModelStep` when it is queued, naming the step,
so it fails where the test wrote it rather than in the middle of a run.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Mapping, Sequence
from typing import Any

from agents.items import ModelResponse
from agents.retry import ModelRetryAdvice
from pydantic import BaseModel

from agents_testing.core import (
    AnyOrder,
    GroupEntry,
    build_entry,
    cycle_problem,
    detach,
    exception_problem,
    group_reason,
    safe_repr,
)

from .._call import answer_records
from .._default_usage import zero_usage
from .._errors import invalid_step
from .._items.common import AUTO_CALL_ID
from .._step import DEFAULT_RESPONSE_ID, SPEC_KEYS, ModelStep, QueuedStep
from .validation import (
    STREAM_EVENT_CLASSES,
    ValueProblem,
    checked_json,
    checked_output_item,
    checked_usage,
    describe,
)

__all__ = [
    "check_stream_event",
    "matcher_problem",
    "normalize_entry",
    "normalize_step",
    "responder_problem",
]


def normalize_step(value: object, index: int, *, extra_checks: bool = False) -> QueuedStep:
    """Validate one step in any accepted form; raise :class:`InvalidModelStep` if malformed.

    The result is a snapshot: nothing in it is shared with the objects the test holds,
    apart from callables and the exception to raise. ``extra_checks`` adds the checks
    the SDK's own double leaves out (see :class:`ScriptedModel`).
    """
    if isinstance(value, ModelStep):
        return _queued(value, index, extra_checks)
    if isinstance(value, AnyOrder):
        # Reached from a responder: groups are positions of the script, not answers.
        raise invalid_step(
            "invalid_group",
            index,
            "a responder returned an any_order() group; a responder answers one call, so "
            "return one step form, and put groups in the script itself.",
        )
    if isinstance(value, ModelResponse):
        step = ModelStep(
            output=value.output,
            usage=value.usage,
            response_id=value.response_id,
            request_id=getattr(value, "request_id", None),
            raw_usage=getattr(value, "raw_usage", None),
        )
        return _queued(step, index, extra_checks)
    if isinstance(value, BaseException):
        return _queued(ModelStep(error=value), index, extra_checks)  # type: ignore[arg-type]
    if isinstance(value, Mapping):
        unknown = [key for key in value if key not in SPEC_KEYS]
        if unknown:
            raise invalid_step(
                "unsupported_field",
                index,
                f"unknown key(s) {', '.join(safe_repr(key, 40) for key in unknown)}; a step "
                f"dict may only use {', '.join(sorted(SPEC_KEYS))}.",
                lead="fields",
            )
        return _queued(ModelStep(**value), index, extra_checks)
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray)):
        # The shorthand is exactly a step with that output: the default response id and
        # the model's default usage.
        return _queued(ModelStep(output=value), index, extra_checks)
    if isinstance(value, type) and issubclass(value, BaseException):
        raise invalid_step("invalid_input", index, _class_given("got", value), lead="output")
    raise invalid_step(
        "invalid_input",
        index,
        f"got {describe(value)}; a step is a ModelStep, a step dict, a ModelResponse, "
        f"a sequence of output items (e.g. [assistant_message('...')]) or an exception.",
        lead="output",
    )


def normalize_entry(
    value: object, index: int, *, extra_checks: bool = False
) -> QueuedStep | GroupEntry[QueuedStep]:
    """Validate one script position: a step in any accepted form, or an ``any_order`` group.

    Every member of a group is validated as a step; errors name the group's index and the
    member (counted from 1) in their detail.
    """
    return build_entry(
        value,
        lambda step: normalize_step(step, index, extra_checks=extra_checks),
        lambda error, detail: invalid_step(group_reason(error), index, detail),
    )


def _queued(step: ModelStep, index: int, extra_checks: bool) -> QueuedStep:
    try:
        checked = _checked(step, index, extra_checks)
    except ValueProblem as problem:
        raise invalid_step("invalid_input", index, str(problem), lead=problem.lead) from None
    usage = checked.usage
    output = checked.output
    # Handed out as they are unless a call still has work to do on an item: convert a
    # dict, or give a call its id.
    ready = (
        tuple(output)
        if all(isinstance(item, BaseModel) for item in output)
        and not any(getattr(item, "call_id", None) == AUTO_CALL_ID for item in output)
        else None
    )
    return QueuedStep(
        checked,
        index,
        # An all-zero usage is the step's way of saying "the model's default".
        None if usage is None or usage == zero_usage() else usage,
        ready,
        () if ready is None else answer_records(ready),
    )


def _checked(step: ModelStep, index: int, extra_checks: bool) -> ModelStep:
    output = _output_items(step.output, index, extra_checks)
    usage = None if step.usage is None else checked_usage(step.usage, "usage")
    _check_optional(step.response_id, str, "response_id", index)
    _check_optional(step.request_id, str, "request_id", index)
    raw_usage = None
    if step.raw_usage is not None:
        if not isinstance(step.raw_usage, Mapping):
            raise ValueProblem(
                f"raw_usage must be a mapping or None, got {describe(step.raw_usage)}.",
                lead="raw_usage",
            )
        if extra_checks:
            _check_cycle(step.raw_usage, "raw_usage")
            raw_usage = checked_json(step.raw_usage, "raw_usage")
        else:
            # As the SDK's double: any mapping, copied (a cycle stays a cycle).
            raw_usage = detach(_as_dict(step.raw_usage), name="raw_usage", wrap_errors=False)
    if step.error is not None:
        _check_error(step.error, index)
    if step.responder is not None:
        problem = responder_problem(step.responder)
        if problem is not None:
            lead = None if callable(step.responder) else "responder"
            raise invalid_step("invalid_responder", index, problem, lead=lead)
    if step.match is not None:
        problem = matcher_problem(step.match)
        if problem is not None:
            raise invalid_step("invalid_matcher", index, problem)
    events = _stream_events(step.stream_events, index, extra_checks)
    if step.retry_advice is not None:
        if not isinstance(step.retry_advice, ModelRetryAdvice):
            raise invalid_step(
                "invalid_retry_advice",
                index,
                f"retry_advice must be an agents.ModelRetryAdvice, got "
                f"{describe(step.retry_advice)}.",
                lead="retry_advice",
            )
        if step.error is None:
            raise invalid_step(
                "invalid_retry_advice",
                index,
                "retry_advice applies only to a scripted error; use "
                "ModelStep.raise_error(error, retry_advice=...).",
                lead="retry_advice",
            )
    _check_conflicts(step, index, extra_checks)
    return dataclasses.replace(
        step,
        output=output,
        usage=usage,
        raw_usage=raw_usage,
        stream_events=events,
        retry_advice=None if step.retry_advice is None else detach(step.retry_advice),
    )


def _check_error(error: object, index: int) -> None:
    if isinstance(error, type) and issubclass(error, BaseException):
        raise invalid_step("invalid_error", index, _class_given("error is", error), lead="error")
    # A BaseException that is not an Exception (KeyboardInterrupt, SystemExit,
    # CancelledError, GeneratorExit, ...) would escape the runner's error handling and
    # can leave a streamed run waiting forever, so it cannot be scripted.
    problem = exception_problem(error)
    if problem is not None:
        raise invalid_step("invalid_error", index, f"{problem}.", lead="error")


def _class_given(given: str, kind: type[BaseException]) -> str:
    return (
        f"{given} the exception class {kind.__name__}; pass an instance such as "
        f"{kind.__name__}('...')."
    )


def responder_problem(responder: object, what: str = "responder") -> str | None:
    """Why ``responder`` cannot be called with one ``ModelCall``, when that can be told now."""
    if not callable(responder):
        return (
            f"{what} must be a sync or async callable taking the ModelCall, "
            f"got {describe(responder)}."
        )
    if isinstance(responder, type) and issubclass(responder, BaseException):
        return (
            f"{what} is the exception class {responder.__name__}; to fail the call use "
            f"ModelStep.raise_error({responder.__name__}('...')), or return an exception "
            f"from a responder function."
        )
    return _one_argument_problem(responder, what)


def matcher_problem(match: object) -> str | None:
    """Why ``match`` cannot judge a ``ModelCall`` at once, when that can be told now."""
    if isinstance(match, type):
        return f"match must be a function taking the ModelCall, not the class {match.__name__}."
    if not callable(match):
        return f"match must be a callable taking the ModelCall, got {describe(match)}."
    if (
        inspect.iscoroutinefunction(match)
        or inspect.isgeneratorfunction(match)
        or inspect.isasyncgenfunction(match)
    ):
        return (
            "match must be a plain (not async, not generator) callable taking the ModelCall: "
            "it answers before the call is taken, so that concurrent calls keep their order."
        )
    return _one_argument_problem(match, "match")


def _one_argument_problem(function: object, what: str) -> str | None:
    """Why ``function`` cannot be called with the ``ModelCall`` alone, when its signature
    tells (a builtin without one is found out when called)."""
    signature = _signature(function)
    if signature is None:
        return None
    try:
        signature.bind(None)
    except TypeError:
        name = getattr(function, "__qualname__", None) or type(function).__name__
        return (
            f"{what} {safe_repr(name, 60)}{safe_repr(str(signature), 80)} cannot be "
            f"called with the ModelCall as its only argument."
        )
    return None


def _signature(value: object) -> inspect.Signature | None:
    try:
        return inspect.signature(value)  # type: ignore[arg-type]
    except Exception:
        # Builtins and some C callables have no signature: checked when called instead.
        return None


def _output_items(output: object, index: int, extra_checks: bool) -> tuple[Any, ...]:
    if not isinstance(output, Sequence) or isinstance(output, (str, bytes, bytearray)):
        raise ValueProblem(
            f"output must be a sequence of output items, got {describe(output)}.", lead="output"
        )
    return tuple(
        _output_item(item, f"output item {position + 1}", extra_checks)
        for position, item in enumerate(output)
    )


def _output_item(item: object, where: str, extra_checks: bool) -> Any:
    if extra_checks:
        _check_cycle(item, where)
        return checked_output_item(item, where)
    if isinstance(item, Mapping):
        # The SDK's double takes dict items as they are: an apply-patch call is converted
        # (and checked) when the step is used, any other dict is handed on unchanged.
        return detach(_as_dict(item), name=where, wrap_errors=False)
    try:
        return checked_output_item(item, where)
    except ValueProblem:
        if cycle_problem(item, where) is None:
            raise
    # An item that contains itself cannot be rebuilt; the SDK's double takes a copy of
    # it as it is (the cycle kept), and so does a bare model.
    return detach(item, name=where, wrap_errors=False)


def _as_dict(value: Mapping[Any, Any]) -> dict[Any, Any]:
    # A dict is copied as it is, so that a cycle through it stays a cycle of the copy.
    return value if type(value) is dict else dict(value)


def _check_cycle(value: object, where: str) -> None:
    """Refuse a value that contains itself, naming the cycle (``extra_checks``)."""
    problem = cycle_problem(value, where)
    if problem is not None:
        raise ValueProblem(f"{problem}.")


def _stream_events(events: object, index: int, extra_checks: bool) -> Any:
    if events is None:
        return None
    if callable(events):
        problem = responder_problem(events, "stream_events factory")
        if problem is not None:
            raise invalid_step("invalid_stream_events", index, problem)
        return events
    if not isinstance(events, Sequence) or isinstance(events, (str, bytes, bytearray)):
        raise invalid_step(
            "invalid_stream_events",
            index,
            f"stream_events must be a sequence of normalized stream events or an async "
            f"factory taking the ModelCall, got {describe(events)}.",
        )
    for position, event in enumerate(events):
        check_stream_event(event, position, index)
        if extra_checks:
            problem = cycle_problem(event, f"stream event {position + 1}")
            if problem is not None:
                raise invalid_step("invalid_stream_events", index, f"{problem}.")
    # Frozen: the queued events are private copies, never the test's own objects.
    return tuple(event.model_copy(deep=True) for event in events)


def check_stream_event(event: object, position: int, index: int) -> None:
    """Raise ``invalid_stream_events`` unless ``event`` is a normalized stream event
    (and holds no call whose id is still to be assigned)."""
    if not isinstance(event, STREAM_EVENT_CLASSES):
        raise invalid_step(
            "invalid_stream_events",
            index,
            f"stream event {position + 1} is {describe(event)}; strict streams hold the "
            f"SDK's normalized TResponseStreamEvent models (openai.types.responses), not "
            f"output items, wire chunks or dicts.",
        )
    # Exact events are sent as written, so an id still to be assigned would reach the
    # runner as the placeholder.
    item = getattr(event, "item", None)
    if getattr(item, "call_id", None) == AUTO_CALL_ID:
        raise invalid_step(
            "invalid_stream_events",
            index,
            f"stream event {position + 1} carries a call built without call_id; "
            f"ModelStep.stream sends its events exactly as written, so give the call an "
            f"explicit call_id.",
        )


def _check_optional(value: object, kind: Any, field: str, index: int) -> None:
    if value is not None and not isinstance(value, kind):
        expected = getattr(kind, "__name__", str(kind))
        raise ValueProblem(
            f"{field} must be {expected} or None, got {describe(value)}.", lead=field
        )


def _check_conflicts(step: ModelStep, index: int, extra_checks: bool) -> None:
    outcomes = [
        name for name in ("error", "responder", "stream_events") if getattr(step, name) is not None
    ]
    if len(outcomes) > 1:
        raise invalid_step(
            "conflicting_outcomes",
            index,
            f"{' and '.join(outcomes)} cannot be combined: a call fails, is answered by a "
            f"responder, or streams exact events.",
            lead="outcomes",
        )
    if not extra_checks:
        # As in the SDK's double, response fields next to an error or a responder are
        # accepted and play no part.
        return
    response_fields = [name for name in _RESPONSE_FIELDS if _is_set(step, name)]
    if step.error is not None and response_fields:
        raise invalid_step(
            "conflicting_outcomes",
            index,
            f"error cannot be combined with {', '.join(response_fields)}: a call either "
            f"fails or responds (response fields next to an error are refused because the "
            f"model is made with extra_checks=True).",
        )
    if step.responder is not None and response_fields:
        raise invalid_step(
            "conflicting_outcomes",
            index,
            f"responder cannot be combined with {', '.join(response_fields)}: the "
            f"responder's return value is the whole outcome (response fields next to a "
            f"responder are refused because the model is made with extra_checks=True).",
        )


_RESPONSE_FIELDS = ("output", "usage", "response_id", "request_id", "raw_usage")


def _is_set(step: ModelStep, name: str) -> bool:
    """Whether the step sets response field ``name`` to something other than its default."""
    value = getattr(step, name)
    if name == "output":
        return bool(value)
    if name == "usage":
        return value is not None and value != zero_usage()
    if name == "response_id":
        return value is not None and value != DEFAULT_RESPONSE_ID
    return value is not None
