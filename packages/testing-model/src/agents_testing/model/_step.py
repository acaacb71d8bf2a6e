"""Model steps: the public :class:`ModelStep`, its dict form and their validation.

Every accepted step form is normalized here into one validated :class:`ModelStep`
before it is queued, so a malformed step fails where the test wrote it, not in the
middle of a run.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict, Union

from agents.items import ModelResponse, TResponseOutputItem, TResponseStreamEvent
from agents.retry import ModelRetryAdvice
from agents.usage import Usage
from pydantic import BaseModel

from agents_testing.core import detach

from ._errors import InvalidModelStep

if TYPE_CHECKING:
    from ._call import ModelCall

__all__ = [
    "ModelStep",
    "ModelStepSpec",
    "QueuedStep",
    "Responder",
    "StepInput",
    "StreamEventsFactory",
    "check_stream_event",
    "normalize_step",
]

StreamEventsFactory = Callable[
    ["ModelCall"],
    AsyncIterator[TResponseStreamEvent] | Awaitable[Sequence[TResponseStreamEvent]],
]
"""An async factory of strict stream events: an async generator function taking the
call, or an async function returning the event sequence."""

Responder = Callable[["ModelCall"], Any]
"""A sync or async callable taking the recorded call and returning any step form."""


class ModelStepSpec(TypedDict, total=False):
    """The dict form of a :class:`ModelStep`; every key is optional."""

    output: Sequence[TResponseOutputItem]
    usage: Usage
    response_id: str
    request_id: str
    raw_usage: Mapping[str, Any]
    error: BaseException
    responder: Responder
    stream_events: Sequence[TResponseStreamEvent] | StreamEventsFactory
    retry_advice: ModelRetryAdvice


StepInput = Union[
    "ModelStep",
    ModelStepSpec,
    Mapping[str, Any],
    ModelResponse,
    Sequence[TResponseOutputItem],
    BaseException,
]
"""Anything :class:`ScriptedModel` accepts as one step."""

_SPEC_KEYS = frozenset(ModelStepSpec.__annotations__)


@dataclasses.dataclass(frozen=True)
class ModelStep:
    """What one model call returns, raises or derives from the request.

    Build it with keyword fields (the same names as :class:`ModelStepSpec`) or with
    :meth:`respond`, :meth:`stream` and :meth:`raise_error`. Unset ``usage`` and
    ``response_id`` get deterministic defaults for one request.
    """

    output: Sequence[TResponseOutputItem] = ()
    usage: Usage | None = None
    response_id: str | None = None
    request_id: str | None = None
    raw_usage: Mapping[str, Any] | None = None
    error: BaseException | None = None
    responder: Responder | None = None
    stream_events: Sequence[TResponseStreamEvent] | StreamEventsFactory | None = None
    retry_advice: ModelRetryAdvice | None = None

    @classmethod
    def respond(cls, responder: Responder) -> ModelStep:
        """A step whose outcome ``responder(call)`` (sync or async) returns as any step form."""
        return cls(responder=responder)

    @classmethod
    def stream(
        cls,
        events: Sequence[TResponseStreamEvent] | StreamEventsFactory,
        *,
        output: Sequence[TResponseOutputItem] = (),
        usage: Usage | None = None,
        response_id: str | None = None,
    ) -> ModelStep:
        """A step that streams exactly ``events``; a non-streamed call returns ``output``."""
        return cls(stream_events=events, output=output, usage=usage, response_id=response_id)

    @classmethod
    def raise_error(
        cls, error: BaseException, *, retry_advice: ModelRetryAdvice | None = None
    ) -> ModelStep:
        """A step whose call raises ``error``; ``get_retry_advice`` reports ``retry_advice``."""
        return cls(error=error, retry_advice=retry_advice)


@dataclasses.dataclass(frozen=True)
class QueuedStep:
    """A validated step with its origin; ``exact`` keeps an unset response id unset."""

    step: ModelStep
    input_index: int
    exact: bool = False


def normalize_step(value: object, index: int) -> QueuedStep:
    """Validate one step in any accepted form; raise :class:`InvalidModelStep` if malformed."""
    if isinstance(value, ModelStep):
        return QueuedStep(_validated(value, index), index)
    if isinstance(value, ModelResponse):
        step = ModelStep(
            output=value.output,
            usage=value.usage,
            response_id=value.response_id,
            request_id=getattr(value, "request_id", None),
            raw_usage=getattr(value, "raw_usage", None),
        )
        return QueuedStep(_validated(step, index), index, exact=True)
    if isinstance(value, BaseException):
        return QueuedStep(ModelStep(error=value), index)
    if isinstance(value, Mapping):
        unknown = sorted(str(key) for key in value if key not in _SPEC_KEYS)
        if unknown:
            raise InvalidModelStep(
                "unsupported_field",
                index,
                f"unknown key(s) {', '.join(map(repr, unknown))}; a step dict may only "
                f"use {', '.join(sorted(_SPEC_KEYS))}.",
            )
        return QueuedStep(_validated(ModelStep(**value), index), index)
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray)):
        return QueuedStep(_validated(ModelStep(output=value), index), index)
    if isinstance(value, type) and issubclass(value, BaseException):
        raise InvalidModelStep(
            "invalid_error",
            index,
            f"got the exception class {value.__name__}; pass an instance such as "
            f"{value.__name__}('...').",
        )
    raise InvalidModelStep(
        "invalid_input",
        index,
        f"got {type(value).__name__}; a step is a ModelStep, a step dict, a ModelResponse, "
        f"a sequence of output items (e.g. [assistant_message('...')]) or an exception.",
    )


def _validated(step: ModelStep, index: int) -> ModelStep:
    output = _output_items(step.output, index)
    _check_optional(step.usage, Usage, "usage", index)
    _check_optional(step.response_id, str, "response_id", index)
    _check_optional(step.request_id, str, "request_id", index)
    _check_optional(step.raw_usage, Mapping, "raw_usage", index)
    if step.error is not None and not isinstance(step.error, BaseException):
        raise InvalidModelStep(
            "invalid_error",
            index,
            f"error must be an exception instance, got {_describe(step.error)}.",
        )
    if step.responder is not None and not callable(step.responder):
        raise InvalidModelStep(
            "invalid_responder",
            index,
            f"responder must be a sync or async callable taking the ModelCall, "
            f"got {_describe(step.responder)}.",
        )
    events = _stream_events(step.stream_events, index)
    if step.retry_advice is not None:
        if not isinstance(step.retry_advice, ModelRetryAdvice):
            raise InvalidModelStep(
                "invalid_retry_advice",
                index,
                f"retry_advice must be an agents.ModelRetryAdvice, got "
                f"{_describe(step.retry_advice)}.",
            )
        if step.error is None:
            raise InvalidModelStep(
                "invalid_retry_advice",
                index,
                "retry_advice applies only to a scripted error; use "
                "ModelStep.raise_error(error, retry_advice=...).",
            )
    _check_conflicts(step, index)
    return dataclasses.replace(
        step,
        output=output,
        raw_usage=None
        if step.raw_usage is None
        else detach(dict(step.raw_usage), name="raw_usage"),
        stream_events=events,
        retry_advice=(
            None if step.retry_advice is None else detach(step.retry_advice, name="retry_advice")
        ),
    )


def _output_items(output: object, index: int) -> tuple[TResponseOutputItem, ...]:
    if not isinstance(output, Sequence) or isinstance(output, (str, bytes, bytearray)):
        raise InvalidModelStep(
            "invalid_input",
            index,
            f"output must be a sequence of output items, got {_describe(output)}.",
        )
    for position, item in enumerate(output):
        if not (isinstance(item, BaseModel) and isinstance(getattr(item, "type", None), str)):
            raise InvalidModelStep(
                "invalid_input",
                index,
                f"output item {position + 1} is {_describe(item)}; output items are the "
                f"SDK's normalized models (openai.types.responses), e.g. "
                f"assistant_message('...') or function_call(...).",
            )
    # Snapshot at queue time: later edits of the test's objects do not leak into runs.
    return tuple(item.model_copy(deep=True) for item in output)


def _stream_events(events: object, index: int) -> Any:
    if events is None or callable(events):
        return events
    if not isinstance(events, Sequence) or isinstance(events, (str, bytes, bytearray)):
        raise InvalidModelStep(
            "invalid_stream_events",
            index,
            f"stream_events must be a sequence of normalized stream events or an async "
            f"factory taking the ModelCall, got {_describe(events)}.",
        )
    for position, event in enumerate(events):
        check_stream_event(event, position, index)
    return tuple(events)


def check_stream_event(event: object, position: int, index: int) -> None:
    """Raise ``invalid_stream_events`` unless ``event`` is a normalized stream event."""
    if not (isinstance(event, BaseModel) and isinstance(getattr(event, "type", None), str)):
        raise InvalidModelStep(
            "invalid_stream_events",
            index,
            f"stream event {position + 1} is {_describe(event)}; strict streams hold the "
            f"SDK's normalized TResponseStreamEvent models (openai.types.responses), not "
            f"wire chunks or dicts.",
        )


def _check_optional(value: object, kind: Any, field: str, index: int) -> None:
    if value is not None and not isinstance(value, kind):
        expected = getattr(kind, "__name__", str(kind))
        raise InvalidModelStep(
            "invalid_input", index, f"{field} must be {expected} or None, got {_describe(value)}."
        )


def _check_conflicts(step: ModelStep, index: int) -> None:
    response_fields = [
        name
        for name in ("output", "usage", "response_id", "request_id", "raw_usage")
        if getattr(step, name) not in (None, ())
    ]
    if step.error is not None:
        others = response_fields + [
            name for name in ("responder", "stream_events") if getattr(step, name) is not None
        ]
        if others:
            raise InvalidModelStep(
                "conflicting_outcomes",
                index,
                f"error cannot be combined with {', '.join(others)}: a call either fails "
                f"or responds.",
            )
    if step.responder is not None:
        others = response_fields + (["stream_events"] if step.stream_events is not None else [])
        if others:
            raise InvalidModelStep(
                "conflicting_outcomes",
                index,
                f"responder cannot be combined with {', '.join(others)}: the responder's "
                f"return value is the whole outcome.",
            )


def _describe(value: object) -> str:
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{type(value).__name__} {text}"
