"""Readable differences between a recorded request and the one a replay makes.

Both sides are plain JSON data (the boundary turns its request into that form), so one
walk serves every boundary. Each difference is one line naming the field by its path
(``request.input[3].content``, ``request.tools['search'].parameters``), with both values.
A long or multi-line string that changed shows the window around the change (and says
where it starts), so a prompt edited near its end is not two identical truncated values.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection
from typing import Any

from .._values import safe_repr

__all__ = ["diff_json", "without_keys"]

_LIMIT = 20
# Strings longer than this (or spanning lines) are shown as a window around the change.
_SHORT = 60
# Characters of unchanged text shown on each side of a change, and of the change itself.
_CONTEXT = 30
_CHANGE = 80
# Above this many changed characters, difflib is not asked how many separate changes
# there are (its cost grows with the square of the length).
_DIFFLIB_LIMIT = 4000


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
    if isinstance(recorded, str) and isinstance(live, str) and _long(recorded, live):
        lines.append(_text_change(recorded, live, path))
        return
    lines.append(f"{path}: recorded {safe_repr(recorded)}, now {safe_repr(live)}")


def _long(recorded: str, live: str) -> bool:
    return max(len(recorded), len(live)) > _SHORT or "\n" in recorded or "\n" in live


def _text_change(recorded: str, live: str, path: str) -> str:
    """One line showing where two long strings start to differ, with the text around it."""
    shortest = min(len(recorded), len(live))
    prefix = 0
    while prefix < shortest and recorded[prefix] == live[prefix]:
        prefix += 1
    suffix = 0
    while suffix < shortest - prefix and recorded[-1 - suffix] == live[-1 - suffix]:
        suffix += 1
    old = recorded[prefix : len(recorded) - suffix]
    new = live[prefix : len(live) - suffix]
    further = 0
    if len(old) + len(new) <= _DIFFLIB_LIMIT:
        # Changes closer together than the context shown count as one, as in a unified
        # diff; of several, the first is shown.
        matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
        groups = list(matcher.get_grouped_opcodes(_CONTEXT))
        further = max(0, len(groups) - 1)
        if further:
            changes = [op for op in groups[0] if op[0] != "equal"]
            old, new = old[: changes[-1][2]], new[: changes[-1][4]]
    line = recorded.count("\n", 0, prefix) + 1
    where = f"from character {prefix + 1} (line {line})"
    if further:
        where += f", and {further} more change(s) further on"
    return (
        f"{path}: differs {where}: recorded {_window(recorded, prefix, old)}, "
        f"now {_window(live, prefix, new)}"
    )


def _window(text: str, start: int, changed: str) -> str:
    """``text`` around ``changed`` (which begins at ``start``), elided on both sides."""
    before = text[max(0, start - _CONTEXT) : start]
    middle = changed if len(changed) <= _CHANGE else changed[:_CHANGE]
    end = start + len(middle)
    after = "" if len(changed) > _CHANGE else text[end : end + _CONTEXT]
    head = "..." if start > len(before) else ""
    tail = "..." if end + len(after) < len(text) else ""
    return f"{head}{before + middle + after!r}{tail}"


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
