"""pytest support for cassettes: ``--agents-record-mode``, the marker, one file per test.

A plugin module of its own, loaded by the boundary plugins (``pytest_plugins``), so the
options and marker exist once however many boundaries are installed. A boundary plugin
registers its fixture with :func:`register_cassette_fixture`, reads the settings of a
test with :meth:`CassetteOptions.for_item`, gives the test a :class:`CassetteUse` and
calls :func:`finish_cassette` at teardown. The record mode is ``none`` unless asked
otherwise, and ``none`` under CI unless ``--agents-record-in-ci`` says to record there
(a warning says when CI overrides an explicit mode). Two tests that would share one
cassette file fail, naming each other.

PYTEST_DONT_REWRITE: the boundary plugins import this module before pytest registers it
as a plugin, and it holds no assertions, so it asks pytest not to rewrite it (a
"cannot be rewritten" warning would stop runs under ``-W error``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

import pytest

from ._cassette.modes import (
    RECORD_MODES,
    RecordMode,
    RecordModeIgnored,
    ignored_in_ci,
    records,
    resolve_record_mode,
)
from ._cassette.use import CassetteUse
from .pytest_support import CALL_REPORT, blocks_model_requests

__all__ = [
    "CASSETTE_MARKER",
    "CassetteFixture",
    "CassetteOptions",
    "CassetteUse",
    "body_passed",
    "default_path",
    "finish_cassette",
    "register_cassette_fixture",
    "use_cassette",
]

CASSETTE_MARKER = "agents_cassette"
_OPTION = "agents_record_mode"
_IN_CI_OPTION = "agents_record_in_ci"
_KNOWN = ("path", "ignore", "scrubbers", "secrets", "allow_secrets", "allowed_secrets")

# fixture name -> boundary, filled by the boundary plugins when pytest imports them.
_FIXTURES: dict[str, str] = {}

_MODE = pytest.StashKey[RecordMode]()
# cassette path -> node id of the first test of this session that uses it.
_USED = pytest.StashKey[dict[Path, str]]()
# Per test: the other test that resolves to the same cassette, found at collection.
_SHARED = pytest.StashKey[dict[str, str]]()


def register_cassette_fixture(fixture: str, boundary: str) -> None:
    """Tell the collision check that ``fixture`` gives each test a ``boundary`` cassette."""
    _FIXTURES[fixture] = boundary


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("agents-testing", "agents-testing (OpenAI Agents SDK doubles)")
    group.addoption(
        "--agents-record-mode",
        action="store",
        default=None,
        choices=RECORD_MODES,
        dest=_OPTION,
        help="how the *_cassette fixtures use cassettes: none (replay only, the default and "
        "always under CI), once (record a missing cassette), new_episodes (replay what "
        "matches, record the rest), all or rewrite (record everything again)",
    )
    group.addoption(
        "--agents-record-in-ci",
        action="store_true",
        default=False,
        dest=_IN_CI_OPTION,
        help="keep --agents-record-mode when the CI environment variable is set (for a "
        "scheduled re-record job); without it CI only replays",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{CASSETTE_MARKER}(path=None, ignore=..., scrubbers=(), secrets=(), "
        "allow_secrets=False, allowed_secrets=()): configure the *_cassette fixtures. "
        "path defaults to cassettes/<test module>/<Class>.<test name>[<params>].json beside "
        "the test file; allowed_secrets lists harmless values (exact strings or compiled "
        "patterns) that the secret scan lets through.",
    )
    requested = config.getoption(_OPTION)
    in_ci = bool(config.getoption(_IN_CI_OPTION))
    config.stash[_MODE] = resolve_record_mode(requested, record_in_ci=in_ci)
    config.stash[_USED] = {}
    if ignored_in_ci(requested, record_in_ci=in_ci):
        config.issue_config_time_warning(
            RecordModeIgnored(_ignored_message(requested)), stacklevel=2
        )


def _ignored_message(requested: str) -> str:
    return (
        f"--agents-record-mode={requested} is ignored because the CI environment variable "
        f"is set: cassettes are only replayed (record mode none). To record in CI (a "
        f"scheduled re-record job), add --agents-record-in-ci."
    )


def pytest_report_header(config: pytest.Config) -> str | None:
    requested = config.getoption(_OPTION)
    if requested is None:
        return None
    mode = config.stash[_MODE]
    if ignored_in_ci(requested, record_in_ci=bool(config.getoption(_IN_CI_OPTION))):
        return f"agents-testing cassettes: record mode none ({_ignored_message(requested)})"
    return f"agents-testing cassettes: record mode {mode}"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Find the tests that would share a cassette file before any of them runs."""
    first: dict[Path, pytest.Item] = {}
    for item in items:
        names = getattr(item, "fixturenames", ())
        for fixture, boundary in _FIXTURES.items():
            if fixture not in names:
                continue
            try:
                path = _path(item, boundary)
            except Exception:
                continue  # a bad marker fails the test itself, with its own message
            other = first.setdefault(path, item)
            if other is not item:
                item.stash.setdefault(_SHARED, {})[str(path)] = other.nodeid
                other.stash.setdefault(_SHARED, {})[str(path)] = item.nodeid


