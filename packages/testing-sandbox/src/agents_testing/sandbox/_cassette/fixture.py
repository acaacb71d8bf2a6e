"""``SandboxCassetteFixture``: what the ``sandbox_cassette`` pytest fixture gives a test.

Public for annotations (``def test_x(sandbox_cassette: SandboxCassetteFixture)``); the
pytest plugin makes one per test and saves or checks it at teardown. pytest is not
imported here.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agents_testing.core.cassette import CassetteError

from .cassette import SandboxCassette

if TYPE_CHECKING:
    from agents_testing.core.cassette_pytest import CassetteOptions

    from .._session import ScriptedSandboxSession

__all__ = ["SandboxCassetteFixture"]


class SandboxCassetteFixture:
    """This test's sandbox cassette: ``await session(real)`` records ``real`` or replays.

    ``real`` is a live session, or a callable returning one (or an awaitable of one), so
    a replay never creates a sandbox. Record modes work as for ``model_cassette``;
    ``new_episodes`` records the whole session again. ``mode``, ``path``, ``cassette``,
    ``recording`` and ``replaying`` say what it is doing.
    """

    def __init__(self, options: CassetteOptions) -> None:
        self.mode = options.mode
        self.cassette = SandboxCassette(options.path, **options.settings)
        self.replaying: ScriptedSandboxSession | None = None
        self.recording = False
        self._options = options

    @property
    def path(self) -> Path:
        """Where this test's cassette is."""
        return self.cassette.path

    async def session(self, real: Any = None, *, manifest: Any = None) -> Any:
        """The session for this test (pass it as ``RunConfig(sandbox={"session": ...})``)."""
        if not self._options.records(self.cassette.exists):
            self._options.check_replayable()
            self.replaying = self.cassette.replay(manifest=manifest)
            return self.replaying
        if real is None:
            raise CassetteError(
                f"Recording {self.path} needs the real session: "
                "await sandbox_cassette.session(live_session_or_factory)."
            )
        live = real() if callable(real) else real
        if inspect.isawaitable(live):
            live = await live
        self.recording = True
        return self.cassette.record(live)


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
