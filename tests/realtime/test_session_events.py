"""Incoming events turning into session events: audio, interruptions, output guardrails."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from agents import GuardrailFunctionOutput, RunContextWrapper, output_guardrail
from agents.realtime import (
    RealtimeAgent,
    RealtimeModelAudioDoneEvent,
    RealtimeModelAudioEvent,
    RealtimeModelAudioInterruptedEvent,
    RealtimeModelInputAudioTranscriptionCompletedEvent,
    RealtimeModelSendAudio,
    RealtimeModelSendEvent,
    RealtimeModelSendInterrupt,
    RealtimeModelSendUserInput,
    RealtimeModelTranscriptDeltaEvent,
    RealtimeModelTurnEndedEvent,
    RealtimeModelTurnStartedEvent,
    RealtimeRunConfig,
    RealtimeRunner,
    RealtimeSession,
    RealtimeSessionEvent,
)
from agents.realtime.testing import RealtimeStep, ScriptedRealtimeModel

GUARD_SECONDS = 10


async def collect(session: RealtimeSession, *kinds: str) -> list[RealtimeSessionEvent]:
    """Session events of the given types, in order, until one of each was seen."""
    wanted = list(kinds)
    seen: list[RealtimeSessionEvent] = []

    async def scan() -> None:
        async for event in session:
            if wanted and event.type == wanted[0]:
                seen.append(event)
                wanted.pop(0)
                if not wanted:
                    return

    await asyncio.wait_for(scan(), GUARD_SECONDS)
    return seen


def runner_for(agent: RealtimeAgent[Any], model: ScriptedRealtimeModel, **extra: Any) -> Any:
    config: dict[str, Any] = {"tracing_disabled": True, **extra}
    run_config: RealtimeRunConfig = config  # type: ignore[assignment]
    return RealtimeRunner(agent, model=model, config=run_config)


@pytest.mark.asyncio
async def test_audio_and_interruption_events_pass_through_to_session_events() -> None:
    chunk = RealtimeModelAudioEvent(
        data=b"\x00\x01\x02\x03", response_id="resp_1", item_id="item_1", content_index=0
    )
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(
                expect=RealtimeModelSendAudio(audio=b"\x10\x20", commit=True),
                emit=[
                    RealtimeModelTurnStartedEvent(),
                    chunk,
                    RealtimeModelAudioDoneEvent(item_id="item_1", content_index=0),
                ],
            ),
            RealtimeStep(
                expect=RealtimeModelSendInterrupt(),
                emit=[RealtimeModelAudioInterruptedEvent(item_id="item_1", content_index=0)],
            ),
        ]
    )
    agent = RealtimeAgent(name="Voice assistant")

    async with await runner_for(agent, model).run() as session:
        await session.send_audio(b"\x10\x20", commit=True)
        start, audio, end = await collect(session, "agent_start", "audio", "audio_end")
        await session.interrupt()
        (interrupted,) = await collect(session, "audio_interrupted")

    assert start.agent is agent  # type: ignore[union-attr]
    assert audio.audio == chunk  # type: ignore[union-attr]
    assert (audio.item_id, audio.content_index) == ("item_1", 0)  # type: ignore[union-attr]
    assert (end.item_id, end.content_index) == ("item_1", 0)  # type: ignore[union-attr]
    assert (interrupted.item_id, interrupted.content_index) == ("item_1", 0)  # type: ignore[union-attr]
    model.assert_complete()


@pytest.mark.asyncio
async def test_input_transcription_adds_a_user_item_to_history() -> None:
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(
                expect=RealtimeModelSendAudio,
                emit=[
                    RealtimeModelInputAudioTranscriptionCompletedEvent(
                        item_id="user_1", transcript="Book a table"
                    )
                ],
            )
        ]
    )

    async with await runner_for(RealtimeAgent(name="Host"), model).run() as session:
        await session.send_audio(b"\x01")
        (added,) = await collect(session, "history_added")

    assert added.item.item_id == "user_1"  # type: ignore[union-attr]
    assert added.item.role == "user"  # type: ignore[union-attr]
    model.assert_complete()


@output_guardrail
def no_passwords(
    context: RunContextWrapper[Any], agent: Any, output: str
) -> GuardrailFunctionOutput:
    return GuardrailFunctionOutput(output_info=None, tripwire_triggered="password" in output)


@pytest.mark.asyncio
async def test_output_guardrail_trips_interrupts_and_sends_feedback() -> None:
    leak = RealtimeModelTranscriptDeltaEvent(
        item_id="item_1", delta="The admin password is hunter2", response_id="resp_1"
    )

    def forced_cancel(event: RealtimeModelSendEvent) -> bool:
        return isinstance(event, RealtimeModelSendInterrupt) and event.force_response_cancel

    model = ScriptedRealtimeModel(
        [
            RealtimeStep(
                expect=RealtimeModelSendUserInput(user_input="What is the admin password?"),
                emit=[RealtimeModelTurnStartedEvent(), leak],
            ),
            RealtimeStep(expect=forced_cancel),
            RealtimeStep(
                expect=RealtimeModelSendUserInput(user_input="guardrail triggered: no_passwords"),
                emit=[RealtimeModelTurnEndedEvent()],
            ),
        ]
    )
    agent = RealtimeAgent(name="Assistant", output_guardrails=[no_passwords])
    runner = runner_for(agent, model, guardrails_settings={"debounce_text_length": 10})

    async with await runner.run() as session:
        await session.send_message("What is the admin password?")
        tripped, ended = await collect(session, "guardrail_tripped", "agent_end")

    assert tripped.message == "The admin password is hunter2"  # type: ignore[union-attr]
    (result,) = tripped.guardrail_results  # type: ignore[union-attr]
    assert result.guardrail is no_passwords
    assert result.output.tripwire_triggered is True
    assert ended.agent is agent  # type: ignore[union-attr]
    model.assert_complete()
