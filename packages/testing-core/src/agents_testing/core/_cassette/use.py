"""What a ``*_cassette`` pytest fixture gives a test: record the live boundary, or replay.

:class:`CassetteUse` decides from the record mode whether the test records through the
real boundary or replays its cassette, and remembers which, so that the plugin saves the
recording or checks the replay at teardown. A boundary's fixture class adds the method a
test calls (``model()``, ``session()``, ``server()``). pytest is not imported here.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

# Nothing more at import: the plugins of the boundaries define their fixture classes on it.
if TYPE_CHECKING:
    from .boundary import BoundaryCassette
    from .modes import RecordMode

__all__ = ["CassetteUse"]

K = TypeVar("K", bound="BoundaryCassette")
R = TypeVar("R")
T = TypeVar("T")


class _Options(Protocol):
    """What a test's cassette settings say (``cassette_pytest.CassetteOptions``)."""

    @property
    def mode(self) -> RecordMode: ...

    @property
    def test(self) -> str: ...

    @property
    def recording_blocked(self) -> bool: ...

    def records(self, exists: bool) -> bool: ...

    def check_replayable(self) -> None: ...


class CassetteUse(Generic[K, R]):
    """This test's cassette at one boundary: ``cassette`` records ``real`` or replays.

    ``mode``, ``path``, ``cassette``, ``recording`` and ``replaying`` (the replaying
    double, checked with ``assert_complete()`` at teardown) say what it is doing.
    """

    def __init__(self, options: _Options, cassette: K) -> None:
        self.mode = options.mode
        self.cassette = cassette
        self.replaying: R | None = None
        self.recording = False
        self._options = options

    @property
    def path(self) -> Path:
        """Where this test's cassette is."""
        return self.cassette.path

    def _records(self, *, reaches_provider: bool = False) -> bool:
        """Whether this test records or replays (a missing cassette then says where an
        older one is). Recording through a model provider
        while model requests are blocked is refused (``reaches_provider``)."""
        if not self._options.records(self.cassette.exists):
            self._options.check_replayable()
            return False
        if reaches_provider and self._options.recording_blocked:
            from .file import CassetteRecordingBlocked

            raise CassetteRecordingBlocked(str(self.path), self._options.test)
        return True

    def _replayed(self, double: R) -> R:
        """``double`` is the replay of this test: checked at teardown."""
        self.replaying = double
        return double

    def _recorded(self, live: T) -> T:
        """``live`` is being recorded: the recording is saved at teardown."""
        self.recording = True
        return live
