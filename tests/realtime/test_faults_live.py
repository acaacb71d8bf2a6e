"""A scripted drop looks to the session exactly as a real socket's drop does.

The SDK's own ``OpenAIRealtimeWebSocketModel`` talks to a local WebSocket server that
ends the connection when the caller's message arrives (a reset without a close frame, a
1011 close, a clean 1000 close); the same session code then runs on a
``ScriptedRealtimeModel`` whose step drops the connection the same way, and everything
the session and its listeners saw must be the same. Slow: a real socket and real time.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from agents.realtime import (
    RealtimeAgent,
    RealtimeModel,
    RealtimeModelSendUserInput,
    RealtimeRawModelEvent,
    RealtimeRunner,
)
from agents.realtime.model import RealtimeModelListener
from agents.realtime.openai_realtime import OpenAIRealtimeWebSocketModel

from agents_testing.core import compat
from agents_testing.realtime import RealtimeFault, RealtimeStep, ScriptedRealtimeModel

from .._websocket import local_websocket_server

pytestmark = [pytest.mark.asyncio, pytest.mark.slow]

GUARD_SECONDS = 20.0


@asynccontextmanager
async def dropping_server(code: int) -> AsyncIterator[str]:
    """A local server that ends the connection when a user message arrives."""

    async def handler(connection: Any) -> None:
        async for message in connection:
            if json.loads(message).get("type") != "conversation.item.create":
                continue
            if code == 1006:
                connection.transport.abort()  # a reset: no close frame either way
            else:
                await connection.close(code, "closing")
            return

    async with local_websocket_server(handler) as url:
        yield url


class Seen(RealtimeModelListener):
    """What a listener of the model gets, reduced to what can be compared across models."""

    def __init__(self) -> None:
        self.events: list[tuple[str, ...]] = []

    async def on_event(self, event: Any) -> None:
        if event.type == "exception":
            error = event.exception
            self.events.append(("exception", type(error).__name__, str(error), event.context))
        elif event.type in ("connection_status", "end_of_stream"):
            self.events.append((event.type, str(getattr(event, "status", ""))))


async def observe(model: RealtimeModel, **run_options: Any) -> dict[str, Any]:
    """Send a message; once the drop reached the listener, send again, then read the
    session until it ends or raises."""
    seen = Seen()
    model.add_listener(seen)
    runner = RealtimeRunner(RealtimeAgent(name="a"), model=model, config={"tracing_disabled": True})
    outcome: dict[str, Any] = {}
    async with await runner.run(**run_options) as session:
        await session.send_message("Hello")
        for _ in range(int(GUARD_SECONDS / 0.01)):
            if seen.events:
                break
            await asyncio.sleep(0.01)
        try:
            await session.send_message("Still there?")
            outcome["send after the drop"] = "sent"
        except Exception as error:
            outcome["send after the drop"] = (type(error).__name__, str(error))
        raw: list[str] = []

        async def read() -> None:
            async for event in session:
                if isinstance(event, RealtimeRawModelEvent):
                    raw.append(event.data.type)

        try:
            await asyncio.wait_for(read(), GUARD_SECONDS)
            outcome["iteration"] = "ended"
        except Exception as error:
            outcome["iteration"] = (type(error).__name__, str(error))
        outcome["raw"] = raw
    outcome["listener"] = seen.events
    return outcome


@pytest.mark.parametrize("code", [1006, 1011, 1000])
async def test_a_scripted_drop_matches_a_real_socket_drop(code: int) -> None:
    async with dropping_server(code) as url:
        real = await observe(
            OpenAIRealtimeWebSocketModel(), model_config={"url": url, "headers": {}}
        )

    reason = "" if code == 1006 else "closing"
    # A real drop comes over the network, after the session began reading: so does the
    # scripted one with a short delay (without it, it would reach the listener before the
    # send returned, and the session would raise before yielding the drop's raw event).
    scripted = await observe(
        ScriptedRealtimeModel(
            [
                RealtimeStep(
                    expect=RealtimeModelSendUserInput(user_input="Hello"),
                    faults=[
                        RealtimeFault.drop(code=code, reason=reason),
                        RealtimeFault.delay(0.05),
                    ],
                )
            ]
        )
    )

    assert scripted == real
    # The drop was reported at all: a broken connection by every release; a clean close
    # (1000) is reported by the newer ones (0.14.8 ends quietly, and so does the double).
    assert real["listener"] or (code == 1000 and not compat.sdk_at_least(0, 24, 0))
