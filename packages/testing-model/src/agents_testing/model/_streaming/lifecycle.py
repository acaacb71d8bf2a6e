"""The automatic streaming lifecycle of a scripted response.

An ordinary step serves ``Runner.run_streamed`` by replaying its output as the
normalized Responses events a provider adapter would yield: response created and in
progress, then per item "added", its deltas and "done" events, and finally
``response.completed`` carrying the whole output and usage. Sequence numbers run from 0
without a gap, and no two events share a mutable object.

The events are the installed openai's own models, made without validating them again:
every value put into them is already a validated model or a plain value of the right
type, and streaming builds many of them per call.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

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
    ResponseInProgressEvent,
    ResponseOutputItemAddedEvent,
    ResponseOutputItemDoneEvent,
    ResponseOutputMessage,
    ResponseOutputRefusal,
    ResponseOutputText,
    ResponseOutputTextAnnotationAddedEvent,
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
from openai.types.responses.response_text_delta_event import Logprob as DeltaLogprob
from openai.types.responses.response_text_done_event import Logprob as DoneLogprob
from pydantic import BaseModel

from agents_testing.core import compat, detach

from .._script.validation import OUTPUT_ITEM_CLASSES
from .tools import TOOL_LIFECYCLE_TYPES, started_tool_item, tool_events

__all__ = [
    "SCRIPTED_MODEL_NAME",
    "STREAMABLE_TYPES",
    "copy_usage",
    "lifecycle_events",
    "response_usage",
    "unstreamable_item",
]

SCRIPTED_MODEL_NAME = "scripted-model"

STREAMABLE_TYPES = frozenset({"message", "reasoning", "function_call", "apply_patch_call"})
"""Output item types that have an automatic streaming lifecycle."""

_NORMALIZED_USAGE_ATTR, _RAW_USAGE_ATTR = compat.streamed_usage_attributes()
# The SDK runtime's own channels for the request count of a streamed response's usage
# and its per-request usages (read by agents.usage on the releases that have them).
_REQUEST_COUNT_ATTR = "_agents_sdk_request_count"
_REQUEST_USAGES_ATTR = "_agents_sdk_request_usages"

_STREAMABLE_CLASSES: dict[str, type[Any]] = {
    "message": ResponseOutputMessage,
    "reasoning": ResponseReasoningItem,
    "function_call": ResponseFunctionToolCall,
    "apply_patch_call": ResponseApplyPatchToolCall,
}

# Values a copy may share: immutable and holding nothing.
_ATOMIC = frozenset({str, int, float, bool, type(None)})


def unstreamable_item(
    items: Sequence[Any], *, all_items: bool = False
) -> tuple[int, str, str | None] | None:
    """The position, class name and type of the first item without a lifecycle, or None.

    ``all_items`` adds the tool-call items of :data:`TOOL_LIFECYCLE_TYPES`. A plain dict
    has none (its type is None here).
    """
    for position, item in enumerate(items):
        if isinstance(item, dict):
            return position, "dict", None
        kind = getattr(item, "type", None)
        if kind in STREAMABLE_TYPES and isinstance(item, _STREAMABLE_CLASSES[kind]):
            continue
        tool_class = OUTPUT_ITEM_CLASSES.get(kind) if all_items and isinstance(kind, str) else None
        if kind in TOOL_LIFECYCLE_TYPES and tool_class and isinstance(item, tool_class):
            continue
        return position, type(item).__name__, kind if isinstance(kind, str) else None
    return None


# -- making models without validating them again ----------------------------------------

_DEFAULTS: dict[type[BaseModel], dict[str, Any]] = {}

# Bound once: streaming makes a dozen models per call, each set up with these.
_object_new = object.__new__
_set = object.__setattr__


def _new(cls: type[Any], fields: dict[str, Any], extra: dict[str, Any] | None = None) -> Any:
    """An instance of event model ``cls`` holding ``fields`` (already valid values).

    Unlisted optional fields get their default (None for every event model); ``extra``
    holds values the installed openai has no field for.
    """
    defaults = _DEFAULTS.get(cls)
    if defaults is None:
        defaults = _DEFAULTS[cls] = {
            name: field.get_default(call_default_factory=True)
            for name, field in cls.model_fields.items()
            if not field.is_required()
        }
    event = _object_new(cls)
    _set(event, "__dict__", {**defaults, **fields} if defaults else fields)
    _set(event, "__pydantic_fields_set__", set(fields))
    _set(event, "__pydantic_extra__", {} if extra is None else extra)
    _set(event, "__pydantic_private__", None)
    return event


def _copy(model: Any, changes: dict[str, Any] | None = None) -> Any:
    """A deep copy of ``model`` sharing nothing with it, with ``changes`` set on it."""
    source = model.__dict__
    data = source.copy()
    if changes:
        data.update(changes)
    if not _ATOMIC.issuperset(map(type, source.values())):
        for name, value in source.items():
            if type(value) not in _ATOMIC and (changes is None or name not in changes):
                data[name] = detach(value)
    copied = _object_new(type(model))
    _set(copied, "__dict__", data)
    extra = model.__pydantic_extra__
    _set(copied, "__pydantic_extra__", None if extra is None else detach(extra) if extra else {})
    fields_set = model.__pydantic_fields_set__
    _set(
        copied,
        "__pydantic_fields_set__",
        fields_set | changes.keys() if changes else fields_set.copy(),
    )
    private = getattr(model, "__pydantic_private__", None)
    _set(copied, "__pydantic_private__", None if private is None else detach(private))
    return copied


class _Template:
    """A model's plain field values, to make equal models that differ in a few fields."""

    __slots__ = ("_cls", "_data", "_fields_set")

    def __init__(self, model: BaseModel) -> None:
        self._cls = type(model)
        # Only plain values: the fields a copy changes are the mutable ones.
        self._data = dict(model.__dict__)
        self._fields_set = frozenset(model.__pydantic_fields_set__)

    def make(self, changes: dict[str, Any]) -> Any:
        made = _object_new(self._cls)
        _set(made, "__dict__", {**self._data, **changes})
        _set(made, "__pydantic_extra__", {})
        _set(made, "__pydantic_fields_set__", self._fields_set | changes.keys())
        _set(made, "__pydantic_private__", None)
        return made


