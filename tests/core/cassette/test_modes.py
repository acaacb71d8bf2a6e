"""Record modes: their names, the CI rule and the switch that records in CI anyway."""

from __future__ import annotations

import pytest

from agents_testing.core import CassetteError
from agents_testing.core.cassette import (
    ignored_in_ci,
    in_ci,
    keeps_recorded,
    records,
    resolve_record_mode,
)


@pytest.mark.parametrize(
    ("requested", "env", "mode"),
    [
        (None, {}, "none"),
        ("once", {}, "once"),
        ("all", {"CI": "true"}, "none"),
        ("new_episodes", {"CI": "1"}, "none"),
        ("all", {"CI": ""}, "all"),
        ("once", {"CI": "false"}, "once"),
        ("rewrite", {}, "all"),
        ("rewrite", {"CI": "yes"}, "none"),
    ],
)
def test_the_record_mode_defaults_to_none_and_is_none_in_ci(
    requested: str | None, env: dict[str, str], mode: str
) -> None:
    assert resolve_record_mode(requested, env) == mode


def test_recording_in_ci_keeps_the_requested_mode_when_asked_for() -> None:
    assert resolve_record_mode("rewrite", {"CI": "true"}, record_in_ci=True) == "all"
    assert resolve_record_mode(None, {"CI": "true"}, record_in_ci=True) == "none"


@pytest.mark.parametrize(
    ("requested", "env", "record_in_ci", "ignored"),
    [
        ("all", {"CI": "true"}, False, True),
        ("rewrite", {"CI": "1"}, False, True),
        ("all", {"CI": "true"}, True, False),
        ("none", {"CI": "true"}, False, False),
        (None, {"CI": "true"}, False, False),
        ("once", {}, False, False),
    ],
)
def test_ci_overriding_an_explicit_mode_is_reported(
    requested: str | None, env: dict[str, str], record_in_ci: bool, ignored: bool
) -> None:
    assert ignored_in_ci(requested, env, record_in_ci=record_in_ci) is ignored


def test_ci_is_any_value_but_empty_zero_false_or_no() -> None:
    assert [in_ci({"CI": value}) for value in ("true", "1", "yes", " ", "0", "False", "no")] == [
        True,
        True,
        True,
        False,
        False,
        False,
        False,
    ]


def test_which_modes_record_and_which_keep_what_was_recorded() -> None:
    assert [records(mode, exists=True) for mode in ("none", "once", "new_episodes", "all")] == [
        False,
        False,
        True,
        True,
    ]
    assert records("once", exists=False)
    assert not records("none", exists=False)
    assert [keeps_recorded(mode) for mode in ("once", "new_episodes", "all")] == [
        False,
        True,
        False,
    ]


def test_an_unknown_record_mode_is_refused_listing_the_modes() -> None:
    with pytest.raises(CassetteError, match=r"Unknown record mode 'sometimes'.*rewrite"):
        resolve_record_mode("sometimes", {})
