"""Keeping secrets out of cassettes: content scrubbers and the scan before writing.

Recorders never take anything from a provider client (keys, headers, organization or
project ids, base URLs), but content can still carry a secret: a key pasted into a
prompt, a token echoed by a tool. Scrubbers rewrite every recorded string; the scan then
refuses to write a cassette in which a secret-shaped string is left, naming the place.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .file import CassetteError

__all__ = [
    "CassetteSecretError",
    "Scrubber",
    "SecretFinding",
    "scan_for_secrets",
    "scrub",
    "scrubber_problem",
]

_Pattern = str | re.Pattern[str]
Scrubber = _Pattern | tuple[_Pattern, str] | Callable[[str], str]
"""A content scrubber: a regex (matches become ``<scrubbed>``), a ``(regex, replacement)``
pair, or a callable taking each recorded string and returning it rewritten."""

_REPLACEMENT = "<scrubbed>"

_SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("an OpenAI-style API key (sk-...)", re.compile(r"\bsk-[A-Za-z0-9][A-Za-z0-9_\-]{15,}")),
    ("a bearer token", re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/\-]{8,}=*")),
    (
        "a URL with credentials",
        re.compile(r"\b[A-Za-z][A-Za-z0-9+.\-]*://[^\s/:@]+:[^\s/@]+@"),
    ),
)


@dataclass(frozen=True)
class SecretFinding:
    """One secret-shaped string in a cassette: where (a JSON path) and what it looks like."""

    location: str
    kind: str


class CassetteSecretError(CassetteError):
    """Writing a cassette was refused because secret-shaped strings are left in it.

    ``findings`` lists each place (a JSON path into the cassette, 0-based) and what was
    found there; the secret itself is never repeated in the message.
    """

    def __init__(self, path: str | None, findings: Sequence[SecretFinding]) -> None:
        self.path = path
        self.findings = tuple(findings)
        shown = "\n".join(f"  {item.location}: {item.kind}" for item in self.findings[:20])
        more = len(self.findings) - 20
        if more > 0:
            shown += f"\n  ... and {more} more"
        target = f" {path}" if path is not None else ""
        super().__init__(
            f"Refusing to write the cassette{target}: it would contain secret-shaped "
            f"strings at\n{shown}\nAdd a scrubber for them (scrubbers=[r'regex', "
            f"(r'regex', 'replacement'), callable]), or pass allow_secrets=True if they are "
            f"harmless test values."
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.path, self.findings))


def scrubber_problem(scrubber: object) -> str | None:
    """Why ``scrubber`` is not a valid :data:`Scrubber`, or ``None`` when it is."""
    pattern: object = scrubber
    if isinstance(scrubber, tuple):
        if len(scrubber) != 2 or not isinstance(scrubber[1], str):
            return "a scrubber pair is (regex, replacement string)"
        pattern = scrubber[0]
    elif callable(scrubber) and not isinstance(scrubber, (str, re.Pattern)):
        return None
    if isinstance(pattern, re.Pattern):
        return None
    if isinstance(pattern, str):
        try:
            re.compile(pattern)
        except re.error as error:
            return f"{pattern!r} is not a valid regular expression ({error})"
        return None
    return (
        f"a scrubber is a regex, a (regex, replacement) pair or a callable taking a str, "
        f"got {type(scrubber).__name__}"
    )


def _compile(scrubbers: Iterable[Scrubber]) -> list[Callable[[str], str]]:
    compiled: list[Callable[[str], str]] = []
    for scrubber in scrubbers:
        problem = scrubber_problem(scrubber)
        if problem is not None:
            raise CassetteError(f"Invalid scrubber: {problem}.")
        if isinstance(scrubber, tuple):
            regex, replacement = re.compile(scrubber[0]), scrubber[1]
        elif isinstance(scrubber, (str, re.Pattern)):
            regex, replacement = re.compile(scrubber), _REPLACEMENT
        else:
            compiled.append(scrubber)
            continue
        compiled.append(_substitute(regex, replacement))
    return compiled


def _substitute(regex: re.Pattern[str], replacement: str) -> Callable[[str], str]:
    return lambda text: regex.sub(replacement, text)


def scrub(value: Any, scrubbers: Iterable[Scrubber]) -> Any:
    """``value`` (JSON data) with every string passed through ``scrubbers``, in order."""
    functions = _compile(scrubbers)
    if not functions:
        return value

    def walk(node: Any) -> Any:
        if isinstance(node, str):
            for function in functions:
                node = function(node)
                if not isinstance(node, str):
                    raise CassetteError(
                        f"A scrubber returned {type(node).__name__}; it must return a str."
                    )
            return node
        if isinstance(node, list):
            return [walk(item) for item in node]
        if isinstance(node, dict):
            return {key: walk(item) for key, item in node.items()}
        return node

    return walk(value)


def scan_for_secrets(
    value: Any, *, live_secrets: Iterable[str] = (), root: str = ""
) -> list[SecretFinding]:
    """Every place in ``value`` (JSON data) holding a secret-shaped string.

    ``live_secrets`` are the values in use right now (the client's API key, ...); any
    string containing one of them is a finding too.
    """
    known = [secret for secret in set(live_secrets) if isinstance(secret, str) and len(secret) >= 8]
    findings: list[SecretFinding] = []

    def check(text: str, location: str) -> None:
        for secret in known:
            if secret in text:
                findings.append(SecretFinding(location, "the live API key or client secret"))
                return
        for kind, pattern in _SHAPES:
            if pattern.search(text):
                findings.append(SecretFinding(location, kind))
                return

    def walk(node: Any, location: str) -> None:
        if isinstance(node, str):
            check(node, location)
        elif isinstance(node, list):
            for position, item in enumerate(node):
                walk(item, f"{location}[{position}]")
        elif isinstance(node, Mapping):
            for key in sorted(node, key=str):
                check(str(key), f"{location}.{key} (key)" if location else f"{key} (key)")
                walk(node[key], f"{location}.{key}" if location else str(key))

    walk(value, root)
    return findings