@functools.cache
def _response_template() -> _Template:
    # Made on the first streamed call, not at import: making a Response has pydantic
    # build the schema of every openai response type.
    return _Template(
        Response(
            id="",
            object="response",
            created_at=0.0,
            model=SCRIPTED_MODEL_NAME,
            output=[],
            parallel_tool_calls=False,
            tool_choice="auto",
            tools=[],
            status="in_progress",
            usage=None,
        )
    )


def _response(
    response_id: str | None,
    output: list[Any],
    status: str,
    usage: ResponseUsage | None,
    request_id: str | None,
    raw_usage: dict[str, Any] | None = None,
) -> Response:
    response: Response = _response_template().make(
        {"id": response_id, "output": output, "status": status, "usage": usage, "tools": []}
    )
    if request_id is not None:
        # The runner reads the transport request id from this attribute.
        _set(response, "_request_id", request_id)
    if raw_usage is not None and _RAW_USAGE_ATTR is not None:
        _set(response, _RAW_USAGE_ATTR, detach(raw_usage))
    return response


# -- usage ----------------------------------------------------------------------------------


def copy_usage(usage: Usage) -> Usage:
    """An independent copy of ``usage`` (no validation: it was validated when scripted)."""
    data = usage.__dict__.copy()
    for name, value in data.items():
        kind = type(value)
        if kind in _ATOMIC:
            continue
        if kind is list and not value:
            data[name] = []
        elif issubclass(kind, BaseModel):
            data[name] = _copy_flat(value)
        else:
            data[name] = detach(value)
    copied = _object_new(Usage)
    _set(copied, "__dict__", data)
    return copied


