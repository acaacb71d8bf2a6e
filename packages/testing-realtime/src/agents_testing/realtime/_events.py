"""The SDK's normalized realtime event types and detached snapshots of outgoing events.

Event classes are read from the installed SDK's ``RealtimeModelEvent`` and
``RealtimeModelSendEvent`` unions, so events added by newer releases are accepted
without a version check. Snapshots copy event data but keep live SDK objects (the
tools and handoffs of a session update) by identity.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any, get_args

from agents.realtime.model_events import RealtimeModelEvent
from agents.realtime.model_inputs import (
    RealtimeModelSendAudio,
    RealtimeModelSendEvent,
    RealtimeModelSendInterrupt,
    RealtimeModelSendSessionUpdate,
    RealtimeModelSendToolOutput,
    RealtimeModelSendUserInput,
)

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

# Outgoing events whose fields are all immutable values: a shallow copy detaches them.
_FLAT_EVENTS: frozenset[type] = frozenset({RealtimeModelSendAudio, RealtimeModelSendInterrupt})


def is_model_event(value: object) -> bool:
    """Whether ``value`` is a normalized incoming ``RealtimeModelEvent``."""
    return isinstance(value, MODEL_EVENT_TYPES)


def detach_settings(settings: Any) -> Any:
    """Copy session settings, keeping the tool and handoff objects themselves."""
    if type(settings) is not dict:
        return detach(settings)
    return {
        key: list(value)
        if key in _LIVE_SETTINGS_KEYS and isinstance(value, (list, tuple))
        else detach(value)
        for key, value in settings.items()
    }


def detach_send_event(event: RealtimeModelSendEvent) -> RealtimeModelSendEvent:
    """A copy of an outgoing event that later mutation of ``event`` cannot change."""
    kind = type(event)
    # The common events get a direct constructor call: this runs once per send.
    if kind is RealtimeModelSendUserInput:
        user_input = event.user_input  # type: ignore[union-attr]
        if type(user_input) is not str:
            user_input = detach(user_input)
        return RealtimeModelSendUserInput(user_input=user_input)
    if kind in _FLAT_EVENTS:
        return copy.copy(event)
    if kind is RealtimeModelSendToolOutput:
        assert isinstance(event, RealtimeModelSendToolOutput)
        return RealtimeModelSendToolOutput(
            tool_call=copy.copy(event.tool_call),
            output=event.output,
            start_response=event.start_response,
        )
    if kind is RealtimeModelSendSessionUpdate:
        assert isinstance(event, RealtimeModelSendSessionUpdate)
        return RealtimeModelSendSessionUpdate(
            session_settings=detach_settings(event.session_settings)
        )
    if dataclasses.is_dataclass(event):
        # Raw messages and event types from newer releases: plain data fields.
        fields = {
            field.name: detach(getattr(event, field.name))
            for field in dataclasses.fields(event)
            if field.init
        }
        return kind(**fields)
    return detach(event)
