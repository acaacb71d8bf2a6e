"""One test's cassette file at one boundary: what a recording may not write, and the file.

:class:`BoundaryCassette` is what the boundaries' cassettes (``ModelCassette``,
``SandboxCassette``, ``MCPCassette``) share: the path, the scrubbers and the secrets the
recording is scanned for, and the checked, scrubbed recording written atomically. A
boundary says what it records and how a replay answers; :func:`recorded_matcher` makes
the matcher of a replayed step, which compares the live call with the recorded one.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, ClassVar, Protocol, TypeVar

from .diff import diff_json
from .file import (
    CassetteFormatError,
    CassetteWriteError,
    dump_cassette,
    iter_cassette,
    read_cassette,
    write_cassette,
)
from .recorder import CallRecorder
from .secrets import (
    AllowedSecret,
    CassetteSecretError,
    Scrubber,
    allowed_secret_problem,
    scan_for_secrets,
    scrub,
    scrubber_problem,
)

__all__ = ["BoundaryCassette", "recorded_matcher"]


class _Call(Protocol):
    @property
    def call_index(self) -> int: ...


C = TypeVar("C", bound=_Call)


class BoundaryCassette:
    """The cassette file of one test at one boundary.

    ``scrubbers`` rewrite recorded strings (a regex, a ``(regex, replacement)`` pair or
    a callable); ``secrets`` are further values that must never be written;
    ``allowed_secrets`` lists harmless values the secret scan lets through (exact
    strings, or compiled patterns the whole value must match); ``allow_secrets=True``
    skips the scan altogether. A subclass names its ``boundary`` and the ``packages``
    whose versions the file notes, and says what it recorded (:meth:`_recording`).
    """

    boundary: ClassVar[str]
    packages: ClassVar[tuple[str, ...]]
    #: How a test starts recording, for the error of a save with nothing recorded.
    record_hint: ClassVar[str] = "record()"

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
        for scrubber in scrubbers:
            problem = scrubber_problem(scrubber)
            if problem is not None:
                raise CassetteFormatError(None, f"invalid scrubber: {problem}.")
        self.scrubbers = tuple(scrubbers)
        self.secrets = tuple(secrets)
        self.allow_secrets = bool(allow_secrets)
        self.allowed_secrets = tuple(allowed_secrets)
        for entry in self.allowed_secrets:
            problem = allowed_secret_problem(entry)
            if problem is not None:
                raise CassetteFormatError(None, f"invalid allowed secret: {problem}.")
        self._recorder: CallRecorder | None = None

    @property
    def exists(self) -> bool:
        """Whether the cassette file is there."""
        return self.path.is_file()

    # -- what a boundary says ----------------------------------------------------------

    def _recording(self, recorder: Any) -> list[Any]:
        """What ``recorder`` recorded, as the cassette's calls (not yet scrubbed)."""
        raise NotImplementedError

    def _live_secrets(self, recorder: Any) -> list[str]:
        """Values the recording must not hold besides ``secrets``: the API key in use."""
        return list(filter(None, [os.environ.get("OPENAI_API_KEY")]))

    def _written(self, calls: list[Any]) -> list[Any]:
        """The calls as the file holds them (checked and scrubbed already)."""
        return calls

    # -- writing and reading -----------------------------------------------------------

    def _checked_calls(self) -> list[Any]:
        """The recording, scrubbed; raises ``CassetteSecretError`` (a secret left in it) or
        ``CassetteWriteError`` (a value with no JSON form)."""
        recorder = self._recorder
        if recorder is None:
            raise CassetteFormatError(
                str(self.path), f"nothing was recorded; call {self.record_hint} first."
            )
        if recorder.unwritable:
            raise CassetteWriteError(str(self.path), f"{recorder.unwritable[0]}.")
        calls: list[Any] = scrub(self._recording(recorder), self.scrubbers)
        if not self.allow_secrets:
            findings = scan_for_secrets(
                calls,
                live_secrets=[*self._live_secrets(recorder), *self.secrets],
                root="calls",
                allowed=self.allowed_secrets,
            )
            if findings:
                raise CassetteSecretError(str(self.path), findings)
        return self._written(calls)

    def dumps(self) -> str:
        """The cassette text :meth:`save` would write; raises ``CassetteSecretError``."""
        return dump_cassette(self.boundary, self._checked_calls(), packages=self.packages)

    def save(self) -> None:
        """Scan the recording for secrets and write the cassette file atomically.

        Nothing is written when the scan finds a secret; a write that is interrupted
        leaves the previous cassette as it was.
        """
        calls = self._checked_calls()
        write_cassette(self.path, iter_cassette(self.boundary, calls, packages=self.packages))

    def _read(self) -> list[dict[str, Any]]:
        """The recorded calls of the file; ``CassetteNotFound`` or ``CassetteFormatError``."""
        return read_cassette(self.path, self.boundary)


def recorded_matcher(
    recorded: Any,
    live: Callable[[C], Any],
    scrubbers: Sequence[Scrubber],
    path: str,
    mismatch: Callable[[int, list[str]], BaseException],
) -> Callable[[C], bool]:
    """The matcher of a replayed step: the live call, as ``live(call)`` writes it in the
    cassette and scrubbed as the recording was, must equal ``recorded``; else it raises
    ``mismatch(call_index, differences)``, each difference named from ``path``."""

    def match(call: C) -> bool:
        actual = scrub(live(call), scrubbers)
        if actual != recorded:
            raise mismatch(call.call_index, diff_json(recorded, actual, path))
        return True

    return match
