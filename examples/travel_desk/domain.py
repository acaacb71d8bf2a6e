"""The travel desk's business objects: flights, bookings and the stores that hold them."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from pydantic import BaseModel, TypeAdapter


class Flight(BaseModel):
    """A scheduled flight with the seats still for sale."""

    number: str
    origin: str
    destination: str
    departure_date: date
    seats_left: int


class Booking(BaseModel):
    """A confirmed seat for one passenger on one flight."""

    reference: str
    flight_number: str
    passenger: str
    departure_date: date


class BookingError(Exception):
    """The booking system refused an operation; the message is safe to show a customer."""


class FlightFull(BookingError):
    """No seat is left on the requested flight."""


class UnknownFlight(BookingError):
    """No flight has the requested number."""


class BookingNotFound(BookingError):
    """No booking has the requested reference."""


_FLIGHT_LIST = TypeAdapter(list[Flight])


def flights_as_json(flights: list[Flight]) -> str:
    """Serialize flights the way tools hand them to a model."""
    return _FLIGHT_LIST.dump_json(flights).decode()


@dataclass
class FlightCatalog:
    """The flights on sale, keyed by flight number."""

    flights: dict[str, Flight] = field(default_factory=dict)

    @classmethod
    def sample(cls) -> FlightCatalog:
        """A small timetable to run the desk without an airline connection."""
        return cls.of(
            Flight(
                number="TD101",
                origin="LHR",
                destination="NRT",
                departure_date=date(2026, 12, 24),
                seats_left=3,
            ),
            Flight(
                number="TD205",
                origin="LHR",
                destination="NRT",
                departure_date=date(2026, 12, 24),
                seats_left=0,
            ),
            Flight(
                number="TD310",
                origin="CDG",
                destination="JFK",
                departure_date=date(2026, 12, 26),
                seats_left=12,
            ),
        )

    @classmethod
    def of(cls, *flights: Flight) -> FlightCatalog:
        """A catalog holding exactly the given flights."""
        return cls({flight.number: flight for flight in flights})

    def search(self, origin: str, destination: str, departure_date: date) -> list[Flight]:
        """Flights on the route and day, in timetable order."""
        return [
            flight
            for flight in self.flights.values()
            if flight.origin == origin.upper()
            and flight.destination == destination.upper()
            and flight.departure_date == departure_date
        ]

    def get(self, number: str) -> Flight:
        """The flight with this number, or :class:`UnknownFlight`."""
        try:
            return self.flights[number.upper()]
        except KeyError:
            raise UnknownFlight(f"There is no flight {number}.") from None


@dataclass
class BookingLedger:
    """Bookings made through the desk; references are issued in order."""

    bookings: dict[str, Booking] = field(default_factory=dict)
    prefix: str = "BK"
    _issued: int = 0

    def book(self, flight: Flight, passenger: str) -> Booking:
        """Take one seat on ``flight`` for ``passenger``."""
        if flight.seats_left <= 0:
            raise FlightFull(f"Flight {flight.number} is full.")
        flight.seats_left -= 1
        self._issued += 1
        booking = Booking(
            reference=f"{self.prefix}{self._issued:04d}",
            flight_number=flight.number,
            passenger=passenger,
            departure_date=flight.departure_date,
        )
        self.bookings[booking.reference] = booking
        return booking

    def get(self, reference: str) -> Booking:
        """The booking with this reference, or :class:`BookingNotFound`."""
        try:
            return self.bookings[reference.upper()]
        except KeyError:
            raise BookingNotFound(f"There is no booking with reference {reference}.") from None

    def cancel(self, reference: str, catalog: FlightCatalog) -> Booking:
        """Remove a booking and give its seat back to the flight."""
        booking = self.get(reference)
        del self.bookings[booking.reference]
        catalog.get(booking.flight_number).seats_left += 1
        return booking


@dataclass
class TravelDeskContext:
    """What every agent run of the desk can reach: the timetable and the bookings."""

    catalog: FlightCatalog = field(default_factory=FlightCatalog.sample)
    ledger: BookingLedger = field(default_factory=BookingLedger)
