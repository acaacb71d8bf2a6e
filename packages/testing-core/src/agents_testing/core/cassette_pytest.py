"""pytest support for cassettes: ``--agents-record-mode``, the marker, one file per test.

A plugin module of its own, loaded by the boundary plugins (``pytest_plugins``), so the
option and marker exist once however many boundaries are installed. The record mode is
``none`` unless asked otherwise, and always ``none`` when the ``CI`` environment
variable is set: CI replays, it never records.

PYTEST_DONT_REWRITE: the boundary plugins import this module before pytest registers it
as a plugin, and it holds no assertions, so it asks pytest not to rewrite it (a
"cannot be rewritten" warning would stop runs under ``-W error``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import pytest

from ._cassette.file import RECORD_MODES, RecordMode, resolve_record_mode
from ._errors import AgentsTestingError
from ._report_site import function_site, raise_at
from .pytest_support import CALL_REPORT

__all__ = ["CASSETTE_MARKER", "CassetteOptions", "body_passed", "finish_cassette"]

CASSETTE_MARKER = "agents_cassette"
_OPTION = "agents_record_mode"
_KNOWN = ("path", "ignore", "scrubbers", "secrets", "allow_secrets")


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
        "matches, record the rest), all (record everything again)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{CASSETTE_MARKER}(path=None, ignore=..., scrubbers=(), secrets=(), "
        "allow_secrets=False): configure the model_cassette / sandbox_cassette fixtures. "
        "path defaults to cassettes/<test module>/<test name>.json beside the test file.",
    )


@dataclass(frozen=True)
class CassetteOptions:
    """The cassette settings of one test: mode, file and the marker's keyword arguments."""

    mode: RecordMode
    path: Path
    settings: dict[str, Any] = field(default_factory=dict)

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
        mode = resolve_record_mode(item.config.getoption(_OPTION))
        path = kwargs.pop("path", None)
        if path is None:
            path = default_path(item, boundary)
        elif not Path(path).is_absolute():
            path = Path(item.path).parent / path
        return cls(mode, Path(path), kwargs)


def default_path(item: pytest.Item, boundary: str) -> Path:
    """``cassettes/<module>/<test name>[.sandbox].json`` beside the test file."""
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


def finish_cassette(item: pytest.Item, fixture: CassetteFixture) -> None:
    """At teardown of a passed test: save a recording, or check the replay was used up.

    A refusal (an unused recorded call, a secret in the recording) is reported at the
    test function, not in the plugin that found it at teardown.
    """
    __tracebackhide__ = True
    if not body_passed(item):
        return
    try:
        if fixture.recording:
            fixture.cassette.save()
        elif fixture.replaying is not None:
            fixture.replaying.assert_complete()
    except AgentsTestingError as error:
        raise_at(error, function_site(getattr(item, "obj", None)))
