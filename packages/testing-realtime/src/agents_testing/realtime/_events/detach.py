"""The SDK's normalized realtime event types and detached snapshots of outgoing events.

Event classes are read from the installed SDK's ``RealtimeModelEvent`` and
``RealtimeModelSendEvent`` unions, so events added by newer releases are accepted
without a version check. Snapshots copy event data but keep live SDK objects (the
tools and handoffs of a session update) by identity.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar, get_args

from agents.realtime.model_events import RealtimeModelEvent
from agents.realtime.model_inputs import RealtimeModelSendEvent

from agents_testing.core import AgentsTestingError, detach

from .._errors import RealtimeScriptError

__all__ = [
    "MODEL_EVENT_TYPES",
    "SEND_EVENT_TYPES",
    "detach_model_event",
    "detach_send_event",
    "detach_settings",
    "record_copy",
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

# Field names per incoming event class, read once: every emission is copied.
_MODEL_FIELD_NAMES: dict[type, tuple[str, ...]] = {}

# Immutable field values that the copy may share.
_KEEP_AS_IS: frozenset[type] = frozenset({str, int, float, bool, bytes, type(None)})

E = TypeVar("E")
T = TypeVar("T")


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


def detach_model_event(event: E) -> E:
    """A copy of an incoming event that shares no mutable data with ``event``.

    Exceptions (the payload of ``RealtimeModelExceptionEvent``) and classes keep their
    identity, so a test can check that the session raises the very exception it
    scripted. The copy keeps the event's class, including subclasses of the SDK's.
    """
    kind = type(event)
    names = _MODEL_FIELD_NAMES.get(kind)
    if names is None:
        if not dataclasses.is_dataclass(event) or isinstance(event, type):
            return detach(event)
        names = tuple(field.name for field in dataclasses.fields(event))
        _MODEL_FIELD_NAMES[kind] = names
    state = getattr(event, "__dict__", None)
    if type(state) is dict:
        # Events are emitted on every scripted step: build the copy directly rather
        # than through copy.copy, which costs several times as much.
        fresh = object.__new__(kind)
        fresh.__dict__.update(state)
    else:
        fresh = copy.copy(event)
    for name in names:
        value = getattr(event, name)
        if type(value) not in _KEEP_AS_IS and not isinstance(value, (BaseException, type)):
            # Set through object.__setattr__ so frozen event classes are copied too.
            object.__setattr__(fresh, name, detach(value))
    return fresh


def record_copy(copier: Callable[[T], T], value: T, what: str) -> T:
    """``copier(value)``, turning a failure to copy into a :class:`RealtimeScriptError`.

    Used where the code under test hands the model data to record: a value that cannot
    be copied (a lock, an open file) must fail with our error and record nothing.
    """
    try:
        return copier(value)
    except AgentsTestingError:
        raise
    except Exception as error:
        raise RealtimeScriptError(
            f"{what} holds a value that cannot be copied for the history "
            f"({type(error).__name__}); nothing was recorded. "
            "Send plain data (str, numbers, lists, dicts, pydantic models)."
        ) from error
