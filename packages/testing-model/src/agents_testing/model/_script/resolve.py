"""Turning a queued step into its outcome at call time: responders and strict streams.

Responders may answer with another responder step (or an awaitable of one); they are
followed to a bounded depth. Strict stream factories run with the generation span
current only while they are advanced, and the stream they return is closed with ours.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncGenerator, Sequence
from typing import TYPE_CHECKING, Any

from agents.items import TResponseStreamEvent

from agents_testing.core import raised_by_the_call

from .._errors import InvalidModelStepReason, invalid_step
from .._step import ModelStep, QueuedStep
from .._tracing.generation import GenerationTrace, error_message
from .normalize import check_stream_event, normalize_step
from .validation import describe

if TYPE_CHECKING:
    from .._call import ModelCall

__all__ = ["MAX_RESPONDER_DEPTH", "resolve_step", "strict_events"]

MAX_RESPONDER_DEPTH = 32
"""How many responder steps (and awaitables) one call may follow before giving up."""


async def resolve_step(call: ModelCall, queued: QueuedStep, *, extra_checks: bool) -> QueuedStep:
    """The step that answers ``call``: ``queued`` itself, or what its responder returned."""
    index = queued.input_index
    depth = 0
    while queued.step.responder is not None:
        depth += 1
        if depth > MAX_RESPONDER_DEPTH:
            raise invalid_step(
                "invalid_responder",
                index,
                f"the responder kept returning responder steps ({MAX_RESPONDER_DEPTH} "
                f"levels); return a response form (output items, a step dict, a ModelStep, "
                f"a ModelResponse or an exception).",
            )
        result = await _call_responder(queued.step.responder, call, index)
        queued = normalize_step(result, index, extra_checks=extra_checks)
    return queued


async def _call_responder(responder: Any, call: ModelCall, index: int) -> Any:
    result = _called(
        responder,
        call,
        index,
        "invalid_responder",
        "calling the responder with the ModelCall failed ({}); a responder takes the "
        "ModelCall as its only argument.",
    )
    for _ in range(MAX_RESPONDER_DEPTH):
        if not inspect.isawaitable(result):
            return result
        result = await result
    raise invalid_step(
        "invalid_responder",
        index,
        "the responder returned awaitables nested too deeply; await them in the responder.",
    )


def _not_events(produced: object, index: int) -> Exception:
    return invalid_step(
        "invalid_stream_events",
        index,
        f"the stream_events factory returned {describe(produced)}; it must be an async "
        f"generator of events or an async function returning a sequence of them.",
    )


async def strict_events(
    step: ModelStep, call: ModelCall, index: int, trace: GenerationTrace
) -> AsyncGenerator[TResponseStreamEvent, None]:
    """The exact events of a ``ModelStep.stream`` step, checked as they come."""
    events: Any = step.stream_events
    if not callable(events):
        for event in events:
            yield event
        return
    with trace.current():
        produced = _called(
            events,
            call,
            index,
            "invalid_stream_events",
            "calling the stream_events factory with the ModelCall failed ({}).",
        )
    if inspect.isawaitable(produced):
        with trace.current():
            produced = await produced
        if not isinstance(produced, Sequence) or isinstance(produced, (str, bytes)):
            raise _not_events(produced, index)
        for position, event in enumerate(produced):
            check_stream_event(event, position, index)
            yield event
        return
    if not hasattr(produced, "__aiter__"):
        raise _not_events(produced, index)
    with trace.current():
        iterator = produced.__aiter__()
    try:
        position = 0
        while True:
            with trace.current():
                try:
                    event = await iterator.__anext__()
                except StopAsyncIteration:
                    break
            check_stream_event(event, position, index)
            position += 1
            yield event
    except BaseException as error:
        # Ours is closing early (the consumer closed it, the task was cancelled, the
        # factory failed): close theirs too, but what ended ours is what propagates.
        await _close(iterator, trace, keep=error)
        raise
    await _close(iterator, trace, keep=None)


def _called(
    function: Any, call: ModelCall, index: int, reason: InvalidModelStepReason, failed: str
) -> Any:
    """``function(call)``; a call it cannot take is step ``index``'s ``reason`` (``failed``
    is the detail, the call's error in its ``{}``)."""
    try:
        return function(call)
    except TypeError as error:
        if not raised_by_the_call(error):
            raise  # the function's own error, from inside it
        raise invalid_step(reason, index, failed.format(error_message(error))) from error


async def _close(iterator: Any, trace: GenerationTrace, *, keep: BaseException | None) -> None:
    close = getattr(iterator, "aclose", None)
    if close is None:
        return
    try:
        with trace.current():
            await close()
    except BaseException as failure:
        if keep is None or isinstance(failure, (KeyboardInterrupt, SystemExit)):
            raise  # after exhaustion a failing close is the stream's own error
        # Cancellation, an early close or the factory's own error stays what propagates;
        # the failed close is still visible on the generation span.
        trace.record_error(failure)
