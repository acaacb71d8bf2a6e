"""Shared helpers for the voice tests: draining a pipeline result into a readable outcome."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from agents.voice import (
    AudioInput,
    StreamedAudioInput,
    StreamedAudioResult,
    TTSModelSettings,
    VoicePipeline,
    VoicePipelineConfig,
    VoiceStreamEvent,
    VoiceStreamEventAudio,
    VoiceStreamEventLifecycle,
)
from agents.voice.testing import (
    ScriptedSTTModel,
    ScriptedTTSModel,
    ScriptedVoiceWorkflow,
    pcm16_samples,
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


# A hang detector, not a timing assertion: a healthy run finishes in milliseconds.
HANG_BOUND = 10.0


async def drain_bounded(result: StreamedAudioResult) -> tuple[Outcome, bool]:
    """Consume ``stream()`` like ``drain``; also report whether it had to be stopped.

    ``asyncio.wait_for`` alone cannot tell: older pipelines swallow the cancellation
    inside ``stream()`` and return as if the stream had ended.
    """
    outcome = Outcome()
    stopped: list[bool] = []

    async def consume() -> None:
        try:
            async for event in result.stream():
                outcome.events.append(event)
        except Exception as error:
            outcome.error = error

    task = asyncio.ensure_future(consume())

    def stop() -> None:
        stopped.append(True)
        task.cancel()

    timer = asyncio.get_running_loop().call_later(HANG_BOUND, stop)
    try:
        await asyncio.wait_for(asyncio.shield(task), HANG_BOUND * 2)
    except (asyncio.CancelledError, asyncio.TimeoutError):
        stopped.append(True)
    finally:
        timer.cancel()
    if stopped:
        producer = result.text_generation_task
        if producer is not None and not producer.done():
            producer.cancel()
    return outcome, bool(stopped)


Location = str
"""Where a scripted value goes: one of ``LOCATIONS``."""

LOCATIONS: tuple[Location, ...] = (
    "transcription",
    "session",
    "session_turn",
    "tts",
    "workflow_turn",
    "start",
)

SPOKEN = "Hello there, this sentence is long enough to be spoken."


def scripted_at(
    location: Location, value: object, *, streamed: bool
) -> tuple[ScriptedSTTModel, ScriptedVoiceWorkflow, ScriptedTTSModel]:
    """Doubles for one pipeline run with ``value`` scripted at ``location``.

    Everything else is a plain, valid step, so whatever goes wrong comes from ``value``.
    Building the doubles raises ``InvalidVoiceStep`` when ``value`` is refused.
    """
    pcm = pcm16_samples([1, -1])
    transcriptions: list[Any] = ["heard"]
    sessions: list[Any] = [["heard"]]
    turns: list[Any] = [SPOKEN]
    results: list[Any] = [[pcm]]
    start: Any = None
    if location == "transcription":
        transcriptions = [value]
    elif location == "session":
        sessions = [value]
    elif location == "session_turn":
        sessions = [["heard", value]]
        turns = [SPOKEN, SPOKEN]
        results = [[pcm], [pcm]]
    elif location == "tts":
        results = [value]
    elif location == "workflow_turn":
        turns = [value]
    elif location == "start":
        start = value
    else:  # pragma: no cover - a typo in a test
        raise AssertionError(location)
    stt = ScriptedSTTModel(
        transcriptions if not streamed else (), sessions=sessions if streamed else ()
    )
    return stt, ScriptedVoiceWorkflow(turns, start=start), ScriptedTTSModel(results)


def voice_pipeline(
    stt: ScriptedSTTModel, workflow: ScriptedVoiceWorkflow, tts: ScriptedTTSModel
) -> VoicePipeline:
    """A pipeline over the doubles, with one audio event per scripted chunk and no tracing."""
    return VoicePipeline(
        workflow=workflow,
        stt_model=stt,
        tts_model=tts,
        config=VoicePipelineConfig(
            tracing_disabled=True, tts_settings=TTSModelSettings(buffer_size=1)
        ),
    )


def audio_input(streamed: bool) -> AudioInput | StreamedAudioInput:
    """A fresh static buffer or streamed input."""
    return StreamedAudioInput() if streamed else AudioInput(np.zeros(4, dtype=np.int16))


@dataclass
class VoiceRuns:
    """Build doubles with one value scripted somewhere and run them through the pipeline."""

    locations: tuple[Location, ...] = LOCATIONS

    @staticmethod
    def streamed_for(location: Location) -> tuple[bool, ...]:
        """The input kinds that reach ``location``: sessions and start need a streamed input."""
        if location in ("session", "session_turn", "start"):
            return (True,)
        if location == "transcription":
            return (False,)
        return (False, True)

    @staticmethod
    def build(
        location: Location, value: object, *, streamed: bool
    ) -> tuple[ScriptedSTTModel, ScriptedVoiceWorkflow, ScriptedTTSModel]:
        return scripted_at(location, value, streamed=streamed)

    @staticmethod
    async def run(
        doubles: tuple[ScriptedSTTModel, ScriptedVoiceWorkflow, ScriptedTTSModel],
        *,
        streamed: bool,
    ) -> tuple[Outcome, bool]:
        """Run the pipeline once and drain it; returns the outcome and whether it hung."""
        result = await voice_pipeline(*doubles).run(audio_input(streamed))
        return await drain_bounded(result)


@pytest.fixture
def voice_runs() -> VoiceRuns:
    """Helpers that script one value at a named place and drain a real pipeline run."""
    return VoiceRuns()
