"""The phone concierge: a Realtime voice agent that can look up bookings and pass on callers."""

from __future__ import annotations

from agents.realtime import (
    RealtimeAgent,
    RealtimeModel,
    RealtimeModelTranscriptDeltaEvent,
    RealtimeModelTurnEndedEvent,
    RealtimeRawModelEvent,
    RealtimeRunConfig,
    RealtimeRunner,
    RealtimeSession,
    realtime_handoff,
)
from websockets.exceptions import ConnectionClosed

from .domain import TravelDeskContext
from .tools import booking_status, cancel_booking

# Session defaults for calls; a caller of phone_runner may override any key.
PHONE_CONFIG: RealtimeRunConfig = {"model_settings": {"voice": "alloy"}}


def cancellations_line() -> RealtimeAgent[TravelDeskContext]:
    """The line a concierge transfers callers to when they want to cancel."""
    return RealtimeAgent[TravelDeskContext](
        name="Cancellations",
        instructions=(
            "Confirm the booking reference back to the caller, then cancel it. "
            "If the booking system refuses, say why in one sentence."
        ),
        tools=[cancel_booking],
    )


def phone_concierge() -> RealtimeAgent[TravelDeskContext]:
    """Answers calls, reads bookings aloud, and transfers cancellations."""
    return RealtimeAgent[TravelDeskContext](
        name="Phone concierge",
        instructions=(
            "You answer the travel desk phone. Keep answers short. Read a booking back "
            "when the caller gives a reference. Transfer callers who want to cancel."
        ),
        tools=[booking_status],
        handoffs=[
            realtime_handoff(
                cancellations_line(),
                tool_description_override="Transfer the caller to cancellations.",
            )
        ],
    )


def phone_runner(
    model: RealtimeModel | None = None,
    *,
    config: RealtimeRunConfig | None = None,
) -> RealtimeRunner:
    """A runner for one phone line; ``model=None`` connects to the OpenAI Realtime API.

    Start a call with ``await phone_runner().run(context=TravelDeskContext(...))``.
    """
    merged: RealtimeRunConfig = {**PHONE_CONFIG, **(config or {})}
    return RealtimeRunner(phone_concierge(), model=model, config=merged)


async def ask_concierge(
    runner: RealtimeRunner, question: str, *, context: TravelDeskContext, redials: int = 1
) -> str:
    """Put one caller's question to the concierge and return its spoken reply, in full.

    Phone lines drop. When the connection goes in the middle of a reply, the line is
    dialled again (up to ``redials`` times) and the question asked anew, so the caller
    hears a whole answer rather than half of one; after that the drop is raised.
    """
    dialled = 0
    while True:
        dialled += 1
        try:
            async with await runner.run(context=context) as session:
                await session.send_message(question)
                return await _spoken_reply(session)
        except ConnectionClosed:
            if dialled > redials:
                raise


async def _spoken_reply(session: RealtimeSession) -> str:
    """The transcript of the concierge's reply, up to the end of its turn."""
    parts: list[str] = []
    async for event in session:
        if not isinstance(event, RealtimeRawModelEvent):
            continue
        if isinstance(event.data, RealtimeModelTranscriptDeltaEvent):
            parts.append(event.data.delta)
        elif isinstance(event.data, RealtimeModelTurnEndedEvent):
            break
    return "".join(parts)
