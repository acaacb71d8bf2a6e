"""Builders for what the model says: messages, refusals, structured output and reasoning."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from openai.types.responses import (
    ResponseOutputMessage,
    ResponseOutputRefusal,
    ResponseOutputText,
    ResponseReasoningItem,
)
from pydantic import BaseModel
from pydantic_core import to_json

from ._errors import InvalidModelArgument
from ._items_common import check_text, optional_text
from ._validation import describe

__all__ = ["assistant_message", "final_output", "reasoning", "refusal"]

DEFAULT_MESSAGE_ID = "msg_scripted"
DEFAULT_REASONING_ID = "rs_scripted"


def _message(content: Any, item_id: str) -> ResponseOutputMessage:
    return ResponseOutputMessage(
        id=item_id, type="message", role="assistant", status="completed", content=[content]
    )


def assistant_message(text: str, *, item_id: str = DEFAULT_MESSAGE_ID) -> ResponseOutputMessage:
    """A completed assistant message whose only content is ``text``."""
    if not isinstance(text, str):
        raise InvalidModelArgument("assistant_message(text)", "a str", describe(text))
    if not isinstance(item_id, str):
        raise InvalidModelArgument("assistant_message(item_id)", "a str", describe(item_id))
    return _message(ResponseOutputText(type="output_text", text=text, annotations=[]), item_id)


def refusal(text: str, *, item_id: str = DEFAULT_MESSAGE_ID) -> ResponseOutputMessage:
    """A completed assistant message whose only content is a refusal saying ``text``."""
    check_text("refusal", "text", text)
    check_text("refusal", "item_id", item_id)
    return _message(ResponseOutputRefusal(type="refusal", refusal=text), item_id)


def final_output(value: object, *, item_id: str = DEFAULT_MESSAGE_ID) -> ResponseOutputMessage:
    """An assistant message holding ``value`` as the JSON text an agent's ``output_type`` reads.

    ``value`` is an instance of the output type: a pydantic model, a dataclass or a
    dict (a ``TypedDict`` value). Other JSON values (a list, number, bool) are
    wrapped as ``{"response": value}``, the form the SDK asks for when the output type
    is not an object (``list[str]``, ``int``, ...). A plain-text agent (no output type)
    takes ``assistant_message(text)`` instead.
    """
    check_text("final_output", "item_id", item_id)
    if isinstance(value, type):
        raise InvalidModelArgument(
            "final_output(value)",
            "an instance of the output type (a pydantic model, dataclass or dict value)",
            f"the class {value.__name__}",
        )
    if isinstance(value, str):
        raise InvalidModelArgument(
            "final_output(value)",
            "a structured value (an agent without an output_type answers in plain text: "
            "use assistant_message(text))",
            describe(value),
        )
    payload: object = value
    if not (
        isinstance(value, (BaseModel, Mapping))
        or (dataclasses.is_dataclass(value) and not isinstance(value, type))
    ):
        if value is None or not isinstance(value, (list, tuple, int, float, bool)):
            raise InvalidModelArgument(
                "final_output(value)",
                "a pydantic model, dataclass or dict value (or a JSON list, number or bool)",
                describe(value),
            )
        payload = {"response": value}
    try:
        text = to_json(payload, by_alias=True).decode()
    except Exception as error:
        raise InvalidModelArgument(
            "final_output(value)",
            "a value that encodes as JSON",
            f"{describe(value)} ({type(error).__name__})",
        ) from None
    return _message(ResponseOutputText(type="output_text", text=text, annotations=[]), item_id)


def reasoning(
    *summary: str, item_id: str = DEFAULT_REASONING_ID, encrypted_content: str | None = None
) -> ResponseReasoningItem:
    """A reasoning item with one summary part per ``summary`` text (none: an empty summary)."""
    for position, text in enumerate(summary):
        if not isinstance(text, str):
            raise InvalidModelArgument(f"reasoning(summary[{position}])", "a str", describe(text))
    check_text("reasoning", "item_id", item_id)
    optional_text("reasoning", "encrypted_content", encrypted_content)
    fields: dict[str, Any] = {}
    if encrypted_content is not None:
        fields["encrypted_content"] = encrypted_content
    return ResponseReasoningItem(
        id=item_id,
        type="reasoning",
        summary=[{"type": "summary_text", "text": text} for text in summary],  # type: ignore[misc]
        **fields,
    )
