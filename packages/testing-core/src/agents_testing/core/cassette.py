"""Cassette mechanisms shared by the model and sandbox boundaries (public API for them).

The file format (versioned, stable key order), the request diff and the secret
scrubbing and scanning live here once; each boundary records and replays its own calls
on top of them.
"""

from __future__ import annotations

from ._cassette.diff import diff_json, without_keys
from ._cassette.file import (
    FORMAT_VERSION,
    CassetteError,
    CassetteFormatError,
    CassetteMismatch,
    CassetteNotFound,
    CassetteVersionError,
    dump_cassette,
    load_cassette,
    read_cassette,
    resolve_record_mode,
    write_cassette,
)
from ._cassette.secrets import (
    CassetteSecretError,
    Scrubber,
    SecretFinding,
    scan_for_secrets,
    scrub,
    scrubber_problem,
)

__all__ = [
    "FORMAT_VERSION",
    "CassetteError",
    "CassetteFormatError",
    "CassetteMismatch",
    "CassetteNotFound",
    "CassetteSecretError",
    "CassetteVersionError",
    "Scrubber",
    "SecretFinding",
    "diff_json",
    "dump_cassette",
    "load_cassette",
    "read_cassette",
    "resolve_record_mode",
    "scan_for_secrets",
    "scrub",
    "scrubber_problem",
    "without_keys",
    "write_cassette",
]
