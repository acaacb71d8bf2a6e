"""Cassette mechanisms shared by every recorded boundary (public API for the boundaries).

The file format (versioned, stable key order, written atomically), the record modes, the
file naming, the request diff, the secret scrubbing and scanning, a failed call's
outcome as data, the recorder of a live object, the cassette of one boundary and its
fixture's record-or-replay decision live here once; each boundary says what it records
and how a replay answers.
"""

from __future__ import annotations

from ._cassette.boundary import BoundaryCassette, recorded_matcher
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
from ._cassette.outcome import ReplayedError, error_json, exception_type, rebuilt_error
from ._cassette.recorder import CallRecorder
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
from ._cassette.use import CassetteUse

__all__ = [
    "FORMAT_VERSION",
    "RECORD_MODES",
    "AllowedSecret",
    "BoundaryCassette",
    "CallRecorder",
    "CassetteError",
    "CassetteFormatError",
    "CassetteMismatch",
    "CassetteNotFound",
    "CassetteRecordingBlocked",
    "CassetteSecretError",
    "CassetteUse",
    "CassetteVersionError",
    "CassetteWriteError",
    "RecordMode",
    "RecordModeIgnored",
    "ReplayedError",
    "Scrubber",
    "SecretFinding",
    "allowed_secret_problem",
    "cassette_file_name",
    "cassette_path",
    "diff_json",
    "dump_cassette",
    "error_json",
    "exception_type",
    "ignored_in_ci",
    "in_ci",
    "iter_cassette",
    "keeps_recorded",
    "load_cassette",
    "read_cassette",
    "rebuilt_error",
    "recorded_matcher",
    "records",
    "resolve_record_mode",
    "scan_for_secrets",
    "scrub",
    "scrubber_problem",
    "without_keys",
    "write_cassette",
]
