"""The desk's streamed replies, from ordinary scripted steps and from exact event sequences.

Recipe: streaming (automatic and strict).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from agents.items import TResponseOutputItem, TResponseStreamEvent
from agents.testing import (
    ModelStep,
    assert_trajectory,
    assistant_message,
    function_call,
    handoff_to,
    tool_call,
)
from openai.types.responses import (
    Response,
    ResponseCompletedEvent,
    ResponseCreatedEvent,
    ResponseTextDeltaEvent,
)
from travel_desk import TravelDesk

from ._types import OpenDesk, ScriptModel


async def streamed_reply(desk: TravelDesk, message: str) -> list[str]:
    return [delta async for delta in desk.stream(message)]


def text_stream(
    chunks: list[str], *, output: Sequence[TResponseOutputItem], item_id: str
) -> list[TResponseStreamEvent]:
    """Exactly: response created, one text delta per chunk, response completed."""

    def response(status: str, output: Sequence[TResponseOutputItem]) -> Response:
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
            item_id=item_id,
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
            response=response("completed", output),
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
    assert_trajectory(
        model, [handoff_to("Support agent"), tool_call("booking_status", {"reference": "BK0404"})]
    )


@pytest.mark.asyncio
async def test_the_desk_forwards_each_text_delta_as_it_arrives(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    reply = [assistant_message("Checking the timetable for you now.", item_id="msg_1")]
    chunks = ["Checking", " the timetable", " for you now."]
    model = scripted_model(
        [ModelStep.stream(text_stream(chunks, output=reply, item_id="msg_1"), output=reply)]
    )
    desk = open_desk(model)

    deltas = await streamed_reply(desk, "Any flights to Tokyo?")

    assert deltas == chunks
    # The conversation records the completed message, not the pieces.
    last: Any = (await desk.history())[-1]
    assert last["role"] == "assistant"
    assert [part["text"] for part in last["content"]] == ["Checking the timetable for you now."]


@pytest.mark.asyncio
async def test_a_strict_stream_step_also_answers_a_non_streamed_turn(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    reply = [assistant_message("Checking the timetable for you now.", item_id="msg_1")]
    events = text_stream(["Checking", " ..."], output=reply, item_id="msg_1")
    model = scripted_model([ModelStep.stream(events, output=reply)])
    desk = open_desk(model)

    result = await desk.ask("Any flights to Tokyo?")

    assert result.final_output == "Checking the timetable for you now."
    assert model.calls[0].streamed is False
