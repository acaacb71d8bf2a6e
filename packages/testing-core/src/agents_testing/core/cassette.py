"""Cassette mechanisms shared by every recorded boundary (public API for the boundaries).

The file format (versioned, stable key order, written atomically), the record modes, the
file naming, the request diff and the secret scrubbing and scanning live here once; each
boundary records and replays its own calls on top of them.
"""

from __future__ import annotations

from ._cassette.diff import diff_json, without_keys
from ._cassette.file import (
    FORMAT_VERSION,
    CassetteError,
    CassetteFormatError,
    CassetteMismatch,
    CassetteNotFound,
    CassetteRecordingBlocked,
    CassetteVersionError,
    CassetteWriteError,
    dump_cassette,
    iter_cassette,
    load_cassette,
    read_cassette,
    write_cassette,
)
from ._cassette.modes import (
    RECORD_MODES,
    RecordMode,
    RecordModeIgnored,
    ignored_in_ci,
    in_ci,
    keeps_recorded,
    records,
    resolve_record_mode,
)
from ._cassette.naming import cassette_file_name, cassette_path
from ._cassette.secrets import (
    AllowedSecret,
    CassetteSecretError,
    Scrubber,
    SecretFinding,
    allowed_secret_problem,
    scan_for_secrets,
    scrub,
    scrubber_problem,
)

__all__ = [
    "FORMAT_VERSION",
    "RECORD_MODES",
    "AllowedSecret",
    "CassetteError",
    "CassetteFormatError",
    "CassetteMismatch",
    "CassetteNotFound",
    "CassetteRecordingBlocked",
    "CassetteSecretError",
    "CassetteVersionError",
    "CassetteWriteError",
    "RecordMode",
    "RecordModeIgnored",
    "Scrubber",
    "SecretFinding",
    "allowed_secret_problem",
    "cassette_file_name",
    "cassette_path",
    "diff_json",
    "dump_cassette",
    "ignored_in_ci",
    "in_ci",
    "iter_cassette",
    "keeps_recorded",
    "load_cassette",
    "read_cassette",
    "records",
    "resolve_record_mode",
    "scan_for_secrets",
    "scrub",
    "scrubber_problem",
    "without_keys",
    "write_cassette",
]