def _copy_flat(model: Any) -> Any:
    """A copy of a model whose fields are plain values (token details); else a deep copy."""
    data = model.__dict__.copy()
    if not _ATOMIC.issuperset(map(type, data.values())):
        return detach(model)
    copied = _object_new(type(model))
    _set(copied, "__dict__", data)
    extra = model.__pydantic_extra__
    _set(copied, "__pydantic_extra__", None if extra is None else detach(extra) if extra else {})
    _set(copied, "__pydantic_fields_set__", model.__pydantic_fields_set__.copy())
    private = model.__pydantic_private__
    _set(copied, "__pydantic_private__", detach(private) if private else None)
    return copied


def _details(value: Any) -> Any:
    return None if value is None else _copy_flat(value)


def response_usage(usage: Usage, *, owned: bool = False) -> ResponseUsage:
    """The Responses-API usage object that carries ``usage`` in ``response.completed``.

    Besides the token counts it carries, as the SDK's own adapters do, the request count
    and one usage per request entry; where the runner reads it, the exact ``Usage``
    rides along too, so explicit zeros survive the trip through the stream.
    """
    # The details are the SDK's own openai models already; their required fields vary
    # between openai releases, so they are copied rather than rebuilt.
    carried: ResponseUsage = _new(
        ResponseUsage,
        {
            "input_tokens": usage.input_tokens,
            "input_tokens_details": _details(usage.input_tokens_details),
            "output_tokens": usage.output_tokens,
            "output_tokens_details": _details(usage.output_tokens_details),
            "total_tokens": usage.total_tokens,
        },
    )
    if _NORMALIZED_USAGE_ATTR is not None:
        _set(carried, _NORMALIZED_USAGE_ATTR, usage if owned else copy_usage(usage))
    _set(carried, _REQUEST_COUNT_ATTR, usage.requests)
    entries = getattr(usage, "request_usage_entries", None)
    if entries:
        _set(
            carried,
            _REQUEST_USAGES_ATTR,
            [
                _new(
                    ResponseUsage,
                    {
                        "input_tokens": entry.input_tokens,
                        "input_tokens_details": _details(entry.input_tokens_details),
                        "output_tokens": entry.output_tokens,
                        "output_tokens_details": _details(entry.output_tokens_details),
                        "total_tokens": entry.total_tokens,
                    },
                )
                for entry in entries
            ],
        )
    return carried


# -- the events -----------------------------------------------------------------------------


def lifecycle_events(
    response_id: str | None,
    output: Sequence[TResponseOutputItem],
    usage: Usage,
    request_id: str | None = None,
    raw_usage: dict[str, Any] | None = None,
    *,
    all_items: bool = False,
    owned: bool = False,
) -> list[TResponseStreamEvent]:
    """The normalized event sequence of a response made of ``output``.

    The caller checks :func:`unstreamable_item` first; every item here has a lifecycle.
    ``raw_usage`` rides only on the completed response, as a provider reports it.
    ``owned`` says the items and the usage are the caller's private copies, which the
    completed response may then hold itself (every other event gets a copy).
    """
    events: list[Any] = []
    append = events.append

    def number() -> int:
        return len(events)

    append(
        _new(
            ResponseCreatedEvent,
            {
                "response": _response(response_id, [], "in_progress", None, request_id),
                "sequence_number": 0,
                "type": "response.created",
            },
        )
    )
    append(
        _new(
            ResponseInProgressEvent,
            {
                "response": _response(response_id, [], "in_progress", None, request_id),
                "sequence_number": 1,
                "type": "response.in_progress",
            },
        )
    )
    for index, item in enumerate(output):
        kind = item.type
        append(
            _new(
                ResponseOutputItemAddedEvent,
                {
                    "item": _started(item, kind, all_items),
                    "output_index": index,
                    "sequence_number": number(),
                    "type": "response.output_item.added",
                },
            )
        )
        if kind == "message":
            _message_events(item, index, append, number)  # type: ignore[arg-type]
        elif kind == "function_call":
            _function_call_events(item, index, append, number)  # type: ignore[arg-type]
        elif kind == "reasoning":
            _reasoning_events(item, index, append, number)  # type: ignore[arg-type]
        elif all_items and kind in TOOL_LIFECYCLE_TYPES:
            # Tool items without an id of their own (stream_all_items only) keep the
            # made-up id their events always had.
            tool_id = getattr(item, "id", None) or f"{response_id or 'resp_scripted'}_item_{index}"
            events.extend(tool_events(item, tool_id, index, number_from(events)))
        append(
            _new(
                ResponseOutputItemDoneEvent,
                {
                    "item": _copy(item),
                    "output_index": index,
                    "sequence_number": number(),
                    "type": "response.output_item.done",
                },
            )
        )
    final = list(output) if owned else [_copy(item) for item in output]
    append(
        _new(
            ResponseCompletedEvent,
            {
                "response": _response(
                    response_id,
                    final,
                    "completed",
                    response_usage(usage, owned=owned),
                    request_id,
                    raw_usage,
                ),
                "sequence_number": number(),
                "type": "response.completed",
            },
        )
    )
    return events


