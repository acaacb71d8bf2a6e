"""Snapshots of the SDK's voice settings dataclasses."""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from agents_testing.core import detach

__all__ = ["settings_snapshot"]

T = TypeVar("T")


def settings_snapshot(settings: T) -> T:
    """A copy of ``STTModelSettings`` / ``TTSModelSettings`` that later mutation cannot reach.

    Plain data (voices, turn detection, language lists) is detached; callables such as
    ``text_splitter`` and ``transform_data`` and dtype classes are live objects the
    pipeline uses, so they keep their identity and are never deep-copied.
    """
    state: dict[str, Any] | None = getattr(settings, "__dict__", None)
    if state is None or not dataclasses.is_dataclass(settings) or isinstance(settings, type):
        return detach(settings, name="settings")
    # Called once per TTS call, so it skips copy.copy's generic reduce protocol.
    kind = type(settings)
    fresh: T = kind.__new__(kind)
    fresh.__dict__.update(
        {
            name: value if callable(value) else detach(value, name=f"settings.{name}")
            for name, value in state.items()
        }
    )
    return fresh
