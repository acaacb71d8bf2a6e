"""Deterministic call ids for scripted tool calls built without one.

A builder called without ``call_id`` leaves :data:`AUTO_CALL_ID`; the model replaces it
when it serves the item with the next ``call_N`` of its own counter (``call_1``,
``call_2``, ... in the order the calls are served). A number is skipped when its id is
already taken: written explicitly in any step queued on this model so far (or in a
response a responder returned), or present in the request being answered (an earlier
agent's calls, session history), so an assigned id never collides with a known one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .common import AUTO_CALL_ID

__all__ = ["CallIdAllocator"]


def _call_id(item: object) -> object:
    if isinstance(item, Mapping):
        return item.get("call_id")
    return getattr(item, "call_id", None)


class CallIdAllocator:
    """One model's counter of assigned call ids and the explicit ids it must avoid."""

    def __init__(self) -> None:
        self._next = 1
        self._explicit: set[str] = set()

    def note(self, items: Iterable[object]) -> None:
        """Remember the explicit call ids among ``items`` (scripted output items)."""
        for item in items:
            value = _call_id(item)
            if isinstance(value, str) and value != AUTO_CALL_ID:
                self._explicit.add(value)

    def assign(self, output: Sequence[Any], request_input: object) -> list[Any]:
        """``output`` with every placeholder call id replaced, in item order."""
        # Explicit ids of every served response count, a responder's included.
        self.note(output)
        if not any(_call_id(item) == AUTO_CALL_ID for item in output):
            return list(output)
        taken = set(self._explicit)
        if isinstance(request_input, list):
            for item in request_input:
                value = _call_id(item)
                if isinstance(value, str):
                    taken.add(value)
        assigned: list[Any] = []
        for item in output:
            if _call_id(item) == AUTO_CALL_ID:
                while f"call_{self._next}" in taken:
                    self._next += 1
                new_id = f"call_{self._next}"
                self._next += 1
                update = {"call_id": new_id}
                # An item whose id defaulted to its call id takes the assigned id too.
                if getattr(item, "id", None) == AUTO_CALL_ID:
                    update["id"] = new_id
                item = item.model_copy(update=update)
            assigned.append(item)
        return assigned
