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

from ._errors import ModelScriptError

__all__ = ["assistant_message", "function_call"]

DEFAULT_MESSAGE_ID = "msg_scripted"


def assistant_message(text: str, *, item_id: str = DEFAULT_MESSAGE_ID) -> ResponseOutputMessage:
    """A completed assistant message whose only content is ``text``."""
    if not isinstance(text, str):
        raise ModelScriptError(
            f"assistant_message() takes the message text as a str, got {type(text).__name__}."
        )
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
        raise ModelScriptError("function_call() needs the tool name as a non-empty str.")
    if not isinstance(call_id, str) or not call_id:
        raise ModelScriptError(
            "function_call() needs a non-empty call_id: the runner matches the tool "
            "output to the call by it."
        )
    if isinstance(arguments, Mapping):
        try:
            encoded = json.dumps(dict(arguments))
        except (TypeError, ValueError) as error:
            raise ModelScriptError(
                f"function_call({name!r}) arguments are not JSON-serializable: {error}. "
                "Pass JSON-compatible values or an already encoded str."
            ) from None
    elif isinstance(arguments, str):
        encoded = arguments
    else:
        raise ModelScriptError(
            f"function_call({name!r}) arguments must be a str or a mapping, "
            f"got {type(arguments).__name__}."
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
