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

from typing import TYPE_CHECKING, Any, TypeVar

from agents_testing.core.cassette import BoundaryCassette

from .._server import ScriptedMCPServer
from .errors import BOUNDARY, MCPCallMismatch, ReplayedMCPError
from .recorder import LISTINGS, Recorder
from .replay import Replay

if TYPE_CHECKING:
    from agents.mcp import MCPServer

__all__ = ["MCPCallMismatch", "MCPCassette", "ReplayedMCPError"]

S = TypeVar("S", bound="MCPServer")


class MCPCassette(BoundaryCassette):
    """The MCP cassette file of one test.

    ``scrubbers``, ``secrets``, ``allowed_secrets`` and ``allow_secrets`` work as for
    ``ModelCassette``: every recorded string goes through the scrubbers, and a secret left
    in the recording (or one of ``secrets``) stops the write unless it is allowed.
    """

    boundary = BOUNDARY
    packages = ("openai-agents", "mcp", "agents-testing-mcp")

    def record(self, server: S) -> S:
        """Record every request made of the live ``server``; returns the same server."""
        recorder = Recorder(server)
        for method in ("call_tool", "get_prompt", "read_resource", "list_tools", *LISTINGS):
            if callable(getattr(server, method, None)) and method not in vars(server):
                recorder.wrap_method(method)
        self._recorder = recorder
        return server

    def _recording(self, recorder: Recorder) -> list[Any]:
        return [recorder.header(), *recorder.calls]

    def replay(self, *, extra_checks: bool = True, **options: Any) -> ScriptedMCPServer:
        """The cassette as a :class:`ScriptedMCPServer`, one step per recorded tool call.

        ``options`` are the server's own (``tool_filter``, ``require_approval``, ...);
        ``name`` and ``use_structured_content`` default to the recorded server's. With
        ``extra_checks`` (the default) a differing call is reported again by
        ``assert_complete()``, even when the SDK turned it into a message for the model.
        """
        return Replay(str(self.path), self._read(), self.scrubbers).server(
            extra_checks=extra_checks, **options
        )

    def definitions(self) -> dict[str, Any]:
        """What the recorded server listed, as ``ScriptedMCPServer`` arguments: ``tools``,
        ``prompts``, ``resources`` and ``resource_templates`` (prompts and resources it was
        asked for answer as recorded). For a scripted server with the real server's tools:
        ``ScriptedMCPServer(steps, **cassette.definitions())``."""
        replay = Replay(str(self.path), self._read(), self.scrubbers)
        return replay.parse()[2]


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