def number_from(events: list[Any]) -> Callable[[], int]:
    """A counter continuing the sequence numbers of ``events`` as more are appended."""
    start = len(events)
    produced = 0

    def number() -> int:
        nonlocal produced
        produced += 1
        return start + produced - 1

    return number


def _started(item: Any, kind: str, all_items: bool) -> Any:
    """The item as its "added" event announces it: in progress, nothing streamed yet."""
    if kind == "message":
        return _copy(item, {"content": [], "status": "in_progress"})
    if kind == "function_call":
        return _copy(item, {"arguments": "", "status": "in_progress"})
    if kind == "reasoning":
        return _copy(
            item,
            {
                "status": "in_progress",
                "encrypted_content": None,
                "summary": [],
                "content": None if item.content is None else [],
            },
        )
    if kind == "apply_patch_call":
        return _copy(item, {"status": "in_progress"})
    if all_items and kind in TOOL_LIFECYCLE_TYPES:
        return detach(started_tool_item(item))
    return _copy(item, {"status": "in_progress"})


def _logprobs(part: ResponseOutputText, cls: type[BaseModel]) -> list[Any]:
    """The part's logprobs as the delta or done event's own logprob model."""
    found = part.logprobs
    if not found:
        return []
    return [
        cls.model_validate(
            {
                "token": logprob.token,
                "logprob": logprob.logprob,
                "top_logprobs": [
                    {"token": top.token, "logprob": top.logprob}
                    for top in (logprob.top_logprobs or ())
                ],
            }
        )
        for logprob in found
    ]


def _message_events(
    item: ResponseOutputMessage, index: int, append: Any, number: Callable[[], int]
) -> None:
    item_id = item.id
    for content_index, part in enumerate(item.content):
        if not isinstance(part, (ResponseOutputText, ResponseOutputRefusal)):
            # Only text and refusal parts have a streaming lifecycle; the SDK's double
            # streams nothing for any other part (the completed item still holds it).
            continue
        common = {"item_id": item_id, "output_index": index, "content_index": content_index}
        if isinstance(part, ResponseOutputText):
            empty = _copy(part, {"text": "", "annotations": [], "logprobs": []})
        else:
            empty = _copy(part, {"refusal": ""})
        append(
            _new(
                ResponseContentPartAddedEvent,
                {
                    **common,
                    "part": empty,
                    "sequence_number": number(),
                    "type": "response.content_part.added",
                },
            )
        )
        if isinstance(part, ResponseOutputText):
            append(
                _new(
                    ResponseTextDeltaEvent,
                    {
                        **common,
                        "delta": part.text,
                        "logprobs": _logprobs(part, DeltaLogprob),
                        "sequence_number": number(),
                        "type": "response.output_text.delta",
                    },
                )
            )
            for annotation_index, annotation in enumerate(part.annotations):
                append(
                    _new(
                        ResponseOutputTextAnnotationAddedEvent,
                        {
                            **common,
                            "annotation": annotation.model_dump(),
                            "annotation_index": annotation_index,
                            "sequence_number": number(),
                            "type": "response.output_text.annotation.added",
                        },
                    )
                )
            append(
                _new(
                    ResponseTextDoneEvent,
                    {
                        **common,
                        "logprobs": _logprobs(part, DoneLogprob),
                        "sequence_number": number(),
                        "text": part.text,
                        "type": "response.output_text.done",
                    },
                )
            )
        else:
            append(
                _new(
                    ResponseRefusalDeltaEvent,
                    {
                        **common,
                        "delta": part.refusal,
                        "sequence_number": number(),
                        "type": "response.refusal.delta",
                    },
                )
            )
            append(
                _new(
                    ResponseRefusalDoneEvent,
                    {
                        **common,
                        "refusal": part.refusal,
                        "sequence_number": number(),
                        "type": "response.refusal.done",
                    },
                )
            )
        append(
            _new(
                ResponseContentPartDoneEvent,
                {
                    **common,
                    "part": _copy(part),
                    "sequence_number": number(),
                    "type": "response.content_part.done",
                },
            )
        )


