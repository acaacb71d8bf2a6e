"""Readable differences between a recorded request and the one a replay makes.

Both sides are plain JSON data (the boundary turns its request into that form), so one
walk serves every boundary. Each difference is one line naming the field by its path
(``request.input[3].content``, ``request.tools['search'].parameters``), with both values.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from .._values import safe_repr

__all__ = ["diff_json", "without_keys"]

_LIMIT = 20


def diff_json(recorded: Any, live: Any, path: str = "request", *, limit: int = _LIMIT) -> list[str]:
    """One line per difference between ``recorded`` and ``live``, at most ``limit`` lines."""
    lines: list[str] = []
    _walk(recorded, live, path, lines)
    if len(lines) > limit:
        extra = len(lines) - limit
        lines = [*lines[:limit], f"... and {extra} more difference(s)"]
    return lines


def _walk(recorded: Any, live: Any, path: str, lines: list[str]) -> None:
    if recorded == live and type(recorded) is type(live):
        return
    if isinstance(recorded, dict) and isinstance(live, dict):
        for key in sorted(set(recorded) | set(live), key=str):
            where = f"{path}.{key}" if _plain(key) else f"{path}[{key!r}]"
            if key not in live:
                lines.append(f"{where}: recorded {safe_repr(recorded[key])}, now missing")
            elif key not in recorded:
                lines.append(f"{where}: not recorded, now {safe_repr(live[key])}")
            else:
                _walk(recorded[key], live[key], where, lines)
        return
    if isinstance(recorded, list) and isinstance(live, list):
        for position in range(min(len(recorded), len(live))):
            _walk(recorded[position], live[position], f"{path}[{position}]", lines)
        if len(recorded) != len(live):
            lines.append(
                f"{path}: recorded {len(recorded)} item(s), now {len(live)}"
                + _extra(recorded, live, path)
            )
        return
    lines.append(f"{path}: recorded {safe_repr(recorded)}, now {safe_repr(live)}")


def _extra(recorded: list[Any], live: list[Any], path: str) -> str:
    if len(live) > len(recorded):
        return f"; added {path}[{len(recorded)}] = {safe_repr(live[len(recorded)])}"
    return f"; missing {path}[{len(live)}] = {safe_repr(recorded[len(live)])}"


def _plain(key: object) -> bool:
    return isinstance(key, str) and key.isidentifier()


def without_keys(value: Any, keys: Collection[str]) -> Any:
    """``value`` (JSON data) with the dict entries named ``keys`` removed at every depth."""
    if not keys:
        return value
    if isinstance(value, dict):
        return {key: without_keys(item, keys) for key, item in value.items() if key not in keys}
    if isinstance(value, list):
        return [without_keys(item, keys) for item in value]
    return value
