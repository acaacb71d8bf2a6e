"""Function tools of the desk: search, book, cancel and look up bookings."""

from __future__ import annotations

from datetime import date
from typing import Any

from agents import FunctionTool, RunContextWrapper, function_tool

from .domain import BookingError, FlightCatalog, TravelDeskContext, flights_as_json


def explain_refusal(ctx: RunContextWrapper[Any], error: Exception) -> str:
    """Turn a refused operation into a tool result the model can explain to the customer."""
    if isinstance(error, BookingError):
        return f"The booking system refused: {error}"
    # Anything else is our bug, not the customer's; say so without leaking internals.
    return "The booking system is unavailable right now. Apologise and offer to retry."


@function_tool(failure_error_function=explain_refusal)
def search_flights(
    ctx: RunContextWrapper[TravelDeskContext],
    origin: str,
    destination: str,
    departure_date: date,
) -> str:
    """Find flights on a route and day.

    Args:
        origin: IATA code of the departure airport, for example LHR.
        destination: IATA code of the arrival airport, for example NRT.
        departure_date: Day of departure.
    """
    return flights_as_json(ctx.context.catalog.search(origin, destination, departure_date))


@function_tool(failure_error_function=explain_refusal)
def book_flight(
    ctx: RunContextWrapper[TravelDeskContext],
    flight_number: str,
    passenger: str,
) -> str:
    """Book one seat on a flight and return the booking.

    Args:
        flight_number: Number of the flight, as returned by search_flights.
        passenger: Full name of the passenger as on their passport.
    """
    desk = ctx.context
    booking = desk.ledger.book(desk.catalog.get(flight_number), passenger)
    return booking.model_dump_json()


def _cancel(desk: TravelDeskContext, reference: str) -> str:
    booking = desk.ledger.cancel(reference, desk.catalog)
    return f"Cancelled {booking.reference} on {booking.flight_number} for {booking.passenger}."


@function_tool(failure_error_function=explain_refusal)
def cancel_booking(ctx: RunContextWrapper[TravelDeskContext], reference: str) -> str:
    """Cancel a booking and release its seat.

    Args:
        reference: Booking reference, for example BK0001.
    """
    return _cancel(ctx.context, reference)


@function_tool(
    name_override="cancel_booking", failure_error_function=explain_refusal, needs_approval=True
)
def supervised_cancel_booking(ctx: RunContextWrapper[TravelDeskContext], reference: str) -> str:
    """Cancel a booking and release its seat; a supervisor approves each cancellation first.

    Args:
        reference: Booking reference, for example BK0001.
    """
    return _cancel(ctx.context, reference)


@function_tool(failure_error_function=explain_refusal)
def booking_status(ctx: RunContextWrapper[TravelDeskContext], reference: str) -> str:
    """Look up a booking by its reference.

    Args:
        reference: Booking reference, for example BK0001.
    """
    return ctx.context.ledger.get(reference).model_dump_json()


def departure_board(catalog: FlightCatalog) -> FunctionTool:
    """A tool that reads seat availability from ``catalog`` (for runs without a desk context)."""

    @function_tool(name_override="departure_board", failure_error_function=explain_refusal)
    def lookup(flight_number: str) -> str:
        """Say whether a flight still has seats.

        Args:
            flight_number: Number of the flight, for example TD101.
        """
        flight = catalog.get(flight_number)
        if flight.seats_left:
            return f"{flight.number} departs {flight.departure_date}: {flight.seats_left} seats."
        return f"{flight.number} departs {flight.departure_date}: sold out."

    return lookup
