"""Builders for the two output items most scripts need.

Other normalized output items (reasoning, apply-patch calls, hosted tool calls) are
passed to a step directly as the SDK's own ``openai.types.responses`` models.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from ._errors import InvalidModelArgument
from ._validation import describe

__all__ = ["assistant_message", "function_call"]

DEFAULT_MESSAGE_ID = "msg_scripted"


def assistant_message(text: str, *, item_id: str = DEFAULT_MESSAGE_ID) -> ResponseOutputMessage:
    """A completed assistant message whose only content is ``text``."""
    if not isinstance(text, str):
        raise InvalidModelArgument("assistant_message(text)", "a str", describe(text))
    if not isinstance(item_id, str):
        raise InvalidModelArgument("assistant_message(item_id)", "a str", describe(item_id))
    return ResponseOutputMessage(
        id=item_id,
        type="message",
        role="assistant",
        status="completed",
        content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
    )


def function_call(
    name: str,
    arguments: str | Mapping[str, Any],
    *,
    call_id: str,
    item_id: str | None = None,
    namespace: str | None = None,
) -> ResponseFunctionToolCall:
    """A completed call of the tool ``name``; a mapping of arguments is JSON-encoded."""
    if not isinstance(name, str) or not name:
        raise InvalidModelArgument("function_call(name)", "a non-empty str", describe(name))
    if not isinstance(call_id, str) or not call_id:
        # The runner matches the tool output to the call by it.
        raise InvalidModelArgument("function_call(call_id)", "a non-empty str", describe(call_id))
    for argument, value in (("item_id", item_id), ("namespace", namespace)):
        if value is not None and not isinstance(value, str):
            raise InvalidModelArgument(
                f"function_call({argument})", "a str or None", describe(value)
            )
    if isinstance(arguments, Mapping):
        try:
            encoded = json.dumps(dict(arguments))
        except Exception as error:
            raise InvalidModelArgument(
                "function_call(arguments)",
                "JSON-compatible values (or an already encoded str)",
                f"values that cannot be encoded ({type(error).__name__})",
            ) from None
    elif isinstance(arguments, str):
        encoded = arguments
    else:
        raise InvalidModelArgument(
            "function_call(arguments)", "a str or a mapping", describe(arguments)
        )
    fields: dict[str, Any] = {}
    if namespace is not None:
        fields["namespace"] = namespace
    return ResponseFunctionToolCall(
        type="function_call",
        name=name,
        arguments=encoded,
        call_id=call_id,
        id=item_id,
        status="completed",
        **fields,
    )
