"""Tools, prompts and resources a scripted server lists, with their builders.

A definition may be given as the installed ``mcp``'s own type (``mcp.types.Tool``,
``Prompt``, ``Resource``, ``ResourceTemplate``) or as its wire dict; ``mcp_prompt()`` and
``mcp_resource()`` add what ``get_prompt`` and ``read_resource`` answer.
"""

from __future__ import annotations

import base64
import inspect
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError

from .._errors import InvalidMCPArgument
from .._wire import attribute, build, dump

if TYPE_CHECKING:
    from mcp.types import GetPromptResult, Prompt, ReadResourceResult, Resource, Tool

__all__ = [
    "PromptAnswer",
    "ScriptedPrompt",
    "ScriptedResource",
    "mcp_prompt",
    "mcp_resource",
    "mcp_tool",
    "read_prompts",
    "read_resource_templates",
    "read_resources",
    "read_tools",
]

M = TypeVar("M", bound=BaseModel)

PromptAnswer = Callable[[dict[str, str]], Any]
"""A function of the prompt's arguments returning its messages (any form ``mcp_prompt``
takes), for prompts whose text depends on them."""


def _refuse(argument: str, expected: str, value: object) -> InvalidMCPArgument:
    got = type(value).__name__
    return InvalidMCPArgument(
        f"{argument} must be {expected}, got {got}.", argument=argument, expected=expected, got=got
    )


def _model(kind: type[M], argument: str, value: object, what: str) -> M:
    """``value`` (a ``kind`` or its wire dict) as a detached ``kind``."""
    if isinstance(value, kind):
        return value.model_copy(deep=True)
    if isinstance(value, Mapping):
        try:
            return build(kind, value)
        except ValidationError as error:
            detail = "; ".join(
                f"{'.'.join(map(str, issue['loc'])) or 'value'}: {issue['msg']}"
                for issue in error.errors()[:3]
            )
            raise InvalidMCPArgument(
                f"{argument} is not a valid {what}: {detail}.",
                argument=argument,
                expected=f"an mcp.types.{kind.__name__} or its wire dict",
                got=detail,
            ) from None
    raise _refuse(argument, f"an mcp.types.{kind.__name__} or its wire dict", value)


def mcp_tool(
    name: str,
    *,
    description: str | None = None,
    input_schema: Mapping[str, Any] | None = None,
    output_schema: Mapping[str, Any] | None = None,
    annotations: Mapping[str, Any] | None = None,
    title: str | None = None,
    meta: Mapping[str, Any] | None = None,
) -> Tool:
    """An ``mcp.types.Tool`` as a server lists it. ``input_schema`` defaults to an object
    with no properties; ``annotations`` takes the wire names (``readOnlyHint``, ...)."""
    from mcp.types import Tool

    if not isinstance(name, str) or not name:
        raise _refuse("mcp_tool(name)", "a non-empty str", name)
    data: dict[str, Any] = {
        "name": name,
        "inputSchema": dict(input_schema)
        if input_schema is not None
        else {"type": "object", "properties": {}},
    }
    for key, value in (
        ("description", description),
        ("outputSchema", output_schema),
        ("annotations", annotations),
        ("title", title),
        ("_meta", meta),
    ):
        if value is not None:
            data[key] = dict(value) if isinstance(value, Mapping) else value
    return _model(Tool, f"mcp_tool({name!r})", data, "tool")


@dataclass(frozen=True)
class ScriptedPrompt:
    """A prompt the server lists (``prompt``) and what ``get_prompt`` answers for it."""

    prompt: Prompt
    answer: Any

    def result(self, arguments: dict[str, str]) -> GetPromptResult:
        """The ``GetPromptResult`` for ``arguments`` (a fresh one each time)."""
        value = self.answer(dict(arguments)) if callable(self.answer) else self.answer
        return prompt_result(value, attribute(self.prompt, "description"), self.prompt.name)


def prompt_result(value: Any, description: str | None, name: str) -> GetPromptResult:
    """``value`` (a str, messages, or a ``GetPromptResult``) as a ``GetPromptResult``."""
    from mcp.types import GetPromptResult

    if isinstance(value, GetPromptResult):
        return value.model_copy(deep=True)
    if isinstance(value, str) or not isinstance(value, Iterable):
        items: Sequence[Any] = [value]
    else:
        items = list(value)
    messages = [
        _message(f"mcp_prompt({name!r}) message {n + 1}", item) for n, item in enumerate(items)
    ]
    data: dict[str, Any] = {"messages": messages}
    if description is not None:
        data["description"] = description
    return build(GetPromptResult, data)


def _message(argument: str, item: Any) -> dict[str, Any]:
    if isinstance(item, str):
        return {"role": "user", "content": {"type": "text", "text": item}}
    if (
        isinstance(item, tuple)
        and len(item) == 2
        and item[0] in ("user", "assistant")
        and isinstance(item[1], str)
    ):
        return {"role": item[0], "content": {"type": "text", "text": item[1]}}
    if isinstance(item, BaseModel):
        return dump(item)
    if isinstance(item, Mapping):
        return dict(item)
    raise _refuse(
        argument,
        "a str (a user message), a (role, text) pair, an mcp.types.PromptMessage or its wire dict",
        item,
    )


