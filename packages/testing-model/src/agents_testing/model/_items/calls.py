"""Builders for calls of the agent's own tools: function tools, handoffs, custom tools, tool search.

``call_id`` is optional everywhere: left out, ``ScriptedModel`` gives the call
``call_1``, ``call_2``, ... when it serves it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agents.agent import AgentBase
from agents.handoffs import Handoff
from openai.types.responses import (
    ResponseCustomToolCall,
    ResponseFunctionToolCall,
    ResponseToolSearchCall,
)

from .._errors import invalid_argument
from .._script.validation import describe
from .common import (
    build_item,
    call_id_or_auto,
    check_text,
    json_arguments,
    optional_text,
)

__all__ = ["custom_tool_call", "function_call", "handoff_call", "tool_search_call"]

DEFAULT_TOOL_SEARCH_ID = "ts_scripted"


def function_call(
    name: str,
    arguments: str | Mapping[str, Any],
    *,
    call_id: str | None = None,
    item_id: str | None = None,
    namespace: str | None = None,
) -> ResponseFunctionToolCall:
    """A call of the tool ``name``, as the provider sends it.

    A mapping of arguments is JSON-encoded compactly (no spaces, non-ASCII characters
    kept, keys in the given order); a str is used as it is. The item's ``id`` is
    ``item_id``, or the call id; ``status`` and ``namespace`` are left unset unless
    given (``namespace``), so the input item the runner records for it holds exactly
    ``type``, ``name``, ``arguments``, ``call_id`` and ``id``.
    """
    check_text("function_call", "name", name, empty=False)
    call = call_id_or_auto("function_call", call_id)
    optional_text("function_call", "item_id", item_id)
    optional_text("function_call", "namespace", namespace)
    if arguments is None:
        raise invalid_argument("function_call(arguments)", "a str or a mapping", "None")
    encoded = json_arguments("function_call", "arguments", arguments, compact=True)
    fields: dict[str, Any] = {}
    if namespace is not None:
        fields["namespace"] = namespace
    # Without item_id the item's id is its call id (a call id still to be assigned
    # gives the id assigned with it).
    return ResponseFunctionToolCall(
        type="function_call",
        name=name,
        arguments=encoded,
        call_id=call,
        id=call if item_id is None else item_id,
        **fields,
    )


def handoff_call(
    agent: AgentBase[Any] | Handoff[Any, Any],
    arguments: str | Mapping[str, Any] | None = None,
    *,
    call_id: str | None = None,
    item_id: str | None = None,
) -> ResponseFunctionToolCall:
    """The model handing the conversation to ``agent`` (an Agent, or the ``Handoff`` offered).

    The tool name is the one the SDK gives that handoff, so the test never spells
    ``transfer_to_...`` itself; ``arguments`` (default ``{}``) is the handoff's input.
    """
    if isinstance(agent, Handoff):
        name = agent.tool_name
    elif isinstance(agent, AgentBase):
        name = Handoff.default_tool_name(agent)
    else:
        raise invalid_argument(
            "handoff_call(agent)",
            "an agents.Agent or an agents.Handoff (from handoff(agent, ...))",
            describe(agent),
        )
    call = call_id_or_auto("handoff_call", call_id)
    optional_text("handoff_call", "item_id", item_id)
    encoded = json_arguments("handoff_call", "arguments", arguments)
    return ResponseFunctionToolCall(
        type="function_call",
        name=name,
        arguments=encoded,
        call_id=call,
        id=item_id,
        status="completed",
    )


def custom_tool_call(
    name: str,
    input: str = "",
    *,
    call_id: str | None = None,
    item_id: str | None = None,
    namespace: str | None = None,
) -> ResponseCustomToolCall:
    """A call of the custom (free-form input) tool ``name`` with the raw text ``input``."""
    check_text("custom_tool_call", "name", name, empty=False)
    check_text("custom_tool_call", "input", input)
    call = call_id_or_auto("custom_tool_call", call_id)
    optional_text("custom_tool_call", "item_id", item_id)
    optional_text("custom_tool_call", "namespace", namespace)
    fields: dict[str, Any] = {
        "type": "custom_tool_call",
        "name": name,
        "input": input,
        "call_id": call,
    }
    if item_id is not None:
        fields["id"] = item_id
    if namespace is not None:
        fields["namespace"] = namespace
    return build_item("custom_tool_call", ResponseCustomToolCall, fields, {})


def tool_search_call(
    arguments: Mapping[str, Any] | None = None,
    *,
    call_id: str | None = None,
    item_id: str = DEFAULT_TOOL_SEARCH_ID,
    status: str = "completed",
) -> ResponseToolSearchCall:
    """A hosted tool search the provider ran (``execution="server"``) with ``arguments``."""
    if arguments is not None and not isinstance(arguments, Mapping):
        raise invalid_argument(
            "tool_search_call(arguments)", "a mapping or None", describe(arguments)
        )
    call = call_id_or_auto("tool_search_call", call_id)
    check_text("tool_search_call", "item_id", item_id, empty=False)
    check_text("tool_search_call", "status", status)
    fields = {
        "type": "tool_search_call",
        "id": item_id,
        "call_id": call,
        "arguments": dict(arguments or {}),
        "execution": "server",
        "status": status,
    }
    return build_item("tool_search_call", ResponseToolSearchCall, fields, {"status": "status"})


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
