"""Test ``RealtimeSession`` workflows without opening a WebSocket.

:class:`ScriptedRealtimeModel` implements the SDK's ``RealtimeModel`` boundary: each
:class:`RealtimeStep` matches one outgoing normalized event and then emits incoming
normalized events or raises an error. Also importable as ``agents.realtime.testing``.
"""

from __future__ import annotations

from ._connect import RealtimeConnectCall
from ._errors import (
    InvalidRealtimeStep,
    RealtimeScriptError,
    UnconsumedRealtimeSteps,
    UnexpectedRealtimeSend,
)
from ._model import ScriptedRealtimeModel
from ._step import RealtimeExpectation, RealtimeStep

__all__ = [
    "InvalidRealtimeStep",
    "RealtimeConnectCall",
    "RealtimeExpectation",
    "RealtimeScriptError",
    "RealtimeStep",
    "ScriptedRealtimeModel",
    "UnconsumedRealtimeSteps",
    "UnexpectedRealtimeSend",
]
