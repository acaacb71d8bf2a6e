"""Keeping secrets out of cassettes: content scrubbers and the scan before writing.

Recorders never take anything from a provider client (keys, headers, organization or
project ids, base URLs), but content can still carry a secret: a key pasted into a
prompt, a token echoed by a tool. Scrubbers rewrite every recorded string; the scan then
refuses to write a cassette in which a secret-shaped string is left, naming the place and
the format (:mod:`.secret_formats`), never the value. Known harmless values (a
documented example key, a test fixture's token) are let through by an allow list.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .file import CassetteError
from .secret_formats import REDACTED_VALUES, SHAPES, field_format

__all__ = [
    "AllowedSecret",
    "CassetteSecretError",
    "Scrubber",
    "SecretFinding",
    "allowed_secret_problem",
    "scan_for_secrets",
    "scrub",
    "scrubber_problem",
]

_Pattern = str | re.Pattern[str]
Scrubber = _Pattern | tuple[_Pattern, str] | Callable[[str], str]
"""A content scrubber: a regex (matches become ``<scrubbed>``), a ``(regex, replacement)``
pair, or a callable taking each recorded string and returning it rewritten."""

AllowedSecret = str | re.Pattern[str]
"""An entry of a cassette's allow list: the exact secret value, or a compiled pattern that
the whole value must match (``re.compile(r"AKIA[A-Z0-9]{12}EXAMPLE")``)."""

_REPLACEMENT = "<scrubbed>"


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
            f"(r'regex', 'replacement'), callable]); if they are harmless test values, "
            f"list them in allowed_secrets=[exact value, re.compile(pattern)] (or pass "
            f"allow_secrets=True to skip the scan)."
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


def allowed_secret_problem(entry: object) -> str | None:
    """Why ``entry`` is not a valid :data:`AllowedSecret`, or ``None`` when it is."""
    if isinstance(entry, re.Pattern) and isinstance(entry.pattern, str):
        return None
    if isinstance(entry, str):
        return None if entry else "an allowed secret cannot be an empty string"
    return (
        f"an allowed secret is its exact value (a str) or a compiled pattern "
        f"(re.compile(...)), got {type(entry).__name__}"
    )


def _allows(allowed: Sequence[AllowedSecret], value: str) -> bool:
    for entry in allowed:
        if isinstance(entry, str):
            if entry == value:
                return True
        elif entry.fullmatch(value):
            return True
    return False


def scan_for_secrets(
    value: Any,
    *,
    live_secrets: Iterable[str] = (),
    root: str = "",
    allowed: Iterable[AllowedSecret] = (),
) -> list[SecretFinding]:
    """Every place in ``value`` (JSON data) holding a secret, with the format it has.

    ``live_secrets`` are the values in use right now (the client's API key, ...); any
    string containing one of them is a finding too. ``allowed`` lists harmless values
    (:data:`AllowedSecret`) that are not reported. A dict key that is itself a secret is
    reported as ``<path> (a key)`` and never spelled out, in its own place or below it.
    """
    known = [secret for secret in set(live_secrets) if isinstance(secret, str) and len(secret) >= 8]
    permitted = list(allowed)
    for entry in permitted:
        problem = allowed_secret_problem(entry)
        if problem is not None:
            raise CassetteError(f"Invalid allowed secret: {problem}.")
    findings: list[SecretFinding] = []

    def kind_of(text: str) -> str | None:
        for secret in known:
            if secret in text and not _allows(permitted, secret):
                return "the live API key or client secret"
        for kind, pattern in SHAPES:
            for match in pattern.finditer(text):
                found = next(
                    (
                        match[name]
                        for name in ("secret", "raw")
                        if name in pattern.groupindex and match[name]
                    ),
                    match[0],
                )
                if not _allows(permitted, found):
                    return kind
        return None

    def check_field(name: str, item: Any, location: str) -> bool:
        kind = field_format(name)
        if kind is None or not isinstance(item, str) or item.strip() in REDACTED_VALUES:
            return False
        if _allows(permitted, item) or _allows(permitted, item.split()[-1]):
            return False
        findings.append(SecretFinding(location, kind))
        return True

    def walk(node: Any, location: str) -> None:
        if isinstance(node, str):
            kind = kind_of(node)
            if kind is not None:
                findings.append(SecretFinding(location, kind))
        elif isinstance(node, list):
            for position, item in enumerate(node):
                walk(item, f"{location}[{position}]")
        elif isinstance(node, Mapping):
            for key in sorted(node, key=str):
                name = str(key)
                kind = kind_of(name)
                if kind is not None:
                    findings.append(SecretFinding(f"{location or '<root>'} (a key)", kind))
                    name = "<secret key>"
                where = f"{location}.{name}" if location else name
                if not check_field(name, node[key], where):
                    walk(node[key], where)

    walk(value, root)
    return findings


# Public names show agents_testing.core, however this module was first imported.
from ..lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
