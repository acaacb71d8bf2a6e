"""Scripted STT, TTS and workflow doubles for testing ``VoicePipeline`` without audio services.

Also importable as ``agents.voice.testing`` through the agents-testing import bridge.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agents_testing.core.lazy import serve_lazily

if TYPE_CHECKING:
    from agents_testing.core import any_order, to_snapshot

    from ._audio import pcm16_samples
    from ._errors import (
        InvalidVoiceStep,
        InvalidVoiceStepReason,
        UnconsumedVoiceSteps,
        UnexpectedVoiceCall,
        VoiceCallMatcherError,
        VoiceOperation,
        VoiceScriptError,
        VoiceStepKind,
    )
    from ._factory import (
        ScriptedSTTModelFactory,
        ScriptedTTSModelFactory,
        ScriptedVoiceWorkflowFactory,
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
    "ScriptedSTTModelFactory",
    "ScriptedTTSModel",
    "ScriptedTTSModelFactory",
    "ScriptedTranscriptionSession",
    "ScriptedVoiceWorkflow",
    "ScriptedVoiceWorkflowFactory",
    "SessionSpec",
    "TTSCall",
    "TTSResult",
    "TTSResultSpec",
    "TranscriptionSpec",
    "TranscriptionTurn",
    "UnconsumedVoiceSteps",
    "UnexpectedVoiceCall",
    "VoiceCallMatcherError",
    "VoiceOperation",
    "VoiceScriptError",
    "VoiceStepKind",
    "WorkflowResultSpec",
    "any_order",
    "pcm16_samples",
    "to_snapshot",
]

# Names are imported on first use, so that loading the package (as a pytest plugin, for
# one) does not import the SDK.
serve_lazily(
    __name__,
    {
        "InvalidVoiceStep": "._errors",
        "InvalidVoiceStepReason": "._errors",
        "STTCall": "._stt",
        "STTSessionCall": "._stt",
        "ScriptedSTTModel": "._stt",
        "ScriptedSTTModelFactory": "._factory",
        "ScriptedTTSModel": "._tts",
        "ScriptedTTSModelFactory": "._factory",
        "ScriptedTranscriptionSession": "._session",
        "ScriptedVoiceWorkflow": "._workflow",
        "ScriptedVoiceWorkflowFactory": "._factory",
        "SessionSpec": "._stt",
        "TTSCall": "._tts",
        "TTSResult": "._tts",
        "TTSResultSpec": "._tts",
        "TranscriptionSpec": "._stt",
        "TranscriptionTurn": "._session",
        "UnconsumedVoiceSteps": "._errors",
        "UnexpectedVoiceCall": "._errors",
        "VoiceCallMatcherError": "._errors",
        "VoiceOperation": "._errors",
        "VoiceScriptError": "._errors",
        "VoiceStepKind": "._errors",
        "WorkflowResultSpec": "._workflow",
        "any_order": "agents_testing.core",
        "pcm16_samples": "._audio",
        "to_snapshot": "agents_testing.core",
    },
)
