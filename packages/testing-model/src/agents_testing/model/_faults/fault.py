"""``ModelFault``: one production failure of a model provider, and how a call meets it.

A fault answers a call as a responder does: after its delay (``scripted_wait``, so virtual
under the clock and cancelled by an SDK timeout as a slow provider is), it has the
installed openai client make its error (:mod:`.client`) and answers with
``ModelStep.raise_error``, or, for a streamed call cut short, with a
``ModelStep.stream`` factory that sends the first events and then raises the client's
error. A slow answer (``answer_after``) answers with its step once the wait is over.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, Union

from agents.items import TResponseStreamEvent

from agents_testing.core import detach, scripted_wait

from .._step import ModelStep, copy_step
from .client import Failure, client_error, openai_advice
from .hooks import Advise, mark_fault_error

if TYPE_CHECKING:
    from agents.retry import ModelRetryAdvice, ModelRetryAdviceRequest

    from .._call import ModelCall

__all__ = ["FaultKind", "ModelFault", "RetryAdviceChoice"]

FaultKind = Literal[
    "rate_limit",
    "server_error",
    "request_timeout",
    "connection_reset",
    "stream_cut",
    "answer_after",
]
"""Which failure a :class:`ModelFault` is."""

RetryAdviceChoice = Union["ModelRetryAdvice", None, Literal["openai"]]
"""What the model advises for a fault's error: ``"openai"`` (what the SDK's OpenAI
models advise for it), a fixed ``ModelRetryAdvice``, or ``None`` (no advice)."""

_FAILURES: dict[str, Failure] = {
    "rate_limit": "status",
    "server_error": "status",
    "request_timeout": "timeout",
    "connection_reset": "reset",
    "stream_cut": "cut",
}


class ModelFault:
    """One production failure of a model provider, as a fault builder made it.

    ``kind`` says which (:data:`FaultKind`); ``delay`` is how many seconds the call waits
    before the fault happens (virtual time under the clock); ``status``, ``headers`` and
    ``body`` are the HTTP answer of a rate limit or a server error; ``after`` is how many
    events a cut stream sends before the connection drops; ``step`` is what a cut stream
    streams or a slow answer answers with (``None``: the model's next scripted step, in a
    :class:`FaultSchedule`); ``retry_advice`` is what the model advises for the error
    (:data:`RetryAdviceChoice`). The builders (``rate_limit(...)``, ...) make it, and
    return it inside a ``ModelStep`` where it can be scripted as a step.
    """

    __slots__ = (
        "_after",
        "_body",
        "_delay",
        "_events",
        "_headers",
        "_kind",
        "_retry_advice",
        "_shown",
        "_status",
        "_step",
    )

    def __init__(
        self,
        kind: FaultKind,
        shown: str,
        *,
        delay: float = 0.0,
        status: int | None = None,
        headers: Mapping[str, str] | None = None,
        body: Mapping[str, Any] | None = None,
        after: int | None = None,
        step: ModelStep | None = None,
        events: Sequence[TResponseStreamEvent] | None = None,
        retry_advice: RetryAdviceChoice = "openai",
    ) -> None:
        # Made by the builders, which check every argument first.
        self._kind: FaultKind = kind
        self._shown = shown
        self._delay = float(delay)
        self._status = status
        self._headers = dict(headers or {})
        self._body = detach(dict(body)) if body is not None else None
        self._after = after
        self._step = step
        self._events = None if events is None else tuple(events)
        self._retry_advice: RetryAdviceChoice = (
            retry_advice
            if retry_advice is None or isinstance(retry_advice, str)
            else detach(retry_advice)
        )

    # -- what it is ----------------------------------------------------------------------

    @property
    def kind(self) -> FaultKind:
        """Which failure this is."""
        return self._kind

    @property
    def delay(self) -> float:
        """Seconds the call waits before the fault happens (a slow answer: before it answers)."""
        return self._delay

    @property
    def status(self) -> int | None:
        """The HTTP status of a rate limit or a server error; ``None`` for the others."""
        return self._status

    @property
    def headers(self) -> dict[str, str]:
        """The HTTP headers of a rate limit or a server error (a copy)."""
        return dict(self._headers)

    @property
    def body(self) -> dict[str, Any] | None:
        """The JSON body of a rate limit or a server error (a copy); ``None`` for the others."""
        return None if self._body is None else detach(self._body)

    @property
    def after(self) -> int | None:
        """How many events a cut stream sends before the connection drops."""
        return self._after

    @property
    def step(self) -> ModelStep | None:
        """A copy of what a cut stream streams or a slow answer answers with, if it has one."""
        return None if self._step is None else copy_step(self._step)

    @property
    def retry_advice(self) -> RetryAdviceChoice:
        """What the model advises for the fault's error (a copy of a fixed advice)."""
        advice = self._retry_advice
        return advice if advice is None or isinstance(advice, str) else detach(advice)

    def __repr__(self) -> str:
        return self._shown

    # -- answering a call ------------------------------------------------------------------

    async def __call__(self, call: ModelCall) -> ModelStep:
        """Answer ``call`` as this fault (the responder of the step a builder returns)."""
        return await self._answer(call, self._events)

    async def _answer(
        self, call: ModelCall, events: Sequence[TResponseStreamEvent] | None
    ) -> ModelStep:
        """Answer ``call``; ``events`` are what a cut stream sends before it breaks."""
        if self._delay:
            # Through the module, so that the virtual clock (which replaces it) sees it.
            await scripted_wait(self._delay)
        if self._kind == "answer_after":
            assert self._step is not None
            return copy_step(self._step)
        error = await client_error(
            _FAILURES[self._kind],
            streamed=call.streamed,
            status=self._status or 200,
            headers=self._headers.items(),
            body=self._body,
        )
        mark_fault_error(error, self._advise())
        if self._kind == "stream_cut" and call.streamed:
            return ModelStep.stream(_cut_stream(tuple(events or ()), error))
        return ModelStep.raise_error(error)

    def _advise(self) -> Advise:
        choice = self._retry_advice
        if isinstance(choice, str):
            return openai_advice
        if choice is None:
            return _no_advice

        def fixed(request: ModelRetryAdviceRequest) -> ModelRetryAdvice:
            return detach(choice)

        return fixed


def _no_advice(request: ModelRetryAdviceRequest) -> None:
    return None


def _cut_stream(events: tuple[TResponseStreamEvent, ...], error: Exception) -> Any:
    """A stream factory sending copies of ``events``, then failing with ``error``."""

    async def stream(call: ModelCall) -> AsyncIterator[TResponseStreamEvent]:
        for event in events:
            yield detach(event)
        raise error

    return stream


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
