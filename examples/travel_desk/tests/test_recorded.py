"""A recorded suite: the desk's real model calls, recorded once and replayed from cassettes.

Recipe: record once, replay in CI. Each test asks ``model_cassette`` for its model,
passing the production model it would use. By default (and always under ``CI``) the
committed cassette in ``cassettes/test_recorded/`` (one file per test, named
``<Class>.<test>[<params>].json``) is replayed as a ``ScriptedModel``: no key, no
network, no trace uploaded, and every request is compared with the recorded one. Record
again with ``pytest examples/travel_desk/tests/test_recorded.py --agents-record-mode=all``
(``OPENAI_API_KEY`` set; these were recorded against a local stand-in of the API).
"""

from __future__ import annotations

import pytest
from agents import Model
from agents.testing import ModelCassetteFixture, assert_trajectory, handoff_to, tool_call
from travel_desk import BookingReply

from ._types import OpenDesk


def production_model() -> Model:
    """The model the desk uses in production; only created when recording."""
    from agents.models.openai_responses import OpenAIResponsesModel
    from openai import AsyncOpenAI

    return OpenAIResponsesModel("gpt-4.1", AsyncOpenAI(max_retries=0))


@pytest.mark.asyncio
async def test_a_recorded_booking_replays_the_handoff_tools_and_structured_reply(
    model_cassette: ModelCassetteFixture, open_desk: OpenDesk
) -> None:
    desk = open_desk(model_cassette.model(production_model))

    result = await desk.ask("Book Ada Lovelace from London to Tokyo on Christmas Eve")

    assert result.last_agent.name == "Booking agent"
    reply = result.final_output
    assert isinstance(reply, BookingReply)
    assert reply.booking is not None
    assert (reply.booking.reference, reply.booking.flight_number) == ("BK0001", "TD101")
    assert_trajectory(
        result,
        [handoff_to("Booking agent"), tool_call("search_flights"), tool_call("book_flight")],
    )


@pytest.mark.asyncio
async def test_a_recorded_streamed_greeting_replays_its_text_deltas(
    model_cassette: ModelCassetteFixture, open_desk: OpenDesk
) -> None:
    desk = open_desk(model_cassette.model(production_model))

    chunks = [chunk async for chunk in desk.stream("Hi there")]

    assert chunks == ["Hello! Where woul", "d you like to fly?"]
