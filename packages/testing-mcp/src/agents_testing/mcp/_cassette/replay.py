"""Replaying a cassette: its listings and calls rebuilt as a ``ScriptedMCPServer``.

Each recorded tool call becomes a step whose matcher compares the live call with it and
raises :class:`MCPCallMismatch` with a readable diff; prompts and resources answer what
was recorded for them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from agents_testing.core.cassette import (
    CassetteFormatError,
    Scrubber,
    diff_json,
    rebuilt_error,
    recorded_matcher,
    scrub,
)

from .._call import MCPCall
from .._listing.definitions import ScriptedPrompt, ScriptedResource
from .._server import ScriptedMCPServer
from .._wire import build, protocol_error
from .errors import MCPCallMismatch, ReplayedMCPError
from .recorder import jsonable

__all__ = ["Replay"]


class Replay:
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
        server = ScriptedMCPServer(
            steps,  # type: ignore[arg-type]
            extra_checks=extra_checks,
            **definitions,
            **options,
        )
        # A recorded call is what the runner saw, after the real server's own retries
        # (max_retry_attempts): replaying it once reproduces that outcome.
        server._retries_recorded = True
        return server

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
        recorded = {"arguments": call.get("arguments"), "meta": call.get("meta")}

        def live(call: MCPCall) -> Any:
            arguments = None if call.arguments is None else dict(call.arguments)
            meta = None if call.meta is None else dict(call.meta)
            return {"arguments": jsonable(arguments), "meta": jsonable(meta)}

        match = recorded_matcher(
            recorded, live, self.scrubbers, f"call_tool({tool!r})", MCPCallMismatch
        )
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
            # Compared as recorded: the cassette's scrubbers run on the live side too, so
            # what was scrubbed from the recording matches, and never shows in the diff.
            live = scrub(jsonable(arguments), self.scrubbers)
            for expected, read in recorded:
                if expected == live:
                    if "error" in read:
                        raise _error(read["error"])
                    return build(GetPromptResult, read["result"])
            lines = diff_json(recorded[0][0], live, f"get_prompt({name!r}).arguments")
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
    return rebuilt_error(data, ReplayedMCPError)
