"""The SDK's normalized realtime event types and detached snapshots of outgoing events.

Event classes are read from the installed SDK's ``RealtimeModelEvent`` and
``RealtimeModelSendEvent`` unions, so events added by newer releases are accepted
without a version check. Snapshots copy event data but keep live SDK objects (the
tools and handoffs of a session update) by identity.
"""

from __future__ import annotations

import dataclasses
from typing import Any, get_args

from agents.realtime.model_events import RealtimeModelEvent
from agents.realtime.model_inputs import RealtimeModelSendEvent

from agents_testing.core import detach

__all__ = [
    "MODEL_EVENT_TYPES",
    "SEND_EVENT_TYPES",
    "detach_send_event",
    "detach_settings",
    "is_model_event",
]

MODEL_EVENT_TYPES: tuple[type, ...] = get_args(RealtimeModelEvent)
"""Every normalized incoming event class of the installed SDK."""

SEND_EVENT_TYPES: tuple[type, ...] = get_args(RealtimeModelSendEvent)
"""Every normalized outgoing event class of the installed SDK."""

# Session settings keys whose values are lists of live runtime objects: the session
# looks tools and handoffs up by identity, so snapshots must not copy them.
_LIVE_SETTINGS_KEYS = frozenset({"tools", "handoffs"})

# Init field names per outgoing event class, read once: snapshots are made on every send.
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def is_model_event(value: object) -> bool:
    """Whether ``value`` is a normalized incoming ``RealtimeModelEvent``."""
    return isinstance(value, MODEL_EVENT_TYPES)


def detach_settings(settings: Any) -> Any:
    """Copy session settings, keeping the tool and handoff objects themselves."""
    if type(settings) is not dict:
        return detach(settings, name="settings")
    return {
        key: type(value)(value)
        if key in _LIVE_SETTINGS_KEYS and type(value) in (list, tuple)
        else detach(value, name=f"settings[{key!r}]")
        for key, value in settings.items()
    }


def detach_send_event(event: RealtimeModelSendEvent) -> RealtimeModelSendEvent:
    """A copy of an outgoing event that later mutation of ``event`` cannot change.

    Every init field is copied, so fields added by newer SDK releases survive; session
    settings keep their tool and handoff objects.
    """
    kind = type(event)
    names = _FIELD_NAMES.get(kind)
    if names is None:
        if not dataclasses.is_dataclass(event):
            return detach(event, name="event")
        names = tuple(field.name for field in dataclasses.fields(event) if field.init)
        _FIELD_NAMES[kind] = names
    values = {
        name: detach_settings(value)
        if name == "session_settings"
        else detach(value, name=f"{kind.__name__}.{name}")
        for name in names
        for value in (getattr(event, name),)
    }
    return kind(**values)
