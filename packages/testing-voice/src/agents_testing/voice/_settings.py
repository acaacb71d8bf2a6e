"""Snapshots of the SDK's voice settings dataclasses."""

from __future__ import annotations

import copy
import dataclasses
from typing import TypeVar

from agents_testing.core import detach

__all__ = ["settings_snapshot"]

T = TypeVar("T")


def settings_snapshot(settings: T) -> T:
    """A copy of ``STTModelSettings`` / ``TTSModelSettings`` that later mutation cannot reach.

    Plain data (voices, turn detection, language lists) is detached; callables such as
    ``text_splitter`` and ``transform_data`` and dtype classes are live objects the
    pipeline uses, so they keep their identity and are never deep-copied.
    """
    if not dataclasses.is_dataclass(settings) or isinstance(settings, type):
        return detach(settings)
    snapshot = copy.copy(settings)
    for field in dataclasses.fields(settings):
        value = getattr(settings, field.name)
        if not callable(value):
            object.__setattr__(snapshot, field.name, detach(value))
    return snapshot
