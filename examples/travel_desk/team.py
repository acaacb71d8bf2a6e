"""The desk's agents: triage hands off to booking or support."""

from __future__ import annotations

from collections.abc import Sequence

from agents import Agent, Model, ModelRetrySettings, ModelSettings, retry_policies
from agents.extensions.handoff_prompt import prompt_with_handoff_instructions
from agents.mcp import MCPServer
from pydantic import BaseModel

from .domain import Booking, TravelDeskContext
from .guardrails import no_card_numbers
from .tools import (
    book_flight,
    booking_status,
    cancel_booking,
    search_flights,
    supervised_cancel_booking,
)

# A model name, a Model instance, or None for the SDK's default model.
ModelChoice = str | Model | None

# Retry transient model failures the provider marks as retryable, and network blips;
# never more than twice, so a customer is not kept waiting.
RETRY = ModelRetrySettings(
    max_retries=2,
    backoff={"initial_delay": 0.25, "max_delay": 1.0},
    policy=retry_policies.any(retry_policies.provider_suggested(), retry_policies.network_error()),
)
MODEL_SETTINGS = ModelSettings(retry=RETRY)


class BookingReply(BaseModel):
    """What the booking agent answers: a message, and the booking when one was made."""

    message: str
    booking: Booking | None


def booking_agent(
    model: ModelChoice = None, mcp_servers: Sequence[MCPServer] = ()
) -> Agent[TravelDeskContext]:
    """Finds flights and books seats; answers with a :class:`BookingReply`.

    ``mcp_servers`` give it more tools: the desk passes the exchange-rate server
    (:func:`travel_desk.rates.rates_server`), connected, so it can quote rates.
    """
    return Agent[TravelDeskContext](
        name="Booking agent",
        handoff_description="Searches flights and books seats.",
        instructions=prompt_with_handoff_instructions(
            "You book flights. Search before booking, book only the flight the customer "
            "chose, and put the booking in your reply when one was made."
        ),
        model=model,
        model_settings=MODEL_SETTINGS,
        tools=[search_flights, book_flight],
        mcp_servers=list(mcp_servers),
        output_type=BookingReply,
    )


def support_agent(
    model: ModelChoice = None, *, supervised: bool = False
) -> Agent[TravelDeskContext]:
    """Looks up and cancels existing bookings; ``supervised`` cancellations wait for a
    supervisor's approval (the run stops until one is given)."""
    return Agent[TravelDeskContext](
        name="Support agent",
        handoff_description="Looks up and cancels existing bookings.",
        instructions=prompt_with_handoff_instructions(
            "You help with existing bookings. Look a booking up before changing it. "
            "If the booking system refuses, explain why in one sentence."
        ),
        model=model,
        model_settings=MODEL_SETTINGS,
        tools=[booking_status, supervised_cancel_booking if supervised else cancel_booking],
    )


def triage_agent(
    model: ModelChoice = None, mcp_servers: Sequence[MCPServer] = ()
) -> Agent[TravelDeskContext]:
    """The first agent a customer talks to; routes to booking (which gets ``mcp_servers``)
    or support."""
    return Agent[TravelDeskContext](
        name="Triage agent",
        instructions=prompt_with_handoff_instructions(
            "You greet travellers. Hand new trips to the booking agent and questions "
            "about existing bookings to the support agent. Answer small talk yourself."
        ),
        model=model,
        model_settings=MODEL_SETTINGS,
        handoffs=[booking_agent(model, mcp_servers), support_agent(model)],
        input_guardrails=[no_card_numbers],
    )
