"""The desk's streamed replies, from ordinary scripted steps and from exact event sequences.

Recipe: streaming (automatic and strict).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from agents.items import TResponseStreamEvent
from agents.testing import ModelStep, ScriptedModel, assistant_message, function_call
from openai.types.responses import (
    Response,
    ResponseCompletedEvent,
    ResponseCreatedEvent,
    ResponseOutputMessage,
    ResponseTextDeltaEvent,
)

from travel_desk import TravelDesk

from .conftest import OpenDesk

ScriptModel = Callable[..., ScriptedModel]


async def streamed_reply(desk: TravelDesk, message: str) -> list[str]:
    return [delta async for delta in desk.stream(message)]


def text_stream(message: ResponseOutputMessage, chunks: list[str]) -> list[TResponseStreamEvent]:
    """Exactly: response created, one text delta per chunk, response completed."""

    def response(status: str, output: list[ResponseOutputMessage]) -> Response:
        return Response(
            id="resp_stream",
            created_at=0,
            model="scripted",
            object="response",
            output=list(output),
            parallel_tool_calls=False,
            tool_choice="auto",
            tools=[],
            status=status,  # type: ignore[arg-type]
        )

    deltas = [
        ResponseTextDeltaEvent(
            type="response.output_text.delta",
            item_id=message.id,
            output_index=0,
            content_index=0,
            delta=chunk,
            logprobs=[],
            sequence_number=number,
        )
        for number, chunk in enumerate(chunks, start=1)
    ]
    return [
        ResponseCreatedEvent(
            type="response.created", response=response("in_progress", []), sequence_number=0
        ),
        *deltas,
        ResponseCompletedEvent(
            type="response.completed",
            response=response("completed", [message]),
            sequence_number=len(chunks) + 1,
        ),
    ]


@pytest.mark.asyncio
async def test_a_streamed_reply_joins_up_to_the_scripted_message(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    model = scripted_model([[assistant_message("Hello! Where would you like to fly?")]])
    desk = open_desk(model)

    deltas = await streamed_reply(desk, "Hi there")

    assert "".join(deltas) == "Hello! Where would you like to fly?"
    assert model.calls[0].streamed is True


@pytest.mark.asyncio
async def test_a_streamed_turn_runs_handoffs_and_tools_between_model_calls(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    model = scripted_model(
        [
            [function_call("transfer_to_support_agent", {}, call_id="handoff")],
            [function_call("booking_status", {"reference": "BK0404"}, call_id="status")],
            [assistant_message("I cannot find BK0404.")],
        ]
    )
    desk = open_desk(model)

    deltas = await streamed_reply(desk, "Where is my booking BK0404?")

    assert "".join(deltas) == "I cannot find BK0404."
    assert [call.streamed for call in model.calls] == [True, True, True]
    assert desk.agent.name == "Support agent"


@pytest.mark.asyncio
async def test_the_desk_forwards_each_text_delta_as_it_arrives(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    message = assistant_message("Checking the timetable for you now.", item_id="msg_1")
    chunks = ["Checking", " the timetable", " for you now."]
    model = scripted_model([ModelStep.stream(text_stream(message, chunks), output=[message])])
    desk = open_desk(model)

    deltas = await streamed_reply(desk, "Any flights to Tokyo?")

    assert deltas == chunks
    # The conversation records the completed message, not the pieces.
    history = await desk.history()
    assert history[-1]["content"][0]["text"] == "Checking the timetable for you now."  # type: ignore[index,typeddict-item]


@pytest.mark.asyncio
async def test_a_strict_stream_step_also_answers_a_non_streamed_turn(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    message = assistant_message("Checking the timetable for you now.", item_id="msg_1")
    model = scripted_model(
        [ModelStep.stream(text_stream(message, ["Checking", " ..."]), output=[message])]
    )
    desk = open_desk(model)

    result = await desk.ask("Any flights to Tokyo?")

    assert result.final_output == "Checking the timetable for you now."
    assert model.calls[0].streamed is False
