"""Answering prompt and resource requests from the definitions, as a server answers them.

A name or URI the server does not have, a missing required prompt argument and a cursor
(every listing fits on its first page) are protocol errors, raised as the installed
``mcp`` client raises them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .._wire import attribute, build, protocol_error
from .definitions import ScriptedPrompt, ScriptedResource

if TYPE_CHECKING:
    from mcp.types import (
        GetPromptResult,
        ListPromptsResult,
        ListResourcesResult,
        ListResourceTemplatesResult,
        ReadResourceResult,
    )

__all__ = ["check_cursor", "list_prompts", "list_resources", "list_templates", "prompt", "read"]

_INVALID_PARAMS = -32602
_RESOURCE_NOT_FOUND = -32002


def check_cursor(cursor: str | None) -> None:
    """Refuse a cursor: the server never hands one out."""
    if cursor is not None:
        raise protocol_error(_INVALID_PARAMS, "Invalid cursor: this server lists one page")


def list_prompts(prompts: Sequence[ScriptedPrompt]) -> ListPromptsResult:
    from mcp.types import ListPromptsResult

    return build(
        ListPromptsResult,
        {"prompts": [entry.prompt.model_dump(by_alias=True) for entry in prompts]},
    )


def prompt(
    prompts: Sequence[ScriptedPrompt], name: str, arguments: dict[str, Any]
) -> GetPromptResult:
    """The answer of prompt ``name`` for ``arguments``."""
    entry = next((item for item in prompts if item.prompt.name == name), None)
    if entry is None:
        raise protocol_error(_INVALID_PARAMS, f"Unknown prompt: {name}")
    declared = attribute(entry.prompt, "arguments") or ()
    missing = sorted(
        argument.name
        for argument in declared
        if argument.required and argument.name not in arguments
    )
    if missing:
        raise protocol_error(_INVALID_PARAMS, f"Missing required arguments: {', '.join(missing)}")
    if entry.answer is None:
        raise protocol_error(
            _INVALID_PARAMS,
            f"Prompt {name!r} is listed without messages; script it as "
            f"mcp_prompt({name!r}, messages) to answer get_prompt().",
        )
    return entry.result(arguments)


def list_resources(resources: Sequence[ScriptedResource]) -> ListResourcesResult:
    from mcp.types import ListResourcesResult

    listed = [entry.resource.model_dump(by_alias=True) for entry in resources]
    return build(ListResourcesResult, {"resources": listed})


def list_templates(templates: Sequence[Any]) -> ListResourceTemplatesResult:
    from mcp.types import ListResourceTemplatesResult

    listed = [template.model_dump(by_alias=True) for template in templates]
    return build(ListResourceTemplatesResult, {"resourceTemplates": listed})


def read(resources: Sequence[ScriptedResource], uri: str) -> ReadResourceResult:
    """The contents of resource ``uri``."""
    entry = next((item for item in resources if str(item.resource.uri) == uri), None)
    result = entry.result() if entry is not None else None
    if result is None:
        raise protocol_error(_RESOURCE_NOT_FOUND, f"Resource not found: {uri}")
    return result