@dataclass(frozen=True)
class CassetteOptions:
    """The cassette settings of one test: mode, file and the marker's keyword arguments.

    ``earlier`` is where an earlier release would have kept the cassette, when a file is
    there and the new place is empty; ``recording_blocked`` says that the request guard
    is on for this test, so it must not record.
    """

    mode: RecordMode
    path: Path
    settings: dict[str, Any] = field(default_factory=dict)
    test: str = ""
    boundary: str = "model"
    earlier: Path | None = None
    recording_blocked: bool = False

    @classmethod
    def for_item(cls, item: pytest.Item, boundary: str) -> CassetteOptions:
        marker = item.get_closest_marker(CASSETTE_MARKER)
        kwargs = dict(marker.kwargs) if marker is not None else {}
        unknown = sorted(key for key in kwargs if key not in _KNOWN)
        if unknown or (marker is not None and marker.args):
            pytest.fail(
                f"@pytest.mark.{CASSETTE_MARKER}: unknown keyword(s) {unknown} or positional "
                f"arguments; it takes {', '.join(_KNOWN)}.",
                pytrace=False,
            )
        kwargs.pop("path", None)
        path = _path(item, boundary)
        _claim(item, path)
        earlier = None
        if marker is None or marker.kwargs.get("path") is None:
            legacy = _legacy_path(item, boundary)
            if legacy != path and legacy.is_file() and not path.exists():
                earlier = legacy
        return cls(
            mode=item.config.stash[_MODE],
            path=path,
            settings=kwargs,
            test=item.nodeid,
            boundary=boundary,
            earlier=earlier,
            recording_blocked=blocks_model_requests(item),
        )

    def records(self, exists: bool) -> bool:
        """Whether this test goes to the real provider (``exists``: the cassette is there)."""
        return records(self.mode, exists)

    def check_replayable(self) -> None:
        """Raise ``CassetteNotFound`` (saying where an older one is) when there is no file."""
        if self.earlier is not None and not self.path.exists():
            from ._cassette.file import CassetteNotFound

            raise CassetteNotFound(str(self.path), self.boundary, str(self.earlier))


def _path(item: pytest.Item, boundary: str) -> Path:
    marker = item.get_closest_marker(CASSETTE_MARKER)
    given = marker.kwargs.get("path") if marker is not None else None
    if given is None:
        return default_path(item, boundary)
    path = Path(given)
    return path if path.is_absolute() else Path(item.path).parent / path


def _claim(item: pytest.Item, path: Path) -> None:
    """Fail ``item`` when another test of this session uses (or would use) ``path`` too."""
    other = item.stash.get(_SHARED, {}).get(str(path))
    used = item.config.stash[_USED]
    if other is None:
        known = used.setdefault(path, item.nodeid)
        other = known if known != item.nodeid else None
    if other is not None:
        pytest.fail(
            f"{item.nodeid} and {other} both use the cassette {path}; a cassette belongs to "
            f"one test. Give one of them its own file with "
            f"@pytest.mark.{CASSETTE_MARKER}(path=...).",
            pytrace=False,
        )


def _classes(item: pytest.Item) -> list[str]:
    names: list[str] = []
    node = item.parent
    while node is not None and isinstance(node, pytest.Class):
        names.append(node.name)
        node = node.parent
    return names[::-1]


def default_path(item: pytest.Item, boundary: str) -> Path:
    """``cassettes/<module>/<Class>.<test name>[<params>].json`` beside the test file.

    ``.<boundary>.json`` for a boundary other than the model. Enclosing classes are
    named outermost first; characters that file systems refuse become ``-``.
    """
    from ._cassette.naming import cassette_path

    return cassette_path(item.path, item.name, _classes(item), boundary)


def _legacy_path(item: pytest.Item, boundary: str) -> Path:
    # Releases up to 0.1 named the file after the test alone (no class), with every
    # character outside [\w.-[]] turned into "_".
    name = re.sub(r"[^\w.\-\[\]]", "_", item.name)
    suffix = "" if boundary == "model" else f".{boundary}"
    return Path(item.path).parent / "cassettes" / Path(item.path).stem / f"{name}{suffix}.json"


def body_passed(item: pytest.Item) -> bool:
    """Whether the test body ran and passed (so teardown may save or check)."""
    report = item.stash.get(CALL_REPORT, None)
    return report is not None and report.passed


class _Savable(Protocol):
    def save(self) -> Any: ...


class _Checkable(Protocol):
    def assert_complete(self) -> None: ...


class CassetteFixture(Protocol):
    """What a boundary's ``*_cassette`` fixture object tells teardown."""

    @property
    def recording(self) -> bool: ...

    @property
    def cassette(self) -> _Savable: ...

    @property
    def replaying(self) -> _Checkable | None: ...


F = TypeVar("F", bound=CassetteFixture)


def finish_cassette(item: pytest.Item, fixture: CassetteFixture) -> None:
    """At teardown of a passed test: save a recording, or check the replay was used up.

    A refusal (an unused recorded call, a secret in the recording) is reported at the
    test function, not in the plugin that found it at teardown.
    """
    __tracebackhide__ = True
    if not body_passed(item):
        return
    from ._errors import AgentsTestingError
    from ._report_site import function_site, raise_at

    try:
        if fixture.recording:
            fixture.cassette.save()
        elif fixture.replaying is not None:
            fixture.replaying.assert_complete()
    except AgentsTestingError as error:
        raise_at(error, function_site(getattr(item, "obj", None)))


def use_cassette(
    request: pytest.FixtureRequest, boundary: str, make: Callable[[CassetteOptions], F]
) -> Iterator[F]:
    """The body of a boundary's ``*_cassette`` fixture: ``make(options)`` of the test's
    cassette settings, saved or checked when the test has passed."""
    __tracebackhide__ = True
    assert isinstance(request.node, pytest.Item)
    fixture = make(CassetteOptions.for_item(request.node, boundary))
    yield fixture
    finish_cassette(request.node, fixture)