_ARGS_DONE_NAME_IS_FIELD = "name" in ResponseFunctionCallArgumentsDoneEvent.model_fields


def _function_call_events(
    item: ResponseFunctionToolCall, index: int, append: Any, number: Callable[[], int]
) -> None:
    # The item's own id, even "", else its call id: never a made-up one.
    item_id = item.id if item.id is not None else item.call_id
    append(
        _new(
            ResponseFunctionCallArgumentsDeltaEvent,
            {
                "delta": item.arguments,
                "item_id": item_id,
                "output_index": index,
                "sequence_number": number(),
                "type": "response.function_call_arguments.delta",
            },
        )
    )
    done = {
        "arguments": item.arguments,
        "item_id": item_id,
        "output_index": index,
        "sequence_number": number(),
        "type": "response.function_call_arguments.done",
    }
    # The tool name is a field on some openai releases and an extra value on others.
    if _ARGS_DONE_NAME_IS_FIELD:
        append(_new(ResponseFunctionCallArgumentsDoneEvent, {**done, "name": item.name}))
    else:
        append(_new(ResponseFunctionCallArgumentsDoneEvent, done, {"name": item.name}))


def _reasoning_events(
    item: ResponseReasoningItem, index: int, append: Any, number: Callable[[], int]
) -> None:
    item_id = item.id
    for summary_index, summary in enumerate(item.summary):
        common = {"item_id": item_id, "output_index": index, "summary_index": summary_index}
        append(
            _new(
                ResponseReasoningSummaryPartAddedEvent,
                {
                    **common,
                    "part": _new(SummaryPartAdded, {"text": "", "type": "summary_text"}),
                    "sequence_number": number(),
                    "type": "response.reasoning_summary_part.added",
                },
            )
        )
        append(
            _new(
                ResponseReasoningSummaryTextDeltaEvent,
                {
                    **common,
                    "delta": summary.text,
                    "sequence_number": number(),
                    "type": "response.reasoning_summary_text.delta",
                },
            )
        )
        append(
            _new(
                ResponseReasoningSummaryTextDoneEvent,
                {
                    **common,
                    "sequence_number": number(),
                    "text": summary.text,
                    "type": "response.reasoning_summary_text.done",
                },
            )
        )
        append(
            _new(
                ResponseReasoningSummaryPartDoneEvent,
                {
                    **common,
                    "part": _new(SummaryPartDone, {"text": summary.text, "type": "summary_text"}),
                    "sequence_number": number(),
                    "type": "response.reasoning_summary_part.done",
                },
            )
        )
    for content_index, content in enumerate(item.content or ()):
        common = {"item_id": item_id, "output_index": index, "content_index": content_index}
        append(
            _new(
                ResponseReasoningTextDeltaEvent,
                {
                    **common,
                    "delta": content.text,
                    "sequence_number": number(),
                    "type": "response.reasoning_text.delta",
                },
            )
        )
        append(
            _new(
                ResponseReasoningTextDoneEvent,
                {
                    **common,
                    "sequence_number": number(),
                    "text": content.text,
                    "type": "response.reasoning_text.done",
                },
            )
        )
