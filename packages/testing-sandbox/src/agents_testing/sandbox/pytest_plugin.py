"""pytest plugin of the sandbox boundary: the ``scripted_sandbox`` and ``sandbox_cassette``
fixtures.

Loaded by pytest through the ``pytest11`` entry point; the library never imports it.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

import pytest

from agents_testing.core.cassette_pytest import CassetteOptions, finish_cassette
from agents_testing.core.pytest_support import ScriptedDoubles

if TYPE_CHECKING:
    from agents.sandbox.manifest import Manifest

    from agents_testing.core import AnyOrder
    from agents_testing.sandbox import (
        SandboxCassette,
        SandboxStepSpec,
        ScriptedSandboxFactory,
        ScriptedSandboxSession,
    )

# The record-mode option and the cassette marker, shared with the model plugin.
pytest_plugins = ["agents_testing.core.cassette_pytest"]


@pytest.fixture
def scripted_sandbox(
    _agents_testing_doubles: ScriptedDoubles,
) -> ScriptedSandboxFactory:
    """Make sessions like ``scripted_sandbox_session(...)``, checked at teardown.

    Unlike the bare function, its sessions default to ``extra_checks=True`` unless the
    test says ``@pytest.mark.agents_testing(extra_checks=False)`` or the call passes
    ``extra_checks=False``.
    """
    from agents_testing.sandbox import scripted_sandbox_session

    checked = _agents_testing_doubles.options.extra_checks

    def scripted(
        steps: Iterable[SandboxStepSpec | AnyOrder[SandboxStepSpec]] = (),
        *,
        manifest: Manifest | None = None,
        extra_checks: bool | None = None,
    ) -> ScriptedSandboxSession:
        return scripted_sandbox_session(
            steps,
            manifest=manifest,
            extra_checks=checked if extra_checks is None else extra_checks,
        )

    scripted.__doc__ = scripted_sandbox_session.__doc__
    return _agents_testing_doubles.track("scripted_sandbox", scripted)


class SandboxCassetteFixture:
    """This test's sandbox cassette: ``await session(real)`` records ``real`` or replays.

    ``real`` is a live session, or a callable returning one (or an awaitable of one), so
    a replay never creates a sandbox. Record modes work as for ``model_cassette``;
    ``new_episodes`` records the whole session again.
    """

    def __init__(self, options: CassetteOptions) -> None:
        from agents_testing.sandbox import SandboxCassette

        self.mode = options.mode
        self.cassette: SandboxCassette = SandboxCassette(options.path, **options.settings)
        self.replaying: ScriptedSandboxSession | None = None
        self.recording = False

    async def session(self, real: Any = None, *, manifest: Any = None) -> Any:
        """The session for this test (pass it as ``RunConfig(sandbox={"session": ...})``)."""
        records = self.mode in ("all", "new_episodes") or (
            self.mode == "once" and not self.cassette.exists
        )
        if not records:
            self.replaying = self.cassette.replay(manifest=manifest)
            return self.replaying
        if real is None:
            raise pytest.UsageError(
                f"Recording {self.cassette.path} needs the real session: "
                "await sandbox_cassette.session(live_session_or_factory)."
            )
        live = real() if callable(real) else real
        if inspect.isawaitable(live):
            live = await live
        self.recording = True
        return self.cassette.record(live)


@pytest.fixture
def sandbox_cassette(request: pytest.FixtureRequest) -> Iterator[SandboxCassetteFixture]:
    """This test's sandbox cassette (``@pytest.mark.agents_cassette`` configures it)."""
    assert isinstance(request.node, pytest.Item)
    fixture = SandboxCassetteFixture(CassetteOptions.for_item(request.node, "sandbox"))
    yield fixture
    finish_cassette(request.node, fixture)
