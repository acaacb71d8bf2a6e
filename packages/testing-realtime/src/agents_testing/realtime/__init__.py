"""Test ``RealtimeSession`` workflows without opening a WebSocket.

:class:`ScriptedRealtimeModel` implements the SDK's ``RealtimeModel`` boundary: each
:class:`RealtimeStep` matches one outgoing normalized event and then emits incoming
normalized events or raises an error. Also importable as ``agents.realtime.testing``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agents_testing.core.lazy import serve_lazily

if TYPE_CHECKING:
    from agents_testing.core import any_order, to_snapshot

    from ._connect import RealtimeConnectCall
    from ._delivered import DeliveredEvent, DeliverySource
    from ._errors import (
        InvalidRealtimeStep,
        RealtimeAlreadyConnected,
        RealtimeScriptError,
        UnconsumedRealtimeSteps,
        UnexpectedRealtimeSend,
    )
    from ._factory import ScriptedRealtimeModelFactory
    from ._faults import RealtimeFault
    from ._model import ScriptedRealtimeModel
    from ._step import RealtimeExpectation, RealtimeStep

__all__ = [
    "DeliveredEvent",
    "DeliverySource",
    "InvalidRealtimeStep",
    "RealtimeAlreadyConnected",
    "RealtimeConnectCall",
    "RealtimeExpectation",
    "RealtimeFault",
    "RealtimeScriptError",
    "RealtimeStep",
    "ScriptedRealtimeModel",
    "ScriptedRealtimeModelFactory",
    "UnconsumedRealtimeSteps",
    "UnexpectedRealtimeSend",
    "any_order",
    "to_snapshot",
]

# Names are imported on first use, so that loading the package (as a pytest plugin, for
# one) does not import the SDK.
serve_lazily(
    __name__,
    {
        "DeliveredEvent": "._delivered",
        "DeliverySource": "._delivered",
        "InvalidRealtimeStep": "._errors",
        "RealtimeAlreadyConnected": "._errors",
        "RealtimeConnectCall": "._connect",
        "RealtimeExpectation": "._step",
        "RealtimeFault": "._faults",
        "RealtimeScriptError": "._errors",
        "RealtimeStep": "._step",
        "ScriptedRealtimeModel": "._model",
        "ScriptedRealtimeModelFactory": "._factory",
        "UnconsumedRealtimeSteps": "._errors",
        "UnexpectedRealtimeSend": "._errors",
        "any_order": "agents_testing.core",
        "to_snapshot": "agents_testing.core",
    },
)
