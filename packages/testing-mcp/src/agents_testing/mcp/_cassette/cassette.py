"""``MCPCassette``: record a real MCP server's listings and calls, replay them scripted.

Recording wraps the public requests of a live ``agents.mcp`` server on that one object
(``list_tools``, ``call_tool``, ``list_prompts``, ``get_prompt``, ``list_resources``,
``list_resource_templates``, ``read_resource``) and writes what each returned, in the
protocol's own wire form, to one cassette file: every listing that differs from the one
before it, and every call with its arguments and result (or error). Nothing about how the
server is reached (command, environment, URL, headers) is written. Replay turns the file
into a :class:`~agents_testing.mcp.ScriptedMCPServer`: the recorded tools, prompts and
resources, and one step per recorded tool call whose matcher raises
:class:`MCPCallMismatch` with a readable diff when a call differs.
"""

from __future__ import annotations

import contextvars
import functools
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from agents_testing.core.cassette import (
    CassetteFormatError,
    CassetteMismatch,
    CassetteSecretError,
    Scrubber,
    diff_json,
    dump_cassette,
    read_cassette,
    scan_for_secrets,
    scrub,
    write_cassette,
)

from .._call import MCPCall
from .._errors import MCPScriptError
from .._listing.definitions import ScriptedPrompt, ScriptedResource
from .._server import ScriptedMCPServer
from .._wire import build, dump, error_data, protocol_error

if TYPE_CHECKING:
    from agents.mcp import MCPServer

__all__ = ["MCPCallMismatch", "MCPCassette", "ReplayedMCPError"]

S = TypeVar("S", bound="MCPServer")

_BOUNDARY = "mcp"
_PACKAGES = ("openai-agents", "mcp", "agents-testing-mcp")
_INSIDE: contextvars.ContextVar[bool] = contextvars.ContextVar("_agents_mcp_cassette_inside")
_LISTINGS = {
    "list_tools": "tools",
    "list_prompts": "prompts",
    "list_resources": "resources",
    "list_resource_templates": "resourceTemplates",
}


class MCPCallMismatch(MCPScriptError, CassetteMismatch):
    """A replayed request differs from the recorded one.

    Raised at the call (by the replay step's matcher for ``call_tool``, by the prompt or
    resource lookup otherwise), and again by the server's ``assert_complete()``.
    ``call_index`` is the 0-based position of the call among the server's tool calls (or
    among its prompt or resource reads); ``differences`` names each differing field.
    """

    def __init__(self, call_index: int, differences: Sequence[str]) -> None:
        CassetteMismatch.__init__(self, _BOUNDARY, call_index, differences)
        self._fields = {}

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.call_index, self.differences))


class ReplayedMCPError(Exception):
    """A recorded server error whose original type cannot be rebuilt on replay."""

    def __init__(self, error_type: str, message: str) -> None:
        self.error_type = error_type
        self.message = message
        super().__init__(f"{error_type}: {message}")

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.error_type, self.message))


# -- recording ------------------------------------------------------------------------


def _error_entry(error: BaseException) -> dict[str, Any]:
    kind = type(error)
    entry: dict[str, Any] = {
        "type": f"{kind.__module__}.{kind.__qualname__}",
        "message": str(error),
    }
    data = error_data(error)
    if data is not None:
        entry["protocol"] = data
    return entry


class _Recorder:
    def __init__(self, server: Any) -> None:
        self.server = server
        self.calls: list[dict[str, Any]] = []
        self._last: dict[str, Any] = {}

    def header(self) -> dict[str, Any]:
        return {
            "method": "server",
            "name": str(self.server.name),
            "use_structured_content": bool(getattr(self.server, "use_structured_content", False)),
        }

    def listing(self, method: str, items: list[Any]) -> None:
        dumped = [dump(item) for item in items]
        if self._last.get(method) != dumped:
            self._last[method] = dumped
            self.calls.append({"method": method, "result": dumped})

    def wrap(self, method: str) -> None:
        original = getattr(self.server, method)

        @functools.wraps(original)
        async def recorded(*args: Any, **kwargs: Any) -> Any:
            if _INSIDE.get(False):
                # A request the server makes of itself belongs to the outer one.
                return await original(*args, **kwargs)
            token = _INSIDE.set(True)
            try:
                return await self._record(method, original, args, kwargs)
            finally:
                _INSIDE.reset(token)

        setattr(self.server, method, recorded)

    async def _record(self, method: str, original: Any, args: Any, kwargs: Any) -> Any:
        if method == "list_tools":
            tools = await original(*args, **kwargs)
            self.listing(method, list(tools))
            return tools
        if method in _LISTINGS:
            result = await original(*args, **kwargs)
            items = dump(result).get(_LISTINGS[method], [])
            if self._last.get(method) != items:
                self._last[method] = items
                self.calls.append({"method": method, "result": items})
            return result
        entry = _request_entry(method, args, kwargs)
        self.calls.append(entry)
        try:
            result = await original(*args, **kwargs)
        except Exception as error:
            entry["error"] = _error_entry(error)
            raise
        entry["result"] = dump(result)
        return result


