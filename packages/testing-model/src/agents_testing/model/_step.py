"""Model steps: the public :class:`ModelStep`, its dict form and the queued form.

Every accepted step form is validated and normalized (see ``_script.normalize``) into
one :class:`ModelStep` before it is queued, so a malformed step fails where the test
wrote it, not in the middle of a run.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypedDict, Union

from agents.items import ModelResponse, TResponseOutputItem, TResponseStreamEvent
from agents.retry import ModelRetryAdvice
from agents.usage import Usage

from agents_testing.core import AnyOrder, detach

from ._default_usage import new_usage

if TYPE_CHECKING:
    from ._call import ModelCall

__all__ = [
    "DEFAULT_RESPONSE_ID",
    "SPEC_KEYS",
    "Matcher",
    "ModelStep",
    "ModelStepSpec",
    "QueuedStep",
    "Responder",
    "StepInput",
    "StreamEventsFactory",
    "copy_step",
]

StreamEventsFactory = Callable[
    ["ModelCall"],
    AsyncIterator[TResponseStreamEvent] | Awaitable[Sequence[TResponseStreamEvent]],
]
"""An async factory of strict stream events: an async generator function taking the
call, or an async function returning the event sequence."""

Responder = Callable[["ModelCall"], Any]
"""A sync or async callable taking the recorded call and returning any step form."""

Matcher = Callable[["ModelCall"], object]
"""A plain callable taking the recorded call; only ``False`` rejects the call."""


class ModelStepSpec(TypedDict, total=False):
    """The dict form of a :class:`ModelStep`; every key is optional."""

    output: Sequence[TResponseOutputItem]
    usage: Usage
    response_id: str
    request_id: str
    raw_usage: Mapping[str, Any]
    error: Exception
    responder: Responder
    stream_events: Sequence[TResponseStreamEvent] | StreamEventsFactory
    retry_advice: ModelRetryAdvice
    match: Matcher


StepInput = Union[
    "ModelStep",
    ModelStepSpec,
    Mapping[str, Any],
    ModelResponse,
    Sequence[TResponseOutputItem],
    Exception,
    "AnyOrder[Any]",
]
"""Anything :class:`ScriptedModel` accepts as one step (or one any-order group of them)."""

SPEC_KEYS = frozenset(ModelStepSpec.__annotations__)


DEFAULT_RESPONSE_ID = "resp-789"
"""The response id of a step that does not set one (``response_id=None`` means no id)."""


@dataclasses.dataclass
class ModelStep:
    """What one model call returns, raises or derives from the request.

    Build it with keyword fields (the same names as :class:`ModelStepSpec`) or with
    :meth:`respond`, :meth:`stream` and :meth:`raise_error`. A step is a plain, mutable
    value: queuing it (constructor, ``enqueue()``, ``extend()``) takes a snapshot, so
    changing the step or its items afterwards changes nothing queued. ``usage`` left
    as the all-zero ``Usage()`` (or None) means the model's default usage (one
    request, unless ``set_default_usage`` says otherwise); ``response_id`` defaults to
    ``"resp-789"``, and ``None`` means no id.
    """

    output: Sequence[TResponseOutputItem] = dataclasses.field(default_factory=list)
    usage: Usage | None = dataclasses.field(default_factory=new_usage)
    response_id: str | None = DEFAULT_RESPONSE_ID
    request_id: str | None = None
    raw_usage: Mapping[str, Any] | None = None
    error: Exception | None = None
    responder: Responder | None = None
    stream_events: Sequence[TResponseStreamEvent] | StreamEventsFactory | None = None
    retry_advice: ModelRetryAdvice | None = None
    #: Checked against the recorded ``ModelCall`` before the step answers: only ``False``
    #: rejects (the step stays pending); an exception propagates and also leaves it pending.
    match: Matcher | None = None

    @classmethod
    def respond(cls, responder: Responder, *, match: Matcher | None = None) -> ModelStep:
        """A step whose outcome ``responder(call)`` (sync or async) returns as any step form."""
        return cls(responder=responder, match=match)

    @classmethod
    def stream(
        cls,
        events: Sequence[TResponseStreamEvent] | StreamEventsFactory,
        *,
        output: Sequence[TResponseOutputItem] = (),
        usage: Usage | None = None,
        response_id: str | None = DEFAULT_RESPONSE_ID,
        match: Matcher | None = None,
    ) -> ModelStep:
        """A step that streams exactly ``events``; a non-streamed call returns ``output``.

        A sequence of events is frozen into a tuple here, as the SDK's own double does:
        changing the caller's list afterwards changes neither the step nor what it streams.
        """
        if not callable(events) and isinstance(events, Iterable):
            events = tuple(events)
        return cls(
            stream_events=events,
            output=output,
            usage=usage,
            response_id=response_id,
            match=match,
        )

    @classmethod
    def raise_error(
        cls,
        error: Exception,
        *,
        retry_advice: ModelRetryAdvice | None = None,
        match: Matcher | None = None,
    ) -> ModelStep:
        """A step whose call raises ``error``; ``get_retry_advice`` reports ``retry_advice``."""
        return cls(error=error, retry_advice=retry_advice, match=match)


@dataclasses.dataclass(frozen=True)
class QueuedStep:
    """A validated step with its origin, ready to answer a call.

    ``step`` is the snapshot taken when it was queued; ``usage`` is its usage, or None
    when the step leaves it to the model's default. What can be worked out once is
    worked out when the step is queued: ``ready`` is the output as a call hands it out
    (None when the call must still convert a dict item or assign a call id), and
    ``answer`` the records of its tool calls that the call keeps.
    """

    step: ModelStep
    input_index: int
    usage: Usage | None = None
    ready: tuple[Any, ...] | None = None
    answer: tuple[Any, ...] = ()

    #: A model step answers any call: calls name no method of the model.
    target: ClassVar[None] = None

    @property
    def match(self) -> Matcher | None:
        """The step's matcher of the call, if it has one."""
        return self.step.match


def copy_step(step: ModelStep) -> ModelStep:
    """A copy of a queued step to hand out: changing it changes nothing queued."""
    events = step.stream_events
    return dataclasses.replace(
        step,
        output=[detach(item) for item in step.output],
        usage=None if step.usage is None else detach(step.usage),
        raw_usage=None if step.raw_usage is None else detach(step.raw_usage),
        stream_events=(
            events if events is None or callable(events) else [detach(e) for e in events]
        ),
        retry_advice=None if step.retry_advice is None else detach(step.retry_advice),
    )


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
