"""The type of the ``scripted_mcp_server`` pytest fixture, for strictly typed tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from mcp.types import Tool

    from ._server import ScriptedMCPServer, StepInput

__all__ = ["ScriptedMCPServerFactory"]


class ScriptedMCPServerFactory(Protocol):
    """What the ``scripted_mcp_server`` fixture is: call it like ``ScriptedMCPServer(...)``.

    Annotate the fixture with it, ``def test_x(scripted_mcp_server: ScriptedMCPServerFactory)``.
    Keyword options other than those spelled out here are the server's own.
    """

    def __call__(
        self,
        steps: Iterable[StepInput] = (),
        *,
        tools: Iterable[Tool | Mapping[str, Any]] = (),
        extra_checks: bool | None = None,
        **options: Any,
    ) -> ScriptedMCPServer: ...


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
