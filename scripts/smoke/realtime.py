"""Smoke test of an installed agents-testing-realtime: a ``RealtimeRunner`` session that
sends a message and receives the scripted reply."""

from __future__ import annotations

import asyncio

from agents.realtime import (
    RealtimeAgent,
    RealtimeModelSendUserInput,
    RealtimeModelTranscriptDeltaEvent,
    RealtimeRawModelEvent,
    RealtimeRunner,
)
from agents.realtime.testing import RealtimeStep, ScriptedRealtimeModel


async def main() -> None:
    reply = RealtimeModelTranscriptDeltaEvent(
        item_id="item_1", delta="Hello!", response_id="response_1"
    )
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=RealtimeModelSendUserInput(user_input="Hello"), emit=[reply])]
    )
    runner = RealtimeRunner(
        RealtimeAgent(name="Assistant"), model=model, config={"tracing_disabled": True}
    )

    received = False
    async with await runner.run() as session:
        await session.send_message("Hello")
        async for event in session:
            if isinstance(event, RealtimeRawModelEvent) and event.data == reply:
                received = True
                break

    assert received
    assert model.sent_events == (RealtimeModelSendUserInput(user_input="Hello"),)
    assert model.closed is True
    model.assert_complete()

    import agents_testing.realtime

    print(f"realtime smoke passed from {agents_testing.realtime.__file__}")


asyncio.run(main())
