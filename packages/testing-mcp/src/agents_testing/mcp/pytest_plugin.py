"""pytest plugin of the MCP boundary: the ``scripted_mcp_server`` and ``mcp_cassette``
fixtures.

Loaded by pytest through the ``pytest11`` entry point; the library never imports it.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Generator, Iterator
from typing import TYPE_CHECKING, Any, TypeVar, overload

import pytest

from agents_testing.core.cassette_pytest import (
    CassetteOptions,
    CassetteUse,
    register_cassette_fixture,
    use_cassette,
)
from agents_testing.core.pytest_support import ScriptedDoubles

if TYPE_CHECKING:
    from agents.mcp import MCPServer

    from agents_testing.mcp import (  # noqa: F401 (MCPCassette names a type argument)
        MCPCassette,
        ScriptedMCPServer,
        ScriptedMCPServerFactory,
    )

# The record-mode option and the cassette marker, shared with the other boundaries.
pytest_plugins = ["agents_testing.core.cassette_pytest"]
register_cassette_fixture("mcp_cassette", "mcp")

_REPLAYS = pytest.StashKey[list["ScriptedMCPServer"]]()
S = TypeVar("S", bound="MCPServer")


@pytest.fixture
def scripted_mcp_server(_agents_testing_doubles: ScriptedDoubles) -> ScriptedMCPServerFactory:
    """Make ``ScriptedMCPServer(...)`` doubles, each checked with ``assert_complete()`` at
    teardown.

    Unlike the bare class, its servers default to ``extra_checks=True`` (arguments and
    results checked against the tools' schemas, steps for unlisted tools refused, the
    first script violation reported at teardown) unless the test says
    ``@pytest.mark.agents_testing(extra_checks=False)`` or the call passes
    ``extra_checks=False``.
    """
    from agents_testing.mcp import ScriptedMCPServer

    return _agents_testing_doubles.checked("scripted_mcp_server", ScriptedMCPServer)


class MCPCassetteFixture(CassetteUse["MCPCassette", "ScriptedMCPServer"]):
    """This test's MCP cassette: ``server(real)`` records ``real`` or replays the cassette.

    ``real`` is a real server (``MCPServerStdio(...)``, ``MCPServerStreamableHttp(...)``)
    or a function returning one, called only when recording, so a replay never starts or
    reaches a server. Record modes work as for ``model_cassette``; ``new_episodes`` records
    the whole server again. The replayed server takes ``options`` (``tool_filter``,
    ``require_approval``, ``cache_tools_list``, ...), which a recording leaves to the real
    server: give both the same.
    """

    def __init__(self, item: pytest.Item, options: CassetteOptions) -> None:
        from agents_testing.mcp import MCPCassette

        super().__init__(options, MCPCassette(options.path, **options.settings))
        self._item = item

    @overload
    def server(self, real: None = None, **options: Any) -> ScriptedMCPServer: ...
    @overload
    def server(self, real: S | Callable[[], S], **options: Any) -> S | ScriptedMCPServer: ...
    def server(self, real: Any = None, **options: Any) -> Any:
        """The server for this test: ``real`` recorded, or the cassette replayed."""
        if not self._records():
            replaying = self._replayed(self.cassette.replay(**options))
            self._item.stash.setdefault(_REPLAYS, []).append(replaying)
            return replaying
        if real is None:
            raise pytest.UsageError(
                f"Recording {self.cassette.path} needs the real server: "
                "mcp_cassette.server(real_server_or_factory)."
            )
        live = real if _is_server(real) else real()
        if inspect.isawaitable(live):
            raise pytest.UsageError(
                "mcp_cassette.server() takes a server or a function returning one, not a "
                "coroutine; make the server first."
            )
        return self.cassette.record(self._recorded(live))


def _is_server(value: object) -> bool:
    from agents.mcp import MCPServer

    return isinstance(value, MCPServer)


@pytest.fixture
def mcp_cassette(
    request: pytest.FixtureRequest, _agents_testing_doubles: ScriptedDoubles
) -> Iterator[MCPCassetteFixture]:
    """This test's MCP cassette (``@pytest.mark.agents_cassette`` configures it).

    SDK tracing is off for the test, as with every fixture of ours (unless
    ``@pytest.mark.agents_testing(disable_tracing=False)``).
    """
    assert isinstance(request.node, pytest.Item)
    item = request.node
    yield from use_cassette(request, "mcp", lambda options: MCPCassetteFixture(item, options))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Show a failed test what its replayed MCP server saw: the SDK hands a differing call
    to the model as a tool error, so the test may fail on its own assertion instead."""
    report = yield
    if report.when != "call" or not report.failed:
        return report
    from agents_testing.core import AgentsTestingError

    for server in item.stash.get(_REPLAYS, []):
        try:
            server.assert_complete()
        except AgentsTestingError as error:
            report.sections.append(("mcp cassette replay", f"{type(error).__name__}: {error}"))
    return report
