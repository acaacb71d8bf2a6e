"""The cassette file: one JSON document per test, shared by the model and sandbox boundaries.

A cassette keeps what crossed one normalized boundary during a recorded run, one call
per block, so that a later run can replay it with no provider. The file is written with
sorted keys and a fixed layout, and holds nothing that changes between two recordings of
the same run, so re-recording an unchanged workflow rewrites the very same bytes.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from .._errors import AgentsTestingError, UnexpectedCallError, ordinal

__all__ = [
    "FORMAT_VERSION",
    "CassetteError",
    "CassetteFormatError",
    "CassetteMismatch",
    "CassetteNotFound",
    "CassetteRecordingBlocked",
    "CassetteVersionError",
    "CassetteWriteError",
    "dump_cassette",
    "iter_cassette",
    "load_cassette",
    "read_cassette",
    "write_cassette",
]

FORMAT_VERSION = 1
"""The newest cassette layout this release reads and the one it writes."""

_VERSION_KEY = "agents_testing_cassette"


class CassetteError(AgentsTestingError):
    """Base of every error about recording or replaying a cassette."""


class CassetteFormatError(CassetteError):
    """A cassette file cannot be read: it is not a cassette, or is damaged.

    ``path`` is the file (``None`` for text not read from a file), ``detail`` says what
    is wrong and ``location`` is the JSON path of the damaged part inside the document
    (``calls[2].response.output[0]``, 0-based; ``None`` when the whole file is at fault).
    """

    def __init__(self, path: str | None, detail: str, location: str | None = None) -> None:
        self.path = path
        self.detail = detail
        self.location = location
        where = f"Cassette {path}" if path is not None else "Cassette"
        at = f" at {location}" if location else ""
        super().__init__(f"{where} cannot be read{at}: {detail}")

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.path, self.detail, self.location))


class CassetteWriteError(CassetteError):
    """Writing a cassette was refused because a recorded value has no JSON form.

    The run itself went on as with the live boundary alone (a server or session may hand
    anything to its caller); only the recording cannot be written. ``path`` is the file
    and ``detail`` what was found, e.g. a value that contains itself.
    """

    def __init__(self, path: str | None, detail: str) -> None:
        self.path = path
        self.detail = detail
        target = f" {path}" if path is not None else ""
        super().__init__(
            f"Refusing to write the cassette{target}: {detail} A cassette holds JSON "
            f"data, as a real model, server or session sends it; record one that answers "
            f"with such data."
        )

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

    def __init__(self, path: str, boundary: str, earlier: str | None = None) -> None:
        self.path = path
        self.boundary = boundary
        #: Where an earlier release of agents-testing would have kept this cassette, when
        #: a file is there: it only needs moving.
        self.earlier = earlier
        if earlier is not None:
            advice = (
                f"A cassette for this test is at {earlier}, where earlier releases named it; "
                f"move it (git mv {earlier} {path})."
            )
        else:
            advice = (
                "Record it once against the real provider with `pytest "
                "--agents-record-mode=once <this test>` (when the CI environment variable is "
                "set, add --agents-record-in-ci), then commit the file."
            )
        super().__init__(
            f"No {boundary} cassette at {path}, and record mode 'none' only replays. {advice}"
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.path, self.boundary, self.earlier))


class CassetteRecordingBlocked(CassetteError):
    """A test would record its cassette, but real model requests are blocked for it.

    ``path`` is the cassette that would be written and ``test`` the pytest node id.
    Raised before the real provider is touched: recording means reaching it, and the
    request guard promises that nothing does unless the run or the test says so.
    """

    def __init__(self, path: str, test: str) -> None:
        self.path = path
        self.test = test
        super().__init__(
            f"{test}: recording {path} needs the real provider, but real model requests "
            f"are blocked (--agents-block-model-requests or agents_block_model_requests = "
            f"true). Record with `pytest --agents-allow-model-requests "
            f"--agents-record-mode=...` (it lifts an ini-enabled guard for that run), or "
            f"mark the test with @pytest.mark.agents_allow_model_requests."
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.path, self.test))


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


def iter_cassette(
    boundary: str, calls: Sequence[Mapping[str, Any]], *, packages: Sequence[str]
) -> Iterator[str]:
    """The text of a cassette holding ``calls``, in pieces as the encoder produces them.

    Sorted keys, one call per block. ``packages`` are the distributions whose versions
    are written down (the SDK and the boundary package that wrote it), for the reader of
    a diff. Hand the pieces to :func:`write_cassette`, which streams them into a
    temporary file.
    """
    document = {
        _VERSION_KEY: FORMAT_VERSION,
        "boundary": boundary,
        "written_by": _versions(packages),
        "calls": list(calls),
    }
    encoder = json.JSONEncoder(sort_keys=True, indent=2, ensure_ascii=False)
    yield from encoder.iterencode(document)
    yield "\n"


def dump_cassette(
    boundary: str, calls: Sequence[Mapping[str, Any]], *, packages: Sequence[str]
) -> str:
    """The text of a cassette holding ``calls`` (:func:`iter_cassette` joined)."""
    return "".join(iter_cassette(boundary, calls, packages=packages))


def write_cassette(path: str | os.PathLike[str], text: str | Iterable[str]) -> None:
    """Write cassette ``text`` (a string or its pieces) to ``path``, replacing it whole.

    The text goes to a temporary file in the same folder, which replaces the cassette
    only once it is complete (``os.replace``). A crash, Ctrl-C or an error part-way
    (in the serializer producing the pieces, say) leaves the previous cassette as it
    was, and the temporary file is removed (short of the process being killed).
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    pieces: Iterable[str] = (text,) if isinstance(text, str) else text
    # Unique per writer, so that two xdist workers recording at once never share it.
    temporary = target.with_name(f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        with open(temporary, "x", encoding="utf-8", newline="\n") as stream:
            for piece in pieces:
                stream.write(piece)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def load_cassette(text: str, boundary: str, path: str | None = None) -> list[dict[str, Any]]:
    """The recorded calls of cassette ``text``; raise :class:`CassetteFormatError` if unreadable."""
    try:
        document = json.loads(text)
    except ValueError as error:
        raise CassetteFormatError(path, f"it is not valid JSON ({error}).") from None
    except RecursionError:
        raise CassetteFormatError(path, "it is nested too deeply to be a cassette.") from None
    if not isinstance(document, dict) or _VERSION_KEY not in document:
        raise CassetteFormatError(
            path, f"it is not an agents-testing cassette (no {_VERSION_KEY!r} key)."
        )
    version = document[_VERSION_KEY]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise CassetteFormatError(
            path, f"its format version {version!r} is not valid.", _VERSION_KEY
        )
    if version > FORMAT_VERSION:
        raise CassetteVersionError(path, version)
    if document.get("boundary") != boundary:
        raise CassetteFormatError(
            path,
            f"it records the {document.get('boundary')!r} boundary, not {boundary!r}; "
            f"load it with the matching boundary's cassette functions.",
            "boundary",
        )
    calls = document.get("calls")
    if not isinstance(calls, list):
        raise CassetteFormatError(path, "its 'calls' must be a list of objects.", "calls")
    for index, call in enumerate(calls):
        if not isinstance(call, dict):
            raise CassetteFormatError(
                path, "its 'calls' must be a list of objects.", f"calls[{index}]"
            )
    return calls


def read_cassette(path: str | os.PathLike[str], boundary: str) -> list[dict[str, Any]]:
    """The recorded calls of the cassette file at ``path``."""
    name = os.fspath(path)
    try:
        text = Path(name).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CassetteNotFound(name, boundary) from None
    except UnicodeDecodeError as error:
        raise CassetteFormatError(name, f"it is not UTF-8 text ({error}).") from None
    except OSError as error:
        raise CassetteFormatError(name, f"it cannot be opened ({error}).") from None
    return load_cassette(text, boundary, name)


# Public names show agents_testing.core, however this module was first imported.
from ..lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
