"""Record modes: whether a test replays its cassette or records through the real provider.

The names are VCR.py's and pytest-recording's, so that their users know them: ``none``
replays only, ``once`` records a missing cassette, ``new_episodes`` replays what still
matches and records the rest, ``all`` (or its alias ``rewrite``) records everything
again. Under CI the mode is ``none`` unless recording there is asked for explicitly.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Literal

__all__ = [
    "RECORD_MODES",
    "RecordMode",
    "RecordModeIgnored",
    "ignored_in_ci",
    "in_ci",
    "keeps_recorded",
    "records",
    "resolve_record_mode",
]

RecordMode = Literal["none", "once", "new_episodes", "all"]
"""A record mode in effect (``rewrite`` is read as ``all``)."""

RECORD_MODES: tuple[str, ...] = ("none", "once", "new_episodes", "all", "rewrite")
"""Every record mode a user may ask for."""

_ALIASES: dict[str, RecordMode] = {
    "none": "none",
    "once": "once",
    "new_episodes": "new_episodes",
    "all": "all",
    # pytest-recording's name for replacing a cassette whole, which is what ``all`` does.
    "rewrite": "all",
}


class RecordModeIgnored(UserWarning):
    """An explicit record mode was ignored because ``CI`` is set (cassettes only replay there)."""


def in_ci(environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``CI`` is set to anything but empty, ``0``, ``false`` or ``no``."""
    env = os.environ if environ is None else environ
    return env.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def resolve_record_mode(
    requested: str | None,
    environ: Mapping[str, str] | None = None,
    *,
    record_in_ci: bool = False,
) -> RecordMode:
    """The record mode in effect: ``requested`` (default ``none``), but ``none`` in CI.

    CI is recognized by :func:`in_ci`: there is usually no provider to record from
    there. ``record_in_ci=True`` (``--agents-record-in-ci``, for a scheduled re-record
    job) keeps the requested mode under CI too.
    """
    mode = _ALIASES.get("none" if requested is None else requested)
    if mode is None:
        # Imported here: the pytest plugin reads the modes at start-up, before any
        # cassette is used.
        from .file import CassetteError

        raise CassetteError(
            f"Unknown record mode {requested!r}; use one of {', '.join(RECORD_MODES)}."
        )
    if in_ci(environ) and not record_in_ci:
        return "none"
    return mode


def ignored_in_ci(
    requested: str | None,
    environ: Mapping[str, str] | None = None,
    *,
    record_in_ci: bool = False,
) -> bool:
    """Whether CI turns the explicitly ``requested`` recording mode into ``none``."""
    return (
        requested is not None
        and _ALIASES.get(requested, "none") != "none"
        and in_ci(environ)
        and not record_in_ci
    )


def records(mode: RecordMode, exists: bool) -> bool:
    """Whether a test in ``mode`` goes to the real provider (``exists``: its cassette is there)."""
    return mode in ("all", "new_episodes") or (mode == "once" and not exists)


def keeps_recorded(mode: RecordMode) -> bool:
    """Whether recording in ``mode`` answers the calls that still match from the old cassette."""
    return mode == "new_episodes"


# Public names show agents_testing.core, however this module was first imported.
from ..lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
