"""The secret formats the cassette scan recognizes, by their shape or by the field holding them.

Each format is a name for the message (never the value) and a regular expression; where
the secret is only a part of the match (``AccountKey=<key>``), the ``secret`` (or
``raw``) group is that part, and it is what an allow list is compared with. Header-like fields
(``Authorization``, ``api-key``, ...) are secrets whatever their value looks like.
"""

from __future__ import annotations

import re

__all__ = ["FIELD_FORMATS", "REDACTED_VALUES", "SHAPES", "field_format"]

_TOKEN = r"[A-Za-z0-9._~+/=\-]"
# A value without a scheme counts only when it looks generated: 16 or more token
# characters, a digit among them, no dots (``api_key=self.api_key`` is code, not a key).
_RAW = r"(?=[A-Za-z0-9_~+/=\-]*\d)[A-Za-z0-9_~+/=\-]{16,}"

SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "a PEM private key (-----BEGIN ... PRIVATE KEY-----)",
        re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"),
    ),
    ("an Anthropic API key (sk-ant-...)", re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{20,}")),
    (
        "a Stripe live key (sk_live_/rk_live_...)",
        re.compile(r"\b[rs]k_live_[0-9A-Za-z]{10,}"),
    ),
    ("an OpenAI-style API key (sk-...)", re.compile(r"\bsk-[A-Za-z0-9][A-Za-z0-9_\-]{15,}")),
    (
        "an AWS access key id (AKIA...)",
        re.compile(
            r"\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA|A3T[A-Z0-9])"
            r"[A-Z0-9]{16}\b"
        ),
    ),
    (
        "an AWS secret access key",
        re.compile(
            r"(?i)aws.{0,20}?(?:secret|private).{0,20}?[\"']?\s*[:=]\s*[\"']?"
            r"(?P<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])"
        ),
    ),
    (
        "a GitHub token (ghp_/gho_/ghu_/ghs_/ghr_/github_pat_...)",
        re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})"),
    ),
    ("a GitLab token (glpat-...)", re.compile(r"\bglpat-[A-Za-z0-9_\-]{20,}")),
    (
        "a Slack token (xox?-...)",
        re.compile(r"\b(?:xox[abeoprs]-[A-Za-z0-9\-]{10,}|xapp-\d-[A-Za-z0-9\-]{10,})"),
    ),
    (
        "a Slack webhook URL (hooks.slack.com/...)",
        re.compile(
            r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/\-]{10,}"
        ),
    ),
    ("a Google API key (AIza...)", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}")),
    (
        "an Azure storage account key (AccountKey=...)",
        re.compile(r"(?i)\bAccountKey=(?P<secret>[A-Za-z0-9+/]{40,}={0,2})"),
    ),
    (
        "an Azure shared access key (SharedAccessKey=...)",
        re.compile(r"(?i)\bSharedAccessKey=(?P<secret>[A-Za-z0-9+/]{20,}={0,2})"),
    ),
    (
        "an Azure SAS signature (sig=...)",
        re.compile(r"(?i)[?&]sig=(?P<secret>[A-Za-z0-9%+/]{20,}(?:%3D|=){0,2})"),
    ),
    (
        "an Azure AD client secret (...Q~...)",
        re.compile(
            r"(?<![A-Za-z0-9_~.\-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}(?![A-Za-z0-9_~.\-])"
        ),
    ),
    (
        "a JSON Web Token (eyJ...)",
        re.compile(r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
    ),
    ("a Hugging Face token (hf_...)", re.compile(r"\bhf_[A-Za-z0-9]{30,}\b")),
    ("an npm token (npm_...)", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")),
    ("a PyPI API token (pypi-...)", re.compile(r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,}")),
    (
        "a bearer token",
        re.compile(r"(?i)\bbearer\s+(?=[A-Za-z0-9._~+/\-]*\d)(?P<secret>[A-Za-z0-9._~+/\-]{8,}=*)"),
    ),
    (
        "an Authorization header value",
        re.compile(
            r"(?i)\b(?:proxy-)?authorization[\"']?\s*[:=]\s*[\"']?"
            r"(?:(?:basic|digest|token|apikey|sharedkey|signature)\s+"
            rf"(?P<secret>{_TOKEN}{{8,}})|(?P<raw>{_RAW}))"
        ),
    ),
    (
        "an api-key header value",
        re.compile(
            r"(?i)\b(?:x-)?(?:goog-)?api[-_]?key[\"']?\s*[:=]\s*[\"']?"
            rf"(?P<secret>{_RAW})"
        ),
    ),
    (
        "an Azure subscription key (Ocp-Apim-Subscription-Key)",
        re.compile(
            r"(?i)\bocp-apim-subscription-key[\"']?\s*[:=]\s*[\"']?(?P<secret>[0-9a-f]{32})\b"
        ),
    ),
    (
        "a URL with credentials",
        re.compile(r"\b[A-Za-z][A-Za-z0-9+.\-]*://[^\s/:@]+:(?P<secret>[^\s/@]+)@"),
    ),
)
"""Secret shapes, most specific first: a string is reported with the first that fits."""

FIELD_FORMATS: dict[str, str] = {
    "authorization": "an Authorization header value",
    "proxyauthorization": "an Authorization header value",
    "apikey": "an api-key header value",
    "xapikey": "an api-key header value",
    "xgoogapikey": "an api-key header value",
    "ocpapimsubscriptionkey": "an Azure subscription key (Ocp-Apim-Subscription-Key)",
    "awssecretaccesskey": "an AWS secret access key",
    "secretaccesskey": "an AWS secret access key",
}
"""Field names (lower case, without ``-`` and ``_``) whose string value is a secret."""

REDACTED_VALUES = frozenset({"", "<redacted>", "<scrubbed>"})
"""Values that stand in for a removed secret: never a finding."""


def field_format(name: str) -> str | None:
    """The secret format of a field called ``name`` (``Authorization``, ``x-api-key``), if any."""
    return FIELD_FORMATS.get(name.lower().replace("-", "").replace("_", ""))
