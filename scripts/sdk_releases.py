"""The openai-agents releases this project supports, shared by the release and
compatibility-matrix commands so that both test the same SDKs."""

from __future__ import annotations

# The latest patch of every supported minor, oldest first.
SUPPORTED: dict[str, str] = {
    "0.14": "0.14.8",
    "0.15": "0.15.3",
    "0.16": "0.16.1",
    "0.17": "0.17.8",
    "0.18": "0.18.3",
    "0.19": "0.19.4",
    "0.20": "0.20.0",
    "0.21": "0.21.1",
    "0.22": "0.22.3",
    "0.23": "0.23.1",
    "0.24": "0.24.0",
}

LOWEST = SUPPORTED["0.14"]
NEWEST = SUPPORTED["0.24"]

# openai 2.45 made a usage field required that openai-agents 0.14-0.17 does not fill
# in, so every run on those releases fails with the newest client. 0.18-0.20 require
# openai>=2.45 themselves (a pin below it cannot be installed with them).
_CLIENT_PIN = "openai<2.45"
_PINNED_MINORS = {"0.14", "0.15", "0.16", "0.17"}


def minor_of(release: str) -> str:
    """The ``MAJOR.MINOR`` of an SDK release such as ``0.14.8``."""
    major, minor, *_ = release.split(".")
    return f"{major}.{minor}"


def sdk_requirements(release: str, extras: str = "") -> list[str]:
    """The requirements that install SDK ``release`` with a client it works with."""
    sdk = f"openai-agents{extras}=={release}"
    return [sdk, _CLIENT_PIN] if minor_of(release) in _PINNED_MINORS else [sdk]
