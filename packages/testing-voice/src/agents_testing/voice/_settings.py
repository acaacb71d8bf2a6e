"""Snapshots of the SDK's voice settings dataclasses, and what the scripted models share."""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from agents_testing.core import ReadOnly, detach

__all__ = ["ScriptedVoiceModel", "settings_snapshot"]

T = TypeVar("T")

# Field values that need no copy; most fields of the SDK's settings hold one.
_PLAIN: frozenset[type] = frozenset({str, int, float, bool, type(None)})


def _field(name: str, value: Any, wrap_errors: bool) -> Any:
    kind = type(value)
    if kind in _PLAIN:
        return value
    # Callables (text_splitter, transform_data, the dtype class) are live objects the
    # pipeline uses; one that defines its own copy is copied by it, as copy.deepcopy would.
    if callable(value) and getattr(kind, "__deepcopy__", None) is None:
        return value
    return detach(value, name=f"settings.{name}", wrap_errors=wrap_errors)


def settings_snapshot(settings: T, *, wrap_errors: bool = False) -> T:
    """A copy of ``STTModelSettings`` / ``TTSModelSettings`` that later mutation cannot reach.

    Plain data (voices, turn detection, language lists) is deep-copied with
    ``copy.deepcopy``'s protocol; callables keep their identity unless they define
    ``__deepcopy__``. A value whose copy raises re-raises that very exception, or, with
    ``wrap_errors``, ``UncopyableValue`` naming the field.
    """
    state: dict[str, Any] | None = getattr(settings, "__dict__", None)
    if state is None or not dataclasses.is_dataclass(settings) or isinstance(settings, type):
        return detach(settings, name="settings", wrap_errors=wrap_errors)
    # Every field is copied before the snapshot exists: a failing copy leaves nothing.
    copied = {name: _field(name, value, wrap_errors) for name, value in state.items()}
    # Called on every TTS call, so it skips copy.copy's generic reduce protocol.
    kind = type(settings)
    fresh: T = kind.__new__(kind)
    fresh.__dict__.update(copied)
    return fresh


class ScriptedVoiceModel:
    """What the scripted STT and TTS models share: their name and their checks."""

    model_name = ReadOnly[str]("_model_name")
    extra_checks = ReadOnly[bool](
        "_extra_checks",
        "Whether a failed copy is reported as ``UncopyableValue`` instead of as it is.",
    )
