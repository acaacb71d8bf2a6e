"""Travel desk: a small travel agency built on the OpenAI Agents SDK.

A triage agent hands chat customers to booking or support; a sandboxed editor patches
itinerary files; a Realtime concierge answers the phone; a voice pipeline serves the
front desk. Every entry point takes the model to use, so the same code runs against a
provider or a scripted model.
"""

from __future__ import annotations

from .desk import TravelDesk
from .domain import (
    Booking,
    BookingError,
    BookingLedger,
    BookingNotFound,
    Flight,
    FlightCatalog,
    FlightFull,
    TravelDeskContext,
    UnknownFlight,
)
from .guardrails import contains_card_number, no_card_numbers
from .itinerary import ITINERARY_FILE, itinerary_editor, itinerary_workspace, revise_itinerary
from .phone import (
    PHONE_CONFIG,
    ask_concierge,
    cancellations_line,
    phone_concierge,
    phone_runner,
)
from .rates import rates_server
from .team import RETRY, BookingReply, booking_agent, support_agent, triage_agent
from .tools import (
    book_flight,
    booking_status,
    cancel_booking,
    departure_board,
    search_flights,
    supervised_cancel_booking,
)
from .voice import (
    GREETING,
    FrontDeskWorkflow,
    front_desk_agent,
    front_desk_config,
    front_desk_pipeline,
)

__all__ = [
    "GREETING",
    "ITINERARY_FILE",
    "PHONE_CONFIG",
    "RETRY",
    "Booking",
    "BookingError",
    "BookingLedger",
    "BookingNotFound",
    "BookingReply",
    "Flight",
    "FlightCatalog",
    "FlightFull",
    "FrontDeskWorkflow",
    "TravelDesk",
    "TravelDeskContext",
    "UnknownFlight",
    "ask_concierge",
    "book_flight",
    "booking_agent",
    "booking_status",
    "cancel_booking",
    "cancellations_line",
    "contains_card_number",
    "departure_board",
    "front_desk_agent",
    "front_desk_config",
    "front_desk_pipeline",
    "itinerary_editor",
    "itinerary_workspace",
    "no_card_numbers",
    "phone_concierge",
    "phone_runner",
    "rates_server",
    "revise_itinerary",
    "search_flights",
    "support_agent",
    "supervised_cancel_booking",
    "triage_agent",
]
