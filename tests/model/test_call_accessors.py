"""Typed questions about a recorded request: the user's text, the messages, tool outputs."""

from __future__ import annotations

import pytest
from agents import Agent, RunConfig, Runner, function_tool

from agents_testing.model import InputMessage, ScriptedModel, assistant_message, function_call


@function_tool
def get_weather(city: str) -> str:
    """Return the weather for a city."""
    return f"{city}: sunny"


async def _tool_run() -> ScriptedModel:
    model = ScriptedModel(
        [
            [
                function_call("get_weather", {"city": "Tokyo"}, call_id="call_1"),
                function_call("get_weather", {"city": "Paris"}, call_id="call_2"),
            ],
            [assistant_message("Sunny in both.")],
        ]
    )
    agent = Agent(name="Weather", model=model, tools=[get_weather])
    await Runner.run(
        agent, "Weather in Tokyo and Paris?", run_config=RunConfig(tracing_disabled=True)
    )
    return model


@pytest.mark.asyncio
async def test_tool_outputs_are_read_by_call_id() -> None:
    model = await _tool_run()
    call = model.last_call
    assert call is not None

    assert call.tool_output("call_1") == "Tokyo: sunny"
    assert call.tool_output("call_2") == "Paris: sunny"
    assert call.tool_outputs() == {"call_1": "Tokyo: sunny", "call_2": "Paris: sunny"}
    assert call.tool_output("call_3") is None
    assert model.calls[0].tool_outputs() == {}


@pytest.mark.asyncio
async def test_user_text_and_messages_follow_the_conversation() -> None:
    model = await _tool_run()
    first, last = model.calls

    assert first.user_text == "Weather in Tokyo and Paris?"
    assert first.messages == [InputMessage("user", "Weather in Tokyo and Paris?")]
    assert last.user_text == "Weather in Tokyo and Paris?"
    assert [message.role for message in last.messages] == ["user"]


@pytest.mark.asyncio
async def test_a_list_input_with_text_parts_and_an_assistant_turn() -> None:
    model = ScriptedModel([[assistant_message("Noted.")]])
    await Runner.run(
        Agent(name="Notes", model=model),
        [
            {"role": "user", "content": "First question."},
            {"role": "assistant", "content": "First answer."},
            {
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "Second "},
                    {"type": "input_text", "text": "question."},
                ],
            },
        ],
        run_config=RunConfig(tracing_disabled=True),
    )
    call = model.last_call
    assert call is not None

    assert call.user_text == "Second question."
    assert [tuple(message) for message in call.messages] == [
        ("user", "First question."),
        ("assistant", "First answer."),
        ("user", "Second question."),
    ]


@pytest.mark.asyncio
async def test_accessors_return_detached_values() -> None:
    model = await _tool_run()
    call = model.last_call
    assert call is not None

    outputs = call.tool_outputs()
    outputs["call_1"] = "changed"

    assert call.tool_output("call_1") == "Tokyo: sunny"
    assert call.input[-1] == call.input[-1]  # the seed's raw input stays available
