"""The SDK's normalized realtime event types and detached snapshots of outgoing events.

Event classes are read from the installed SDK's ``RealtimeModelEvent`` and
``RealtimeModelSendEvent`` unions, so events added by newer releases are accepted
without a version check. Snapshots copy event data but keep live SDK objects (the
tools and handoffs of a session update) by identity.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
from typing import Any, TypeVar, get_args

from agents.realtime.model_events import RealtimeModelEvent
from agents.realtime.model_inputs import RealtimeModelSendEvent

from agents_testing.core import UncopyableValue, detach, safe_repr

__all__ = [
    "MODEL_EVENT_TYPES",
    "SEND_EVENT_TYPES",
    "detach_model_event",
    "detach_send_event",
    "detach_settings",
    "is_model_event",
    "own_deepcopy",
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

# Whether an event class has its own ``__deepcopy__``, read once per class.
_OWN_DEEPCOPY: dict[type, bool] = {}

# Immutable field values that the copy may share.
_KEEP_AS_IS: frozenset[type] = frozenset({str, int, float, bool, bytes, type(None)})

E = TypeVar("E")
T = TypeVar("T")


def is_model_event(value: object) -> bool:
    """Whether ``value`` is a normalized incoming ``RealtimeModelEvent``."""
    return isinstance(value, MODEL_EVENT_TYPES)


def _copied(value: T, name: str, wrap_errors: bool) -> T:
    """:func:`agents_testing.core.detach` of ``value``, failing without naming any content.

    A failure names the event field (``name``) and the class of what could not be copied,
    never a dict key or the failure's own text: sent events carry what users say and
    type. ``wrap_errors=False`` re-raises the value's own exception, with that
    explanation as a note (Python 3.11+); otherwise :class:`UncopyableValue`.
    """
    try:
        return detach(value, name=name)
    except UncopyableValue as error:
        original = error.__cause__ if error.__cause__ is not None else error
        failure = UncopyableValue(
            name,
            error.value_type,
            f"a {error.value_type} in it cannot be copied ({type(original).__name__})",
        )
    if wrap_errors:
        raise failure from original
    add_note = getattr(original, "add_note", None)
    if add_note is not None:
        # A value's exception may refuse attributes; the original error is what counts.
        with contextlib.suppress(Exception):
            add_note(f"agents-testing: {failure}")
    # Raised outside the handler, so the caller's exception is not chained to ours.
    raise original


def own_deepcopy(kind: type) -> bool:
    """Whether ``kind`` defines ``__deepcopy__``: then that method makes every copy."""
    known = _OWN_DEEPCOPY.get(kind)
    if known is None:
        known = _OWN_DEEPCOPY[kind] = getattr(kind, "__deepcopy__", None) is not None
    return known


def detach_settings(settings: Any, *, wrap_errors: bool = True) -> Any:
    """Copy session settings, keeping the tool and handoff objects themselves.

    A value that cannot be copied raises as :func:`agents_testing.core.detach` says
    (``wrap_errors=False``: the value's own exception).
    """
    if type(settings) is not dict:
        return _copied(settings, "settings", wrap_errors)
    return {
        key: type(value)(value)
        if key in _LIVE_SETTINGS_KEYS and type(value) in (list, tuple)
        else _copied(value, f"settings[{safe_repr(key, 40)}]", wrap_errors)
        for key, value in settings.items()
    }


def detach_send_event(
    event: RealtimeModelSendEvent, *, wrap_errors: bool = True
) -> RealtimeModelSendEvent:
    """A copy of an outgoing event that later mutation of ``event`` cannot change.

    Every init field is copied, so fields added by newer SDK releases survive; session
    settings keep their tool and handoff objects. An event class with its own
    ``__deepcopy__`` is copied by it. A value that cannot be copied raises as
    :func:`agents_testing.core.detach` says.
    """
    kind = type(event)
    names = _FIELD_NAMES.get(kind)
    if names is None:
        if not dataclasses.is_dataclass(event) or own_deepcopy(kind):
            return _copied(event, kind.__name__, wrap_errors)
        names = tuple(field.name for field in dataclasses.fields(event) if field.init)
        _FIELD_NAMES[kind] = names
    values = {
        name: value
        if type(value) in _KEEP_AS_IS
        else detach_settings(value, wrap_errors=wrap_errors)
        if name == "session_settings"
        else _copied(value, f"{kind.__name__}.{name}", wrap_errors)
        for name in names
        for value in (getattr(event, name),)
    }
    return kind(**values)


def detach_model_event(event: E, *, wrap_errors: bool = True) -> E:
    """A copy of an incoming event that shares no mutable data with ``event``.

    Exceptions (the payload of ``RealtimeModelExceptionEvent``) and classes keep their
    identity, so a test can check that the session raises the very exception it
    scripted. The copy keeps the event's class, including subclasses of the SDK's; a
    class with its own ``__deepcopy__`` is copied by it, as ``copy.deepcopy`` would.
    """
    kind = type(event)
    names = _MODEL_FIELD_NAMES.get(kind)
    if names is None:
        if not dataclasses.is_dataclass(event) or isinstance(event, type) or own_deepcopy(kind):
            return _copied(event, kind.__name__, wrap_errors)
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
            object.__setattr__(fresh, name, _copied(value, f"{kind.__name__}.{name}", wrap_errors))
    return fresh