def _request_entry(method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    """What a call asked for, by name whether it was passed by position or keyword."""
    names = {
        "call_tool": ("tool", "arguments", "meta"),
        "get_prompt": ("name", "arguments"),
        "read_resource": ("uri",),
    }[method]
    given = dict(zip(names, args, strict=False))
    given.update({("tool" if key == "tool_name" else key): value for key, value in kwargs.items()})
    entry: dict[str, Any] = {"method": method}
    for name in names:
        value = given.get(name)
        if name == "meta" and value is None:
            continue
        entry[name] = str(value) if name == "uri" else _jsonable(value)
    return entry


def _jsonable(value: Any) -> Any:
    from pydantic_core import to_jsonable_python

    return to_jsonable_python(value, fallback=repr)


# -- the cassette -----------------------------------------------------------------------


class MCPCassette:
    """The MCP cassette file of one test.

    ``scrubbers``, ``secrets`` and ``allow_secrets`` work as for ``ModelCassette``: every
    recorded string goes through the scrubbers, and a secret-shaped string left in the
    recording (or one of ``secrets``) stops the write.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        scrubbers: Sequence[Scrubber] = (),
        secrets: Iterable[str] = (),
        allow_secrets: bool = False,
    ) -> None:
        self.path = Path(path)
        self.scrubbers = tuple(scrubbers)
        self.secrets = tuple(secrets)
        self.allow_secrets = bool(allow_secrets)
        self._recorder: _Recorder | None = None

    @property
    def exists(self) -> bool:
        """Whether the cassette file is there."""
        return self.path.is_file()

    def record(self, server: S) -> S:
        """Record every request made of the live ``server``; returns the same server."""
        recorder = _Recorder(server)
        for method in ("call_tool", "get_prompt", "read_resource", "list_tools", *_LISTINGS):
            if callable(getattr(server, method, None)) and method not in vars(server):
                recorder.wrap(method)
        self._recorder = recorder
        return server

    def dumps(self) -> str:
        """The cassette text :meth:`save` would write; raises ``CassetteSecretError``."""
        if self._recorder is None:
            raise CassetteFormatError(str(self.path), "nothing was recorded; call record() first.")
        calls = scrub([self._recorder.header(), *self._recorder.calls], self.scrubbers)
        if not self.allow_secrets:
            live = [*self.secrets, *filter(None, [os.environ.get("OPENAI_API_KEY")])]
            findings = scan_for_secrets(calls, live_secrets=live, root="calls")
            if findings:
                raise CassetteSecretError(str(self.path), findings)
        return dump_cassette(_BOUNDARY, calls, packages=_PACKAGES)

    def save(self) -> None:
        """Scan the recording for secrets and write the cassette file."""
        write_cassette(self.path, self.dumps())

    def replay(self, *, extra_checks: bool = True, **options: Any) -> ScriptedMCPServer:
        """The cassette as a :class:`ScriptedMCPServer`, one step per recorded tool call.

        ``options`` are the server's own (``tool_filter``, ``require_approval``, ...);
        ``name`` and ``use_structured_content`` default to the recorded server's. With
        ``extra_checks`` (the default) a differing call is reported again by
        ``assert_complete()``, even when the SDK turned it into a message for the model.
        """
        return _Replay(str(self.path), read_cassette(self.path, _BOUNDARY), self.scrubbers).server(
            extra_checks=extra_checks, **options
        )

    def definitions(self) -> dict[str, Any]:
        """What the recorded server listed, as ``ScriptedMCPServer`` arguments: ``tools``,
        ``prompts``, ``resources`` and ``resource_templates`` (prompts and resources it was
        asked for answer as recorded). For a scripted server with the real server's tools:
        ``ScriptedMCPServer(steps, **cassette.definitions())``."""
        replay = _Replay(str(self.path), read_cassette(self.path, _BOUNDARY), self.scrubbers)
        return replay.parse()[2]


class _Replay:
    def __init__(self, where: str, calls: list[dict[str, Any]], scrubbers: Sequence[Scrubber]):
        self.where = where
        self.calls = calls
        self.scrubbers = scrubbers

    def _fail(self, index: int, detail: str) -> CassetteFormatError:
        return CassetteFormatError(self.where, f"call {index + 1} {detail}")

    def server(self, *, extra_checks: bool, **options: Any) -> ScriptedMCPServer:
        header, steps, definitions = self.parse()
        options.setdefault("name", header.get("name", "scripted-mcp"))
        options.setdefault("use_structured_content", bool(header.get("use_structured_content")))
        return ScriptedMCPServer(
            steps,  # type: ignore[arg-type]
            extra_checks=extra_checks,
            **definitions,
            **options,
        )

    def parse(self) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
        """The recorded server's header, its call steps and its listings."""
        header: dict[str, Any] = {}
        tools: dict[str, Any] = {}
        prompts: dict[str, Any] = {}
        resources: dict[str, Any] = {}
        templates: dict[str, Any] = {}
        prompt_reads: list[dict[str, Any]] = []
        resource_reads: list[dict[str, Any]] = []
        steps: list[dict[str, Any]] = []
        listings = {
            "list_tools": (tools, "name"),
            "list_prompts": (prompts, "name"),
            "list_resources": (resources, "uri"),
            "list_resource_templates": (templates, "uriTemplate"),
        }
        for index, call in enumerate(self.calls):
            method = call.get("method")
            if method == "server":
                header = call
            elif method in listings:
                table, key = listings[method]
                result = call.get("result")
                if not isinstance(result, list):
                    raise self._fail(index, f"({method}) needs a 'result' list.")
                for item in result:
                    if isinstance(item, Mapping) and key in item:
                        table.setdefault(str(item[key]), dict(item))
            elif method == "call_tool":
                steps.append(self._step(index, call, len(steps)))
            elif method == "get_prompt":
                prompt_reads.append(call)
            elif method == "read_resource":
                resource_reads.append(call)
            else:
                raise self._fail(index, f"has an unknown method {method!r}.")
        definitions = {
            "tools": list(tools.values()),
            "prompts": self._prompts(prompts, prompt_reads),
            "resources": self._resources(resources, resource_reads),
            "resource_templates": list(templates.values()),
        }
        return header, steps, definitions

    def _step(self, index: int, call: Mapping[str, Any], position: int) -> dict[str, Any]:
        from mcp.types import CallToolResult

        tool = call.get("tool")
        if not isinstance(tool, str):
            raise self._fail(index, "(call_tool) needs a 'tool' name.")
        expected = {"arguments": call.get("arguments"), "meta": call.get("meta")}
        scrubbers = self.scrubbers

        def match(live: MCPCall) -> bool:
            arguments = None if live.arguments is None else dict(live.arguments)
            meta = None if live.meta is None else dict(live.meta)
            actual = scrub({"arguments": _jsonable(arguments), "meta": _jsonable(meta)}, scrubbers)
            if actual != expected:
                raise MCPCallMismatch(
                    live.call_index, diff_json(expected, actual, f"call_tool({tool!r})")
                )
            return True

        step: dict[str, Any] = {"tool": tool, "match": match}
        try:
            if "error" in call:
                step["error"] = _error(call["error"])
            else:
                step["result"] = build(CallToolResult, call["result"])
        except Exception as error:
            raise self._fail(
                index, f"(call_tool {tool!r}) has a result that cannot be rebuilt: {error}"
            ) from None
        return step

    def _prompts(
        self, listed: dict[str, Any], reads: list[dict[str, Any]]
    ) -> list[ScriptedPrompt | Mapping[str, Any]]:
        from mcp.types import Prompt

        answers: dict[str, list[tuple[Any, Any]]] = {}
        for read in reads:
            name = str(read.get("name"))
            answers.setdefault(name, []).append((read.get("arguments") or {}, read))
            listed.setdefault(name, {"name": name})
        counter = [0]
        entries: list[ScriptedPrompt | Mapping[str, Any]] = []
        for name, definition in listed.items():
            if name not in answers:
                entries.append(definition)
                continue
            entries.append(
                ScriptedPrompt(
                    build(Prompt, definition), self._prompt_answer(name, answers[name], counter)
                )
            )
        return entries

    def _prompt_answer(self, name: str, recorded: list[tuple[Any, Any]], counter: list[int]) -> Any:
        from mcp.types import GetPromptResult

        def answer(arguments: dict[str, str]) -> Any:
            index = counter[0]
            counter[0] += 1
            for expected, read in recorded:
                if expected == arguments:
                    if "error" in read:
                        raise _error(read["error"])
                    return build(GetPromptResult, read["result"])
            lines = diff_json(recorded[0][0], arguments, f"get_prompt({name!r}).arguments")
            raise MCPCallMismatch(index, lines)

        return answer

    def _resources(
        self, listed: dict[str, Any], reads: list[dict[str, Any]]
    ) -> list[ScriptedResource | Mapping[str, Any]]:
        from mcp.types import ReadResourceResult, Resource

        contents: dict[str, Any] = {}
        for read in reads:
            uri = str(read.get("uri"))
            listed.setdefault(uri, {"uri": uri, "name": uri})
            if "result" in read:
                contents.setdefault(uri, read["result"])
        entries: list[ScriptedResource | Mapping[str, Any]] = []
        for uri, definition in listed.items():
            if uri in contents:
                entries.append(
                    ScriptedResource(
                        build(Resource, definition), build(ReadResourceResult, contents[uri])
                    )
                )
            else:
                entries.append(definition)
        return entries


def _error(data: Mapping[str, Any]) -> BaseException:
    protocol = data.get("protocol")
    if isinstance(protocol, Mapping) and isinstance(protocol.get("code"), int):
        return protocol_error(
            int(protocol["code"]), str(protocol.get("message", "")), protocol.get("data")
        )
    name, message = str(data["type"]), str(data["message"])
    module_name, _, qualname = name.rpartition(".")
    module = sys.modules.get(module_name)
    kind = getattr(module, qualname, None) if module is not None else None
    if isinstance(kind, type) and issubclass(kind, Exception):
        try:
            return kind(message)
        except Exception:
            pass
    return ReplayedMCPError(name, message)
