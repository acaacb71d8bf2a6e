"""The phone concierge: a Realtime voice agent that can look up bookings and pass on callers."""

from __future__ import annotations

from agents.realtime import (
    RealtimeAgent,
    RealtimeModel,
    RealtimeRunConfig,
    RealtimeRunner,
    realtime_handoff,
)

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
