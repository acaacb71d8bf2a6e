"""Shared helpers for the voice tests: draining a pipeline result into a readable outcome."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from agents.voice import (
    AudioInput,
    StreamedAudioResult,
    TTSModelSettings,
    VoicePipelineConfig,
    VoiceStreamEvent,
    VoiceStreamEventAudio,
    VoiceStreamEventLifecycle,
)


@dataclass
class Outcome:
    """Everything a consumer saw on ``StreamedAudioResult.stream()``."""

    events: list[VoiceStreamEvent] = field(default_factory=list)
    error: BaseException | None = None

    @property
    def kinds(self) -> list[str]:
        """Lifecycle event names and ``"audio"`` for audio events, in arrival order."""
        return [
            event.event if isinstance(event, VoiceStreamEventLifecycle) else "audio"
            for event in self.events
        ]

    @property
    def audio(self) -> list[bytes]:
        """The PCM bytes of every audio event, in order."""
        return [
            event.data.tobytes()
            for event in self.events
            if isinstance(event, VoiceStreamEventAudio) and event.data is not None
        ]


Drain = Callable[[StreamedAudioResult], Awaitable[Outcome]]


@pytest.fixture
def drain() -> Drain:
    """Consume a pipeline result; the error ``stream()`` raised, if any, is kept, not raised."""

    async def run(result: StreamedAudioResult) -> Outcome:
        outcome = Outcome()
        try:
            async for event in result.stream():
                outcome.events.append(event)
        except Exception as error:
            outcome.error = error
        return outcome

    return run


@pytest.fixture
def voice_config() -> Callable[..., VoicePipelineConfig]:
    """A tracing-free pipeline config whose TTS output is one audio event per chunk."""

    def build(**tts: Any) -> VoicePipelineConfig:
        return VoicePipelineConfig(
            tracing_disabled=True, tts_settings=TTSModelSettings(buffer_size=1, **tts)
        )

    return build


@pytest.fixture
def silence() -> AudioInput:
    """A short static audio buffer; the scripted STT model ignores its content."""
    return AudioInput(np.zeros(4, dtype=np.int16))


def flush_every_fragment(text: str) -> tuple[str, str]:
    """A text splitter that sends each fragment to TTS as it arrives, unsplit."""
    return text, ""


@pytest.fixture
def fragment_splitter() -> Callable[[str], tuple[str, str]]:
    """A splitter that keeps the workflow's fragment boundaries all the way to TTS."""
    return flush_every_fragment
