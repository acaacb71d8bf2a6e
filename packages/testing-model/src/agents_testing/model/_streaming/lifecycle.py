"""The automatic streaming lifecycle of a scripted response.

An ordinary step serves ``Runner.run_streamed`` by replaying its output as the
normalized Responses events a provider adapter would yield: response created, then per
item "added", its deltas and "done" events, and finally
``response.completed`` carrying the whole output and usage. Events are built with the
validating constructors: for these models pydantic-core validation is several times
cheaper than ``openai``'s recursive ``model_construct``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Literal

from agents.items import TResponseOutputItem, TResponseStreamEvent
from agents.usage import Usage
from openai.types.responses import (
    Response,
    ResponseApplyPatchToolCall,
    ResponseCompletedEvent,
    ResponseContentPartAddedEvent,
    ResponseContentPartDoneEvent,
    ResponseCreatedEvent,
    ResponseFunctionCallArgumentsDeltaEvent,
    ResponseFunctionCallArgumentsDoneEvent,
    ResponseFunctionToolCall,
    ResponseOutputItemAddedEvent,
    ResponseOutputItemDoneEvent,
    ResponseOutputMessage,
    ResponseOutputRefusal,
    ResponseOutputText,
    ResponseReasoningItem,
    ResponseReasoningSummaryPartAddedEvent,
    ResponseReasoningSummaryPartDoneEvent,
    ResponseReasoningSummaryTextDeltaEvent,
    ResponseReasoningSummaryTextDoneEvent,
    ResponseReasoningTextDeltaEvent,
    ResponseReasoningTextDoneEvent,
    ResponseRefusalDeltaEvent,
    ResponseRefusalDoneEvent,
    ResponseTextDeltaEvent,
    ResponseTextDoneEvent,
    ResponseUsage,
)
from openai.types.responses.response_reasoning_summary_part_added_event import (
    Part as SummaryPartAdded,
)
from openai.types.responses.response_reasoning_summary_part_done_event import (
    Part as SummaryPartDone,
)

from agents_testing.core import compat, detach

from .._script.validation import OUTPUT_ITEM_CLASSES
from .tools import TOOL_LIFECYCLE_TYPES, started_tool_item, tool_events

__all__ = [
    "SCRIPTED_MODEL_NAME",
    "STREAMABLE_TYPES",
    "lifecycle_events",
    "unstreamable_item",
]

SCRIPTED_MODEL_NAME = "scripted-model"

STREAMABLE_TYPES = frozenset({"message", "reasoning", "function_call", "apply_patch_call"})
"""Output item types that have an automatic streaming lifecycle."""

_ARGS_DONE_HAS_NAME = compat.function_arguments_done_has_name()
_NORMALIZED_USAGE_ATTR, _RAW_USAGE_ATTR = compat.streamed_usage_attributes()


def unstreamable_item(
    items: Sequence[TResponseOutputItem], *, all_items: bool = False
) -> tuple[int, str] | None:
    """The position and type of the first item without a lifecycle, or None.

    ``all_items`` adds the tool-call items of :data:`TOOL_LIFECYCLE_TYPES`.
    """
    for position, item in enumerate(items):
        kind = item.type
        if kind in STREAMABLE_TYPES and isinstance(item, _STREAMABLE_CLASSES[kind]):
            continue
        tool_class = OUTPUT_ITEM_CLASSES.get(kind) if all_items else None
        if kind in TOOL_LIFECYCLE_TYPES and tool_class and isinstance(item, tool_class):
            continue
        return position, kind
    return None


_STREAMABLE_CLASSES: dict[str, type[Any]] = {
    "message": ResponseOutputMessage,
    "reasoning": ResponseReasoningItem,
    "function_call": ResponseFunctionToolCall,
    "apply_patch_call": ResponseApplyPatchToolCall,
}


def response_usage(usage: Usage) -> ResponseUsage:
    """The Responses-API usage object that carries ``usage`` in ``response.completed``."""
    # The details are the SDK's own openai models already; their required fields vary
    # between openai releases, so they are passed through rather than rebuilt.
    carried = ResponseUsage(
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        total_tokens=usage.total_tokens,
        input_tokens_details=usage.input_tokens_details,
        output_tokens_details=usage.output_tokens_details,
    )
    if _NORMALIZED_USAGE_ATTR is not None:
        # Where the runner reads it, the exact Usage rides along: the request count,
        # per-request entries and explicit zeros survive the trip through the stream.
        object.__setattr__(carried, _NORMALIZED_USAGE_ATTR, detach(usage))
    return carried


def _response(
    response_id: str | None,
    output: list[TResponseOutputItem],
    status: Literal["in_progress", "completed"],
    usage: ResponseUsage | None,
    request_id: str | None,
    raw_usage: dict[str, Any] | None = None,
) -> Response:
    response = Response(
        id=response_id or "",
        object="response",
        created_at=0.0,
        model=SCRIPTED_MODEL_NAME,
        output=output,
        parallel_tool_calls=False,
        tool_choice="auto",
        tools=[],
        status=status,
        usage=usage,
    )
    if response_id is None:
        # No id at all, as scripted: the runner then has nothing to chain.
        object.__setattr__(response, "id", None)
    if request_id is not None:
        # The runner reads the transport request id from this private attribute.
        object.__setattr__(response, "_request_id", request_id)
    if raw_usage is not None and _RAW_USAGE_ATTR is not None:
        object.__setattr__(response, _RAW_USAGE_ATTR, detach(raw_usage))
    return response


def lifecycle_events(
    response_id: str | None,
    output: Sequence[TResponseOutputItem],
    usage: Usage,
    request_id: str | None = None,
    raw_usage: dict[str, Any] | None = None,
    *,
    all_items: bool = False,
) -> Iterator[TResponseStreamEvent]:
    """Yield the normalized event sequence of a response made of ``output``.

    The caller checks :func:`unstreamable_item` first; every item here has a lifecycle.
    ``raw_usage`` rides only on the completed response, as a provider reports it.
    """
    sequence = 0

    def number() -> int:
        nonlocal sequence
        sequence += 1
        return sequence - 1

    yield ResponseCreatedEvent(
        type="response.created",
        sequence_number=number(),
        response=_response(response_id, [], "in_progress", None, request_id),
    )
    for index, item in enumerate(output):
        item_id = item.id or f"{response_id or 'resp_scripted'}_item_{index}"
        kind = item.type
        if kind == "message":
            started: Any = item.model_copy(update={"content": [], "status": "in_progress"})
        elif kind == "function_call":
            started = item.model_copy(update={"arguments": "", "status": "in_progress"})
        elif kind == "reasoning":
            started = item.model_copy(update={"summary": [], "content": None})
        elif all_items and kind in TOOL_LIFECYCLE_TYPES:
            started = started_tool_item(item)
        else:
            started = item.model_copy(update={"status": "in_progress"})
        yield ResponseOutputItemAddedEvent(
            type="response.output_item.added",
            sequence_number=number(),
            output_index=index,
            item=started,
        )
        if kind == "message":
            yield from _message_events(item, item_id, index, number)  # type: ignore[arg-type]
        elif kind == "function_call":
            yield from _function_call_events(item, item_id, index, number)  # type: ignore[arg-type]
        elif kind == "reasoning":
            yield from _reasoning_events(item, item_id, index, number)  # type: ignore[arg-type]
        elif all_items and kind in TOOL_LIFECYCLE_TYPES:
            yield from tool_events(item, item_id, index, number)
        yield ResponseOutputItemDoneEvent(
            type="response.output_item.done",
            sequence_number=number(),
            output_index=index,
            item=item,
        )
    yield ResponseCompletedEvent(
        type="response.completed",
        sequence_number=number(),
        response=_response(
            response_id, list(output), "completed", response_usage(usage), request_id, raw_usage
        ),
    )


def _message_events(
    item: ResponseOutputMessage, item_id: str, index: int, number: Any
) -> Iterator[TResponseStreamEvent]:
    for content_index, part in enumerate(item.content):
        if isinstance(part, ResponseOutputText):
            empty: Any = ResponseOutputText(
                type="output_text", text="", annotations=[], logprobs=None
            )
        else:
            empty = ResponseOutputRefusal(type="refusal", refusal="")
        common: dict[str, Any] = {
            "item_id": item_id,
            "output_index": index,
            "content_index": content_index,
        }
        yield ResponseContentPartAddedEvent(
            type="response.content_part.added", sequence_number=number(), part=empty, **common
        )
        if isinstance(part, ResponseOutputText):
            if part.text:
                yield ResponseTextDeltaEvent(
                    type="response.output_text.delta",
                    sequence_number=number(),
                    delta=part.text,
                    logprobs=[],
                    **common,
                )
            yield ResponseTextDoneEvent(
                type="response.output_text.done",
                sequence_number=number(),
                text=part.text,
                logprobs=[],
                **common,
            )
        else:
            if part.refusal:
                yield ResponseRefusalDeltaEvent(
                    type="response.refusal.delta",
                    sequence_number=number(),
                    delta=part.refusal,
                    **common,
                )
            yield ResponseRefusalDoneEvent(
                type="response.refusal.done",
                sequence_number=number(),
                refusal=part.refusal,
                **common,
            )
        yield ResponseContentPartDoneEvent(
            type="response.content_part.done", sequence_number=number(), part=part, **common
        )


def _function_call_events(
    item: ResponseFunctionToolCall, item_id: str, index: int, number: Any
) -> Iterator[TResponseStreamEvent]:
    if item.arguments:
        yield ResponseFunctionCallArgumentsDeltaEvent(
            type="response.function_call_arguments.delta",
            sequence_number=number(),
            item_id=item_id,
            output_index=index,
            delta=item.arguments,
        )
    done: dict[str, Any] = {"name": item.name} if _ARGS_DONE_HAS_NAME else {}
    yield ResponseFunctionCallArgumentsDoneEvent(
        type="response.function_call_arguments.done",
        sequence_number=number(),
        item_id=item_id,
        output_index=index,
        arguments=item.arguments,
        **done,
    )


def _reasoning_events(
    item: ResponseReasoningItem, item_id: str, index: int, number: Any
) -> Iterator[TResponseStreamEvent]:
    for summary_index, summary in enumerate(item.summary):
        common: dict[str, Any] = {
            "item_id": item_id,
            "output_index": index,
            "summary_index": summary_index,
        }
        yield ResponseReasoningSummaryPartAddedEvent(
            type="response.reasoning_summary_part.added",
            sequence_number=number(),
            part=SummaryPartAdded(type="summary_text", text=""),
            **common,
        )
        if summary.text:
            yield ResponseReasoningSummaryTextDeltaEvent(
                type="response.reasoning_summary_text.delta",
                sequence_number=number(),
                delta=summary.text,
                **common,
            )
        yield ResponseReasoningSummaryTextDoneEvent(
            type="response.reasoning_summary_text.done",
            sequence_number=number(),
            text=summary.text,
            **common,
        )
        yield ResponseReasoningSummaryPartDoneEvent(
            type="response.reasoning_summary_part.done",
            sequence_number=number(),
            part=SummaryPartDone(type="summary_text", text=summary.text),
            **common,
        )
    for content_index, content in enumerate(item.content or ()):
        common = {"item_id": item_id, "output_index": index, "content_index": content_index}
        if content.text:
            yield ResponseReasoningTextDeltaEvent(
                type="response.reasoning_text.delta",
                sequence_number=number(),
                delta=content.text,
                **common,
            )
        yield ResponseReasoningTextDoneEvent(
            type="response.reasoning_text.done",
            sequence_number=number(),
            text=content.text,
            **common,
        )
