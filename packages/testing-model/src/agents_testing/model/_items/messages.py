"""Builders for what the model says: messages, refusals, structured output and reasoning."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, cast

from agents.agent_output import AgentOutputSchema
from openai.types.responses import (
    ResponseOutputMessage,
    ResponseOutputRefusal,
    ResponseOutputText,
    ResponseReasoningItem,
)
from pydantic import BaseModel, TypeAdapter
from pydantic_core import to_json
from typing_extensions import TypedDict

from agents_testing.core import safe_repr

from .._errors import invalid_argument
from .._script.validation import describe
from .common import check_text, optional_text

__all__ = ["assistant_message", "final_output", "reasoning", "refusal"]

DEFAULT_MESSAGE_ID = "scripted-message"
DEFAULT_REASONING_ID = "rs_scripted"


def _message(content: Any, item_id: str) -> ResponseOutputMessage:
    return ResponseOutputMessage(
        id=item_id, type="message", role="assistant", status="completed", content=[content]
    )


def assistant_message(text: str, *, item_id: str = DEFAULT_MESSAGE_ID) -> ResponseOutputMessage:
    """A completed assistant message whose only content is ``text`` (no annotations, and
    ``logprobs`` an empty list, as the SDK's own builder makes it)."""
    if not isinstance(text, str):
        raise invalid_argument("assistant_message(text)", "a str", describe(text))
    if not isinstance(item_id, str):
        raise invalid_argument("assistant_message(item_id)", "a str", describe(item_id))
    return _message(_text_part(text), item_id)


def _text_part(text: str) -> ResponseOutputText:
    return ResponseOutputText(type="output_text", text=text, annotations=[], logprobs=[])


def refusal(text: str, *, item_id: str = DEFAULT_MESSAGE_ID) -> ResponseOutputMessage:
    """A completed assistant message whose only content is a refusal saying ``text``."""
    check_text("refusal", "text", text)
    check_text("refusal", "item_id", item_id)
    return _message(ResponseOutputRefusal(type="refusal", refusal=text), item_id)


def final_output(
    value: object, *, output_type: object = None, item_id: str = DEFAULT_MESSAGE_ID
) -> ResponseOutputMessage:
    """An assistant message holding ``value`` as the JSON text an agent's ``output_type`` reads.

    ``value`` is an instance of the output type: a pydantic model, a dataclass, a dict
    (a ``TypedDict`` value) or a list, number or bool. The JSON is shaped as the SDK
    asks for that type (an object type as is, others under a ``"response"`` key). Give
    ``output_type`` when the type is a ``dict[...]`` alias, whose shape differs between
    SDK releases: the text is then the one that type validates. A plain-text agent
    (no output type) takes ``assistant_message(text)`` instead.
    """
    check_text("final_output", "item_id", item_id)
    if isinstance(value, type):
        raise invalid_argument(
            "final_output(value)",
            "an instance of the output type (a pydantic model, dataclass or dict value)",
            f"the class {value.__name__}",
        )
    if isinstance(value, str):
        raise invalid_argument(
            "final_output(value)",
            "a structured value (an agent without an output_type answers in plain text: "
            "use assistant_message(text))",
            describe(value),
        )
    is_dataclass = dataclasses.is_dataclass(value)
    if value is None or not (
        isinstance(value, (BaseModel, Mapping, list, tuple, int, float)) or is_dataclass
    ):
        raise invalid_argument(
            "final_output(value)",
            "a pydantic model, dataclass or dict value (or a JSON list, number or bool)",
            describe(value),
        )
    plain = _json(value)
    wrapped = _json({"response": value})
    if output_type is not None:
        text = _validated_text(output_type, (plain, wrapped), value)
    elif isinstance(value, (BaseModel, Mapping)):
        text = plain
    else:
        # The SDK wraps every output type that is neither a pydantic model nor a dict.
        text = wrapped
    return _message(_text_part(text), item_id)


def _json(value: object) -> str:
    try:
        return to_json(value, by_alias=True).decode()
    except Exception as error:
        raise invalid_argument(
            "final_output(value)",
            "a value that encodes as JSON",
            f"{describe(value)} ({type(error).__name__})",
        ) from None


def _validated_text(output_type: object, texts: tuple[str, str], value: object) -> str:
    if isinstance(output_type, AgentOutputSchema):
        output_type = output_type.output_type
    plain, wrapped = texts
    try:
        plain_adapter: TypeAdapter[Any] = TypeAdapter(cast(Any, output_type))
        # The SDK's wrapper: a TypedDict holding the value under "response".
        make_typed_dict: Any = TypedDict
        wrapper = make_typed_dict("OutputType", {"response": output_type})
        wrapped_adapter: TypeAdapter[Any] = TypeAdapter(wrapper)
    except Exception as error:
        raise invalid_argument(
            "final_output(output_type)",
            "a type the SDK accepts as an agent's output_type (or its AgentOutputSchema)",
            f"{describe(output_type)} ({type(error).__name__})",
        ) from None
    fits = [
        text
        for text, adapter in ((plain, plain_adapter), (wrapped, wrapped_adapter))
        if _validates(adapter, text)
    ]
    if len(fits) == 1:
        return fits[0]
    if fits:
        # Both shapes are valid data for the type (a dict of anything): the one the SDK
        # reads is the one its own schema for the type accepts.
        schema = AgentOutputSchema(output_type, strict_json_schema=False)  # type: ignore[arg-type]
        return plain if _validates(schema, plain) else wrapped
    raise invalid_argument(
        "final_output(value)",
        f"a value that the output type {safe_repr(output_type, 60)} validates",
        describe(value),
    )


def _validates(validator: Any, text: str) -> bool:
    try:
        validator.validate_json(text)
    except Exception:
        return False
    return True


def reasoning(
    *summary: str, item_id: str = DEFAULT_REASONING_ID, encrypted_content: str | None = None
) -> ResponseReasoningItem:
    """A reasoning item with one summary part per ``summary`` text (none: an empty summary)."""
    for position, text in enumerate(summary):
        if not isinstance(text, str):
            raise invalid_argument(f"reasoning(summary[{position}])", "a str", describe(text))
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


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
