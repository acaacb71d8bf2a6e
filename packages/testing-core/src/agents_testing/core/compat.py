"""Everything that differs between the supported ``openai-agents`` releases.

Boundaries ask this module instead of testing versions or attributes themselves, so
that supporting a new SDK release means editing one file.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["MINIMUM_SDK", "has_builtin_testing", "sdk_at_least", "sdk_version"]

MINIMUM_SDK = (0, 14)


@lru_cache(maxsize=1)
def sdk_version() -> tuple[int, ...]:
    """The installed ``openai-agents`` release as a tuple of ints, e.g. ``(0, 24, 0)``."""
    from importlib.metadata import version

    parts: list[int] = []
    for piece in version("openai-agents").split("."):
        digits = "".join(ch for ch in piece if ch.isdigit())
        if not digits:
            break
        parts.append(int(digits))
        if not piece.isdigit():
            break
    return tuple(parts)


def sdk_at_least(*release: int) -> bool:
    """Whether the installed SDK is ``release`` or newer, e.g. ``sdk_at_least(0, 21)``."""
    return sdk_version() >= release


def has_builtin_testing() -> bool:
    """Whether the installed SDK ships its own ``agents.testing`` (0.21 and later)."""
    return sdk_at_least(0, 21)