def mcp_prompt(
    name: str,
    messages: Any,
    *,
    description: str | None = None,
    arguments: Iterable[str | Mapping[str, Any]] = (),
) -> ScriptedPrompt:
    """A prompt the server lists and answers: ``messages`` is a str (one user message), a
    sequence of strs, ``(role, text)`` pairs or ``mcp.types.PromptMessage``s, a
    ``GetPromptResult``, or a function of the prompt's arguments returning one of these.
    ``arguments`` names the prompt's arguments (a str is a required argument; a dict
    gives ``name``, ``description`` and ``required``)."""
    from mcp.types import Prompt

    if not isinstance(name, str) or not name:
        raise _refuse("mcp_prompt(name)", "a non-empty str", name)
    if isinstance(arguments, (str, Mapping)) or not isinstance(arguments, Iterable):
        raise _refuse(f"mcp_prompt({name!r}, arguments)", "a sequence of names or dicts", arguments)
    declared: list[dict[str, Any]] = []
    for index, argument in enumerate(arguments):
        if isinstance(argument, str):
            declared.append({"name": argument, "required": True})
        elif isinstance(argument, Mapping):
            declared.append(dict(argument))
        else:
            raise _refuse(f"mcp_prompt({name!r}, arguments)[{index}]", "a str or a dict", argument)
    data: dict[str, Any] = {"name": name, "arguments": declared}
    if description is not None:
        data["description"] = description
    prompt = _model(Prompt, f"mcp_prompt({name!r})", data, "prompt")
    if callable(messages):
        if inspect.iscoroutinefunction(messages):
            raise _refuse(
                f"mcp_prompt({name!r}, messages)", "a plain function (not async)", messages
            )
        return ScriptedPrompt(prompt, messages)
    # Checked (and copied) now, so a mistake shows where the prompt is written.
    return ScriptedPrompt(prompt, prompt_result(messages, description, name))


@dataclass(frozen=True)
class ScriptedResource:
    """A resource the server lists (``resource``) and what ``read_resource`` answers."""

    resource: Resource
    contents: ReadResourceResult | None

    def result(self) -> ReadResourceResult | None:
        return None if self.contents is None else self.contents.model_copy(deep=True)


def mcp_resource(
    uri: str,
    content: str | bytes,
    *,
    name: str | None = None,
    description: str | None = None,
    mime_type: str | None = None,
) -> ScriptedResource:
    """A resource the server lists and reads: ``content`` as text (a str) or binary data
    (bytes, sent base64 as a blob). ``name`` defaults to the URI."""
    from mcp.types import ReadResourceResult, Resource

    if not isinstance(uri, str) or not uri:
        raise _refuse("mcp_resource(uri)", "a non-empty str", uri)
    listed: dict[str, Any] = {"uri": uri, "name": name if name is not None else uri}
    entry: dict[str, Any] = {"uri": uri}
    if description is not None:
        listed["description"] = description
    if mime_type is not None:
        listed["mimeType"] = entry["mimeType"] = mime_type
    if isinstance(content, str):
        entry["text"] = content
    elif isinstance(content, (bytes, bytearray)):
        entry["blob"] = base64.b64encode(bytes(content)).decode("ascii")
    else:
        raise _refuse(f"mcp_resource({uri!r}, content)", "a str or bytes", content)
    resource = _model(Resource, f"mcp_resource({uri!r})", listed, "resource")
    contents = _model(
        ReadResourceResult, f"mcp_resource({uri!r})", {"contents": [entry]}, "resource content"
    )
    return ScriptedResource(resource, contents)


def _sequence(argument: str, value: object) -> list[Any]:
    # A pydantic model iterates over its fields: one definition given alone is no sequence.
    if isinstance(value, (str, bytes, Mapping, BaseModel)) or not isinstance(value, Iterable):
        raise _refuse(argument, "a sequence", value)
    return list(value)


def _unique(argument: str, names: list[str]) -> None:
    seen: set[str] = set()
    for index, name in enumerate(names):
        if name in seen:
            raise InvalidMCPArgument(
                f"{argument}[{index}] lists {name!r} again; each name may be listed once.",
                argument=f"{argument}[{index}]",
                expected="a name not listed before",
                got=repr(name),
            )
        seen.add(name)


def read_tools(value: object) -> tuple[Tool, ...]:
    """The ``tools`` argument of the server as detached ``Tool``s (names unique)."""
    from mcp.types import Tool

    tools = tuple(
        _model(Tool, f"tools[{index}]", item, "tool")
        for index, item in enumerate(_sequence("tools", value))
    )
    _unique("tools", [tool.name for tool in tools])
    return tools


def read_prompts(value: object) -> tuple[ScriptedPrompt, ...]:
    """The ``prompts`` argument: ``mcp_prompt()``s, or listed-only ``Prompt``s."""
    from mcp.types import Prompt

    prompts = tuple(
        item
        if isinstance(item, ScriptedPrompt)
        else ScriptedPrompt(_model(Prompt, f"prompts[{index}]", item, "prompt"), None)
        for index, item in enumerate(_sequence("prompts", value))
    )
    _unique("prompts", [entry.prompt.name for entry in prompts])
    return prompts


def read_resources(value: object) -> tuple[ScriptedResource, ...]:
    """The ``resources`` argument: ``mcp_resource()``s, or listed-only ``Resource``s."""
    from mcp.types import Resource

    resources = tuple(
        item
        if isinstance(item, ScriptedResource)
        else ScriptedResource(_model(Resource, f"resources[{index}]", item, "resource"), None)
        for index, item in enumerate(_sequence("resources", value))
    )
    _unique("resources", [str(entry.resource.uri) for entry in resources])
    return resources


def read_resource_templates(value: object) -> tuple[Any, ...]:
    """The ``resource_templates`` argument as detached ``ResourceTemplate``s."""
    from mcp.types import ResourceTemplate

    return tuple(
        _model(ResourceTemplate, f"resource_templates[{index}]", item, "resource template")
        for index, item in enumerate(_sequence("resource_templates", value))
    )


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
