"""The cassette file: one JSON document per test, shared by the model and sandbox boundaries.

A cassette keeps what crossed one normalized boundary during a recorded run, one call
per block, so that a later run can replay it with no provider. The file is written with
sorted keys and a fixed layout, and holds nothing that changes between two recordings of
the same run, so re-recording an unchanged workflow rewrites the very same bytes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from .._errors import AgentsTestingError, UnexpectedCallError, ordinal

__all__ = [
    "FORMAT_VERSION",
    "CassetteError",
    "CassetteFormatError",
    "CassetteMismatch",
    "CassetteNotFound",
    "CassetteVersionError",
    "RecordMode",
    "dump_cassette",
    "load_cassette",
    "read_cassette",
    "resolve_record_mode",
    "write_cassette",
]

FORMAT_VERSION = 1
"""The newest cassette layout this release reads and the one it writes."""

_VERSION_KEY = "agents_testing_cassette"

RecordMode = Literal["none", "once", "new_episodes", "all"]
RECORD_MODES: tuple[RecordMode, ...] = ("none", "once", "new_episodes", "all")


class CassetteError(AgentsTestingError):
    """Base of every error about recording or replaying a cassette."""


class CassetteFormatError(CassetteError):
    """A cassette file cannot be read: it is not a cassette, or is damaged.

    ``path`` is the file (``None`` for text not read from a file) and ``detail`` says
    what is wrong.
    """

    def __init__(self, path: str | None, detail: str) -> None:
        self.path = path
        self.detail = detail
        where = f"Cassette {path}" if path is not None else "Cassette"
        super().__init__(f"{where} cannot be read: {detail}")

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.path, self.detail))


class CassetteVersionError(CassetteFormatError):
    """A cassette was written in a newer format than this release reads.

    ``found`` is the file's format version; ``supported`` the newest one readable here.
    """

    def __init__(self, path: str | None, found: int) -> None:
        self.found = found
        self.supported = FORMAT_VERSION
        CassetteFormatError.__init__(
            self,
            path,
            f"it has format version {found}, but this agents-testing reads versions up to "
            f"{FORMAT_VERSION}. Upgrade the agents-testing packages, or re-record the "
            f"cassette with this release.",
        )
        self.args = (str(self),)

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.path, self.found))


class CassetteNotFound(CassetteError):
    """A test must replay a cassette (record mode ``none``) but there is none yet.

    ``path`` is where the cassette was looked for; ``boundary`` is ``"model"`` or
    ``"sandbox"``.
    """

    def __init__(self, path: str, boundary: str) -> None:
        self.path = path
        self.boundary = boundary
        super().__init__(
            f"No {boundary} cassette at {path}, and record mode 'none' only replays. Record "
            f"it once against the real provider with `pytest --agents-record-mode=once "
            f"<this test>` (outside CI: the CI environment variable forces 'none'), then "
            f"commit the file."
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.path, self.boundary))


class CassetteMismatch(CassetteError, UnexpectedCallError):
    """A replayed call differs from the recorded one.

    ``boundary`` is ``"model"`` or ``"sandbox"``, ``call_index`` the 0-based position of
    the call, ``differences`` one readable line per differing field (``path: recorded
    ..., now ...``).
    """

    def __init__(self, boundary: str, call_index: int, differences: Sequence[str]) -> None:
        self.boundary = boundary
        self.call_index = call_index
        self.differences = tuple(differences)
        lines = "\n".join(f"  {line}" for line in self.differences)
        super().__init__(
            f"The {boundary} call {ordinal(call_index)} differs from the recorded one:\n"
            f"{lines}\n"
            f"If the change is intended, re-record the cassette (pytest "
            f"--agents-record-mode=all), or leave the changed part out of the comparison."
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.boundary, self.call_index, self.differences))


def _versions(packages: Sequence[str]) -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    found: dict[str, str] = {}
    for name in packages:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            continue
    return found


def dump_cassette(
    boundary: str, calls: Sequence[Mapping[str, Any]], *, packages: Sequence[str]
) -> str:
    """The text of a cassette holding ``calls``: sorted keys, one call per block.

    ``packages`` are the distributions whose versions are written down (the SDK and the
    boundary package that wrote it), for the reader of a diff.
    """
    document = {
        _VERSION_KEY: FORMAT_VERSION,
        "boundary": boundary,
        "written_by": _versions(packages),
        "calls": list(calls),
    }
    return json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def write_cassette(path: str | os.PathLike[str], text: str) -> None:
    """Write cassette ``text`` to ``path`` (creating folders), replacing it whole."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    temporary.write_text(text, encoding="utf-8")
    # A reader never sees half a cassette, even when two workers record at once.
    os.replace(temporary, target)


def load_cassette(text: str, boundary: str, path: str | None = None) -> list[dict[str, Any]]:
    """The recorded calls of cassette ``text``; raise :class:`CassetteFormatError` if unreadable."""
    try:
        document = json.loads(text)
    except ValueError as error:
        raise CassetteFormatError(path, f"it is not valid JSON ({error}).") from None
    if not isinstance(document, dict) or _VERSION_KEY not in document:
        raise CassetteFormatError(
            path, f"it is not an agents-testing cassette (no {_VERSION_KEY!r} key)."
        )
    version = document[_VERSION_KEY]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise CassetteFormatError(path, f"its format version {version!r} is not valid.")
    if version > FORMAT_VERSION:
        raise CassetteVersionError(path, version)
    if document.get("boundary") != boundary:
        raise CassetteFormatError(
            path,
            f"it records the {document.get('boundary')!r} boundary, not {boundary!r}; "
            f"load it with the matching boundary's cassette functions.",
        )
    calls = document.get("calls")
    if not isinstance(calls, list) or not all(isinstance(call, dict) for call in calls):
        raise CassetteFormatError(path, "its 'calls' must be a list of objects.")
    return calls


def read_cassette(path: str | os.PathLike[str], boundary: str) -> list[dict[str, Any]]:
    """The recorded calls of the cassette file at ``path``."""
    name = os.fspath(path)
    try:
        text = Path(name).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CassetteNotFound(name, boundary) from None
    return load_cassette(text, boundary, name)


def resolve_record_mode(
    requested: str | None, environ: Mapping[str, str] | None = None
) -> RecordMode:
    """The record mode in effect: ``requested`` (default ``none``), but always ``none`` in CI.

    CI is recognized by a ``CI`` environment variable set to anything but an empty
    string, ``0`` or ``false``: there is no provider to record from there.
    """
    env = os.environ if environ is None else environ
    mode = "none" if requested is None else requested
    if mode not in RECORD_MODES:
        raise CassetteError(f"Unknown record mode {mode!r}; use one of {', '.join(RECORD_MODES)}.")
    if env.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
        return "none"
    return mode
