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

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from agents_testing.core.cassette import (
    AllowedSecret,
    CassetteFormatError,
    CassetteSecretError,
    CassetteWriteError,
    Scrubber,
    allowed_secret_problem,
    dump_cassette,
    iter_cassette,
    read_cassette,
    scan_for_secrets,
    scrub,
    write_cassette,
)

from .._server import ScriptedMCPServer
from .errors import BOUNDARY, MCPCallMismatch, ReplayedMCPError
from .recorder import LISTINGS, Recorder
from .replay import Replay

if TYPE_CHECKING:
    from agents.mcp import MCPServer

__all__ = ["MCPCallMismatch", "MCPCassette", "ReplayedMCPError"]

S = TypeVar("S", bound="MCPServer")

_PACKAGES = ("openai-agents", "mcp", "agents-testing-mcp")


class MCPCassette:
    """The MCP cassette file of one test.

    ``scrubbers``, ``secrets``, ``allowed_secrets`` and ``allow_secrets`` work as for
    ``ModelCassette``: every recorded string goes through the scrubbers, and a secret left
    in the recording (or one of ``secrets``) stops the write unless it is allowed.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        scrubbers: Sequence[Scrubber] = (),
        secrets: Iterable[str] = (),
        allow_secrets: bool = False,
        allowed_secrets: Iterable[AllowedSecret] = (),
    ) -> None:
        self.path = Path(path)
        self.scrubbers = tuple(scrubbers)
        self.secrets = tuple(secrets)
        self.allow_secrets = bool(allow_secrets)
        self.allowed_secrets = tuple(allowed_secrets)
        for entry in self.allowed_secrets:
            problem = allowed_secret_problem(entry)
            if problem is not None:
                raise CassetteFormatError(None, f"invalid allowed secret: {problem}.")
        self._recorder: Recorder | None = None

    @property
    def exists(self) -> bool:
        """Whether the cassette file is there."""
        return self.path.is_file()

    def record(self, server: S) -> S:
        """Record every request made of the live ``server``; returns the same server."""
        recorder = Recorder(server)
        for method in ("call_tool", "get_prompt", "read_resource", "list_tools", *LISTINGS):
            if callable(getattr(server, method, None)) and method not in vars(server):
                recorder.wrap(method)
        self._recorder = recorder
        return server

    def _checked_calls(self) -> list[Any]:
        """The recording, scrubbed; raises ``CassetteSecretError`` (a secret left in it) or
        ``CassetteWriteError`` (a value with no JSON form)."""
        if self._recorder is None:
            raise CassetteFormatError(str(self.path), "nothing was recorded; call record() first.")
        if self._recorder.unwritable:
            raise CassetteWriteError(str(self.path), f"{self._recorder.unwritable[0]}.")
        calls: list[Any] = scrub([self._recorder.header(), *self._recorder.calls], self.scrubbers)
        if not self.allow_secrets:
            live = [*self.secrets, *filter(None, [os.environ.get("OPENAI_API_KEY")])]
            findings = scan_for_secrets(
                calls, live_secrets=live, root="calls", allowed=self.allowed_secrets
            )
            if findings:
                raise CassetteSecretError(str(self.path), findings)
        return calls

    def dumps(self) -> str:
        """The cassette text :meth:`save` would write; raises ``CassetteSecretError``."""
        return dump_cassette(BOUNDARY, self._checked_calls(), packages=_PACKAGES)

    def save(self) -> None:
        """Scan the recording for secrets and write the cassette file atomically."""
        calls = self._checked_calls()
        write_cassette(self.path, iter_cassette(BOUNDARY, calls, packages=_PACKAGES))

    def replay(self, *, extra_checks: bool = True, **options: Any) -> ScriptedMCPServer:
        """The cassette as a :class:`ScriptedMCPServer`, one step per recorded tool call.

        ``options`` are the server's own (``tool_filter``, ``require_approval``, ...);
        ``name`` and ``use_structured_content`` default to the recorded server's. With
        ``extra_checks`` (the default) a differing call is reported again by
        ``assert_complete()``, even when the SDK turned it into a message for the model.
        """
        return Replay(str(self.path), read_cassette(self.path, BOUNDARY), self.scrubbers).server(
            extra_checks=extra_checks, **options
        )

    def definitions(self) -> dict[str, Any]:
        """What the recorded server listed, as ``ScriptedMCPServer`` arguments: ``tools``,
        ``prompts``, ``resources`` and ``resource_templates`` (prompts and resources it was
        asked for answer as recorded). For a scripted server with the real server's tools:
        ``ScriptedMCPServer(steps, **cassette.definitions())``."""
        replay = Replay(str(self.path), read_cassette(self.path, BOUNDARY), self.scrubbers)
        return replay.parse()[2]


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
