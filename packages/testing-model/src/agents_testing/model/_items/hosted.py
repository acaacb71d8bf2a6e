"""Builders for tools the provider runs itself: web and file search, code interpreter,
image generation and hosted MCP servers.

The runner records these calls (``ToolCallItem``, ``MCPListToolsItem``,
``MCPApprovalRequestItem``) without running anything; an MCP approval request goes to
the ``HostedMCPTool``'s ``on_approval_request`` or becomes an interruption.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from openai.types.responses import (
    ResponseCodeInterpreterToolCall,
    ResponseFileSearchToolCall,
    ResponseFunctionWebSearch,
)
from openai.types.responses.response_output_item import (
    ImageGenerationCall,
    McpApprovalRequest,
    McpCall,
    McpListTools,
)

from .._errors import invalid_argument
from .._script.validation import describe
from .common import build_item, check_text, json_arguments, optional_text

__all__ = [
    "code_interpreter_call",
    "file_search_call",
    "image_generation_call",
    "mcp_approval_request",
    "mcp_call",
    "mcp_list_tools",
    "web_search_call",
]

_EMPTY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}


def _mappings(builder: str, argument: str, values: object) -> list[dict[str, Any]]:
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Sequence):
        raise invalid_argument(f"{builder}({argument})", "a sequence of mappings", describe(values))
    found: list[dict[str, Any]] = []
    for position, value in enumerate(values):
        if not isinstance(value, Mapping):
            raise invalid_argument(
                f"{builder}({argument}[{position}])", "a mapping", describe(value)
            )
        found.append(dict(value))
    return found


def web_search_call(
    query: str = "", *, item_id: str = "ws_scripted", status: str = "completed"
) -> ResponseFunctionWebSearch:
    """A hosted web search for ``query`` (action ``search``)."""
    check_text("web_search_call", "query", query)
    check_text("web_search_call", "item_id", item_id, empty=False)
    check_text("web_search_call", "status", status)
    fields = {
        "type": "web_search_call",
        "id": item_id,
        "status": status,
        "action": {"type": "search", "query": query},
    }
    return build_item("web_search_call", ResponseFunctionWebSearch, fields, {"status": "status"})


def file_search_call(
    *queries: str,
    results: Sequence[Mapping[str, Any]] | None = None,
    item_id: str = "fs_scripted",
    status: str = "completed",
) -> ResponseFileSearchToolCall:
    """A hosted file search for ``queries``; ``results`` are mappings such as
    ``{"file_id": "f1", "filename": "a.md", "score": 0.9, "text": "..."}``."""
    for position, query in enumerate(queries):
        check_text("file_search_call", f"queries[{position}]", query)
    check_text("file_search_call", "item_id", item_id, empty=False)
    check_text("file_search_call", "status", status)
    fields: dict[str, Any] = {
        "type": "file_search_call",
        "id": item_id,
        "status": status,
        "queries": list(queries),
    }
    if results is not None:
        fields["results"] = _mappings("file_search_call", "results", results)
    return build_item(
        "file_search_call",
        ResponseFileSearchToolCall,
        fields,
        {"status": "status", "results": "results"},
    )


def code_interpreter_call(
    code: str = "",
    *,
    logs: str | None = None,
    container_id: str = "cntr_scripted",
    item_id: str = "ci_scripted",
    status: str = "completed",
) -> ResponseCodeInterpreterToolCall:
    """A hosted code interpreter run of ``code``; ``logs`` is what it printed."""
    check_text("code_interpreter_call", "code", code)
    optional_text("code_interpreter_call", "logs", logs)
    check_text("code_interpreter_call", "container_id", container_id, empty=False)
    check_text("code_interpreter_call", "item_id", item_id, empty=False)
    check_text("code_interpreter_call", "status", status)
    fields = {
        "type": "code_interpreter_call",
        "id": item_id,
        "code": code,
        "container_id": container_id,
        "status": status,
        "outputs": [] if logs is None else [{"type": "logs", "logs": logs}],
    }
    return build_item(
        "code_interpreter_call", ResponseCodeInterpreterToolCall, fields, {"status": "status"}
    )


def image_generation_call(
    result: str = "", *, item_id: str = "ig_scripted", status: str = "completed"
) -> ImageGenerationCall:
    """A hosted image generation whose ``result`` is the image, base64-encoded."""
    check_text("image_generation_call", "result", result)
    check_text("image_generation_call", "item_id", item_id, empty=False)
    check_text("image_generation_call", "status", status)
    fields = {"type": "image_generation_call", "id": item_id, "result": result, "status": status}
    return build_item("image_generation_call", ImageGenerationCall, fields, {"status": "status"})


def mcp_call(
    server_label: str,
    name: str,
    arguments: str | Mapping[str, Any] | None = None,
    *,
    output: str | None = None,
    item_id: str = "mcp_scripted",
    status: str = "completed",
) -> McpCall:
    """A call the provider made to the tool ``name`` of the hosted MCP server ``server_label``."""
    check_text("mcp_call", "server_label", server_label, empty=False)
    check_text("mcp_call", "name", name, empty=False)
    encoded = json_arguments("mcp_call", "arguments", arguments)
    optional_text("mcp_call", "output", output)
    check_text("mcp_call", "item_id", item_id, empty=False)
    check_text("mcp_call", "status", status)
    fields: dict[str, Any] = {
        "type": "mcp_call",
        "id": item_id,
        "server_label": server_label,
        "name": name,
        "arguments": encoded,
        "status": status,
    }
    if output is not None:
        fields["output"] = output
    return build_item("mcp_call", McpCall, fields, {"status": "status"})


def mcp_list_tools(
    server_label: str,
    tools: Sequence[str | Mapping[str, Any]] = (),
    *,
    item_id: str = "mcpl_scripted",
) -> McpListTools:
    """The tool list of the hosted MCP server ``server_label``.

    A tool is a name (with an empty object input schema) or a mapping with ``name``,
    ``input_schema`` and optionally ``description``.
    """
    check_text("mcp_list_tools", "server_label", server_label, empty=False)
    check_text("mcp_list_tools", "item_id", item_id, empty=False)
    if isinstance(tools, (str, bytes, Mapping)) or not isinstance(tools, Sequence):
        raise invalid_argument(
            "mcp_list_tools(tools)", "a sequence of names or mappings", describe(tools)
        )
    listed: list[dict[str, Any]] = []
    for position, tool in enumerate(tools):
        if isinstance(tool, str):
            listed.append({"name": tool, "input_schema": dict(_EMPTY_SCHEMA)})
        elif isinstance(tool, Mapping):
            listed.append({"input_schema": dict(_EMPTY_SCHEMA), **tool})
        else:
            raise invalid_argument(
                f"mcp_list_tools(tools[{position}])", "a str or a mapping", describe(tool)
            )
    fields = {
        "type": "mcp_list_tools",
        "id": item_id,
        "server_label": server_label,
        "tools": listed,
    }
    return build_item("mcp_list_tools", McpListTools, fields, {"tools": "tools"})


def mcp_approval_request(
    server_label: str,
    name: str,
    arguments: str | Mapping[str, Any] | None = None,
    *,
    item_id: str = "mcpr_scripted",
) -> McpApprovalRequest:
    """The provider asking to approve a call of ``name`` on the hosted MCP server.

    ``item_id`` is the id the approval response answers; give each request of one
    response its own.
    """
    check_text("mcp_approval_request", "server_label", server_label, empty=False)
    check_text("mcp_approval_request", "name", name, empty=False)
    encoded = json_arguments("mcp_approval_request", "arguments", arguments)
    check_text("mcp_approval_request", "item_id", item_id, empty=False)
    fields = {
        "type": "mcp_approval_request",
        "id": item_id,
        "server_label": server_label,
        "name": name,
        "arguments": encoded,
    }
    return build_item("mcp_approval_request", McpApprovalRequest, fields, {})


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
