"""A scripted transcription drop fails the pipeline as a real socket's drop does.

The SDK's own ``OpenAISTTModel`` transcribes a live call through a local WebSocket server
that answers the caller's first utterance and then resets the connection in the middle of
the second; the same pipeline then runs on a ``ScriptedTranscriptionSession`` with
``drop_after=1``. What the workflow heard, what the stream gave out and the error it
raised must be the same. Slow: a real socket and real time.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import numpy as np
import pytest
import websockets
from agents.voice import StreamedAudioInput, STTModel, VoicePipeline, VoicePipelineConfig
from agents.voice.models import openai_stt
from openai import AsyncOpenAI

from agents_testing.voice import (
    ScriptedSTTModel,
    ScriptedTranscriptionSession,
    ScriptedTTSModel,
    ScriptedVoiceWorkflow,
    pcm16_samples,
)

from .._websocket import local_websocket_server

pytestmark = [pytest.mark.asyncio, pytest.mark.slow]

GUARD_SECONDS = 20.0


@asynccontextmanager
async def transcription_server() -> AsyncIterator[str]:
    """A server that transcribes the first utterance, then drops in the second."""

    async def handler(connection: Any) -> None:
        await connection.send(json.dumps({"type": "transcription_session.created"}))
        appended = 0
        async for message in connection:
            kind = json.loads(message).get("type")
            if kind == "session.update":
                for event in (
                    {"type": "transcription_session.updated"},
                    {"type": "input_audio_buffer.committed", "item_id": "i1"},
                    {
                        "type": "conversation.item.input_audio_transcription.completed",
                        "item_id": "i1",
                        "transcript": "Book a flight to Oslo",
                    },
                ):
                    await connection.send(json.dumps(event))
            elif kind == "input_audio_buffer.append":
                appended += 1
                if appended == 2:  # the caller is talking again: the line goes
                    connection.transport.abort()
                    return

    async with local_websocket_server(handler, "/v1/realtime") as url:
        yield url


async def call(stt: STTModel) -> dict[str, Any]:
    """Run a live call on ``stt``: what the workflow heard, the stream, the error."""
    workflow = ScriptedVoiceWorkflow(["Which day?"])
    pipeline = VoicePipeline(
        workflow=workflow,
        stt_model=stt,
        tts_model=ScriptedTTSModel([[pcm16_samples([0, 1, 2, 3])]]),
        config=VoicePipelineConfig(tracing_disabled=True),
    )
    audio = StreamedAudioInput()
    result = await pipeline.run(audio)
    seen: list[str] = []

    async def speak() -> None:
        for _ in range(4):
            await audio.add_audio(np.zeros(2400, dtype=np.int16))
            await asyncio.sleep(0.2)

    async def listen() -> None:
        async for event in result.stream():
            seen.append(getattr(event, "event", None) or event.type)

    speaking = asyncio.ensure_future(speak())
    try:
        await asyncio.wait_for(listen(), GUARD_SECONDS)
        error: Any = None
    except Exception as raised:
        cause = raised.__cause__
        error = (type(raised).__name__, str(raised), type(cause).__name__, str(cause))
    finally:
        speaking.cancel()
    return {"heard": workflow.transcriptions, "stream": seen, "error": error}


async def test_a_scripted_transcription_drop_matches_a_real_socket_drop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with transcription_server() as url:
        connect = websockets.connect
        # Every SDK release reaches the provider through websockets.connect: send it here.
        monkeypatch.setattr(websockets, "connect", lambda _url, **options: connect(url, **options))
        real = await call(openai_stt.OpenAISTTModel("gpt-4o-transcribe", AsyncOpenAI(api_key="x")))
        monkeypatch.undo()

    session = ScriptedTranscriptionSession(["Book a flight to Oslo"], drop_after=1)
    scripted = await call(ScriptedSTTModel(sessions=[session]))

    assert scripted == real
    assert real["error"] is not None  # the real session did fail
