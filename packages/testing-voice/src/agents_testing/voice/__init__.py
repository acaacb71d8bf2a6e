"""Scripted STT, TTS and workflow doubles for testing ``VoicePipeline`` without audio services.

Also importable as ``agents.voice.testing`` through the agents-testing import bridge.
"""

from __future__ import annotations

from ._audio import pcm16_samples
from ._errors import (
    InvalidVoiceStep,
    InvalidVoiceStepReason,
    UnconsumedVoiceSteps,
    UnexpectedVoiceCall,
    VoiceOperation,
    VoiceScriptError,
    VoiceStepKind,
)
from ._session import ScriptedTranscriptionSession, TranscriptionTurn
from ._stt import ScriptedSTTModel, SessionSpec, STTCall, STTSessionCall, TranscriptionSpec
from ._tts import ScriptedTTSModel, TTSCall, TTSResult, TTSResultSpec
from ._workflow import ScriptedVoiceWorkflow, WorkflowResultSpec

__all__ = [
    "InvalidVoiceStep",
    "InvalidVoiceStepReason",
    "STTCall",
    "STTSessionCall",
    "ScriptedSTTModel",
    "ScriptedTTSModel",
    "ScriptedTranscriptionSession",
    "ScriptedVoiceWorkflow",
    "SessionSpec",
    "TTSCall",
    "TTSResult",
    "TTSResultSpec",
    "TranscriptionSpec",
    "TranscriptionTurn",
    "UnconsumedVoiceSteps",
    "UnexpectedVoiceCall",
    "VoiceOperation",
    "VoiceScriptError",
    "VoiceStepKind",
    "WorkflowResultSpec",
    "pcm16_samples",
]
