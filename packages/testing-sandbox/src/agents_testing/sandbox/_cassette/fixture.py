"""``SandboxCassetteFixture``: what the ``sandbox_cassette`` pytest fixture gives a test.

Public for annotations (``def test_x(sandbox_cassette: SandboxCassetteFixture)``); the
pytest plugin makes one per test and saves or checks it at teardown. pytest is not
imported here.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any

from agents_testing.core.cassette import CassetteError, CassetteUse

from .._session import ScriptedSandboxSession
from .cassette import SandboxCassette

if TYPE_CHECKING:
    from agents_testing.core.cassette_pytest import CassetteOptions

__all__ = ["SandboxCassetteFixture"]


class SandboxCassetteFixture(CassetteUse[SandboxCassette, ScriptedSandboxSession]):
    """This test's sandbox cassette: ``await session(real)`` records ``real`` or replays.

    ``real`` is a live session, or a callable returning one (or an awaitable of one), so
    a replay never creates a sandbox. Record modes work as for ``model_cassette``;
    ``new_episodes`` records the whole session again. ``mode``, ``path``, ``cassette``,
    ``recording`` and ``replaying`` say what it is doing.
    """

    def __init__(self, options: CassetteOptions) -> None:
        super().__init__(options, SandboxCassette(options.path, **options.settings))

    async def session(self, real: Any = None, *, manifest: Any = None) -> Any:
        """The session for this test (pass it as ``RunConfig(sandbox={"session": ...})``)."""
        if not self._records():
            return self._replayed(self.cassette.replay(manifest=manifest))
        if real is None:
            raise CassetteError(
                f"Recording {self.path} needs the real session: "
                "await sandbox_cassette.session(live_session_or_factory)."
            )
        live = real() if callable(real) else real
        if inspect.isawaitable(live):
            live = await live
        return self.cassette.record(self._recorded(live))


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
