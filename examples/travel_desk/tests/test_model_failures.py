"""Model failures at the desk: retried when the provider says so, surfaced otherwise.

Recipes: error injection and retry; production faults on virtual time (a rate-limited
booking, scripted and injected into the recorded booking).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import openai
import pytest
from agents import ModelRetryAdvice
from agents.testing import (
    FaultSchedule,
    ModelCassette,
    ModelStep,
    assistant_message,
    connection_reset,
    final_output,
    function_call,
    handoff_call,
    rate_limit,
)
from travel_desk import Booking, BookingReply, booking_agent

from agents_testing.core import VirtualClock

from ._types import OpenDesk, ScriptModel

RECORDED_BOOKING = (
    Path(__file__).parent
    / "cassettes"
    / "test_recorded"
    / "test_a_recorded_booking_replays_the_handoff_tools_and_structured_reply.json"
)


@pytest.mark.asyncio
async def test_a_transient_failure_is_retried_when_the_provider_suggests_it(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    model = scripted_model(
        [
            ModelStep.raise_error(
                RuntimeError("temporary failure"),
                retry_advice=ModelRetryAdvice(suggested=True, replay_safety="safe"),
            ),
            [assistant_message("Hello! Where would you like to fly?")],
        ]
    )
    desk = open_desk(model)

    result = await desk.ask("Hi there")

    assert result.final_output == "Hello! Where would you like to fly?"
    # The retry is a second model call with the same request.
    first, retry = model.calls
    assert retry.input == first.input
    assert result.context_wrapper.usage.requests == 2


@pytest.mark.asyncio
async def test_a_failure_without_retry_advice_reaches_the_caller(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    model = scripted_model([ModelStep.raise_error(RuntimeError("model unavailable"))])
    desk = open_desk(model)

    with pytest.raises(RuntimeError, match="model unavailable"):
        await desk.ask("Hi there")

    assert len(model.calls) == 1


@pytest.mark.asyncio
async def test_the_provider_can_veto_a_retry(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    model = scripted_model(
        [
            ModelStep.raise_error(
                RuntimeError("context too long"),
                retry_advice=ModelRetryAdvice(suggested=False, reason="request too large"),
            )
        ]
    )
    desk = open_desk(model)

    with pytest.raises(RuntimeError, match="context too long"):
        await desk.ask("Hi there")

    assert len(model.calls) == 1


@pytest.mark.asyncio
async def test_the_desk_gives_up_after_two_retries(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    # retry_after=0 asks for an immediate retry, so the test does not wait for backoff.
    advice = ModelRetryAdvice(suggested=True, retry_after=0, replay_safety="safe")
    model = scripted_model(
        [
            ModelStep.raise_error(RuntimeError(f"failure {n}"), retry_advice=advice)
            for n in (1, 2, 3)
        ]
    )
    desk = open_desk(model)

    with pytest.raises(RuntimeError, match="failure 3"):
        await desk.ask("Hi there")

    assert len(model.calls) == 3


def _booking_script(*, book_attempts: list[ModelStep]) -> list[Any]:
    booked = Booking(
        reference="BK0001",
        flight_number="TD101",
        passenger="Ada Lovelace",
        departure_date=date(2026, 12, 24),
    )
    return [
        [handoff_call(booking_agent())],
        [
            function_call(
                "search_flights",
                {"origin": "LHR", "destination": "NRT", "departure_date": "2026-12-24"},
            )
        ],
        *book_attempts,
        [function_call("book_flight", {"flight_number": "TD101", "passenger": "Ada Lovelace"})],
        [final_output(BookingReply(message="You are on TD101.", booking=booked))],
    ]


@pytest.mark.asyncio
async def test_a_rate_limited_booking_waits_as_the_provider_asks_and_books_once(
    scripted_model: ScriptModel, open_desk: OpenDesk, virtual_clock: VirtualClock
) -> None:
    # The provider answers the booking turn with HTTP 429 and Retry-After: 2.
    model = scripted_model(_booking_script(book_attempts=[rate_limit(retry_after=2)]))
    desk = open_desk(model)

    result = await desk.ask("Book Ada Lovelace from London to Tokyo on Christmas Eve")

    assert isinstance(result.final_output, BookingReply)
    assert result.final_output.booking is not None
    # The desk's policy took the provider's word: one retry, after the 2 s it asked for
    # (no jittered back-off), passed on the virtual clock.
    assert virtual_clock.sleeps == [2.0]
    limited, retried = model.calls[2], model.calls[3]
    assert retried.input == limited.input
    assert list(desk.context.ledger.bookings) == ["BK0001"]  # booked once
    assert desk.context.catalog.get("TD101").seats_left == 2
    assert result.context_wrapper.usage.requests == 5  # the refused request counts


@pytest.mark.asyncio
async def test_a_booking_still_rate_limited_after_two_retries_reaches_the_customer(
    scripted_model: ScriptModel, open_desk: OpenDesk, virtual_clock: VirtualClock
) -> None:
    limited = [rate_limit(retry_after=2, message=f"Rate limit, try {n}.") for n in (1, 2, 3)]
    model = scripted_model(_booking_script(book_attempts=limited)[:-2])
    desk = open_desk(model)

    with pytest.raises(openai.RateLimitError, match="try 3"):
        await desk.ask("Book Ada Lovelace from London to Tokyo on Christmas Eve")

    assert virtual_clock.sleeps == [2.0, 2.0]
    assert desk.context.ledger.bookings == {}


@pytest.mark.asyncio
async def test_the_recorded_booking_survives_a_rate_limit_and_a_dropped_connection(
    open_desk: OpenDesk, virtual_clock: VirtualClock
) -> None:
    # The booking recorded against the provider, replayed with production failures
    # injected: the 3rd call is refused (429), the 5th loses its connection. Neither takes
    # a recorded answer, so each retry gets the one the failure stood in front of.
    replay = ModelCassette(RECORDED_BOOKING).replay()
    FaultSchedule({3: rate_limit(retry_after=2), 5: connection_reset()}).attach(replay)
    desk = open_desk(replay)

    result = await desk.ask("Book Ada Lovelace from London to Tokyo on Christmas Eve")

    reply = result.final_output
    assert isinstance(reply, BookingReply)
    assert reply.booking is not None
    assert (reply.booking.reference, reply.booking.flight_number) == ("BK0001", "TD101")
    assert list(desk.context.ledger.bookings) == ["BK0001"]
    assert len(replay.calls) == replay.recorded_calls + 2
    # Retry-After for the 429; for the dropped connection, the desk's back-off (0.25 s,
    # jittered by the SDK: between 0.22 and 0.28 s).
    first, second = virtual_clock.sleeps
    assert first == 2.0
    assert 0.2 <= second <= 0.3
    replay.assert_complete()
