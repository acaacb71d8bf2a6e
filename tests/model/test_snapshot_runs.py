"""``to_snapshot`` over real runs: a run's trajectory, a model's calls, stable across ids."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from agents import Agent, RunConfig, Runner, function_tool, handoff
from agents.testing import (
    ModelCall,
    ModelStep,
    ScriptedModel,
    Trajectory,
    assistant_message,
    function_call,
    to_snapshot,
)
from pydantic import BaseModel

from agents_testing.core import UnsnapshottableValue

from .conftest import RunAgent, StreamedRun


@function_tool
def get_weather(city: str) -> str:
    """The weather in a city."""
    return f"Sunny in {city}"


class Booking(BaseModel):
    flight: str
    seat: str


def _result(outcome: Any) -> Any:
    return outcome.result if isinstance(outcome, StreamedRun) else outcome


def _fresh(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex}"


def _travel_desk(
    city: str = "Tokyo", *, random_ids: bool = False
) -> tuple[Agent[Any], ScriptedModel]:
    """A triage agent that calls a tool and hands off to billing, which answers."""

    def ids(prefix: str, fixed: str) -> str:
        return _fresh(prefix) if random_ids else fixed

    billing = Agent(
        name="Billing",
        model=ScriptedModel(
            [
                ModelStep.respond(
                    lambda call: [assistant_message("Refunded.", item_id=ids("msg", "msg_1"))]
                )
            ]
        ),
    )
    transfer = handoff(billing).tool_name
    model = ScriptedModel(
        [
            ModelStep.respond(
                lambda call: [
                    function_call(
                        "get_weather",
                        {"city": city},
                        call_id=ids("call", "call_w"),
                        item_id=ids("fc", "fc_w"),
                    )
                ]
            ),
            ModelStep.respond(
                lambda call: [function_call(transfer, {}, call_id=ids("call", "call_h"))]
            ),
        ]
    )
    return Agent(name="Triage", model=model, tools=[get_weather], handoffs=[billing]), model


EXPECTED_TRAJECTORY = {
    "final_output": "Refunded.",
    "last_agent": "Billing",
    "items": [
        {
            "type": "tool_call",
            "agent": "Triage",
            "tool": "get_weather",
            "arguments": {"city": "Tokyo"},
            "call_id": "<call_1>",
        },
        {
            "type": "tool_output",
            "agent": "Triage",
            "tool": "get_weather",
            "call_id": "<call_1>",
            "output": "Sunny in Tokyo",
        },
        {
            "type": "handoff_call",
            "agent": "Triage",
            "tool": "transfer_to_billing",
            "call_id": "<call_2>",
        },
        {"type": "handoff", "from": "Triage", "to": "Billing", "call_id": "<call_2>"},
        {"type": "message", "agent": "Billing", "text": "Refunded."},
    ],
}


@pytest.mark.asyncio
async def test_a_run_snapshot_is_its_trajectory(run: RunAgent, streamed: bool) -> None:
    agent, _ = _travel_desk()

    outcome = await run(agent, "Refund my Tokyo trip", streamed=streamed)

    assert to_snapshot(_result(outcome)) == EXPECTED_TRAJECTORY


@pytest.mark.asyncio
async def test_two_runs_with_random_ids_give_equal_snapshots(run: RunAgent, streamed: bool) -> None:
    first_agent, first_model = _travel_desk(random_ids=True)
    second_agent, second_model = _travel_desk(random_ids=True)

    first = _result(await run(first_agent, "Refund my Tokyo trip", streamed=streamed))
    second = _result(await run(second_agent, "Refund my Tokyo trip", streamed=streamed))

    assert first.new_items[0].raw_item.call_id != second.new_items[0].raw_item.call_id
    assert to_snapshot(first) == to_snapshot(second) == EXPECTED_TRAJECTORY
    assert to_snapshot(first_model) == to_snapshot(second_model)


@pytest.mark.asyncio
async def test_a_real_change_gives_a_different_snapshot(run: RunAgent, streamed: bool) -> None:
    tokyo_agent, tokyo_model = _travel_desk("Tokyo", random_ids=True)
    osaka_agent, osaka_model = _travel_desk("Osaka", random_ids=True)

    tokyo = to_snapshot(_result(await run(tokyo_agent, "Refund my trip", streamed=streamed)))
    osaka = to_snapshot(_result(await run(osaka_agent, "Refund my trip", streamed=streamed)))

    assert tokyo != osaka
    assert osaka["items"][0]["arguments"] == {"city": "Osaka"}
    assert to_snapshot(tokyo_model) != to_snapshot(osaka_model)


@pytest.mark.asyncio
async def test_a_trajectory_snapshot_is_its_tool_calls_and_handoffs(
    run: RunAgent, streamed: bool
) -> None:
    agent, model = _travel_desk(random_ids=True)

    result = _result(await run(agent, "Refund my Tokyo trip", streamed=streamed))

    expected = [
        {
            "kind": "function_call",
            "agent": "Triage",
            "tool": "get_weather",
            "arguments": {"city": "Tokyo"},
            "output": "Sunny in Tokyo",
        },
        {"handoff": "Billing", "source": "Triage"},
    ]
    assert to_snapshot(Trajectory.of(result)) == expected
    # From the model's side: the same tool call and handoff, by what the model answered.
    assert to_snapshot(Trajectory.of(model)) == [
        {
            "kind": "function_call",
            "tool": "get_weather",
            "arguments": {"city": "Tokyo"},
            "output": "Sunny in Tokyo",
        },
        {"handoff": "Billing"},
    ]


@pytest.mark.asyncio
async def test_run_and_run_streamed_give_the_same_trajectory() -> None:
    agent, _ = _travel_desk(random_ids=True)
    streamed_agent, _ = _travel_desk(random_ids=True)

    result = await Runner.run(agent, "Refund", run_config=RunConfig(tracing_disabled=True))
    streaming = Runner.run_streamed(
        streamed_agent, "Refund", run_config=RunConfig(tracing_disabled=True)
    )
    [event async for event in streaming.stream_events()]

    assert to_snapshot(result) == to_snapshot(streaming)


@pytest.mark.asyncio
async def test_an_unfinished_streamed_run_cannot_be_snapshotted() -> None:
    agent = Agent(name="Desk", model=ScriptedModel([[assistant_message("Hi.")]]))
    streaming = Runner.run_streamed(agent, "Hello", run_config=RunConfig(tracing_disabled=True))

    with pytest.raises(UnsnapshottableValue) as caught:
        to_snapshot(streaming)

    assert str(caught.value).startswith(
        "Cannot snapshot value: the streamed run has not finished; consume "
        "result.stream_events() to the end before taking its snapshot. "
    )
    assert caught.value.value_type == "agents.result.RunResultStreaming"
    [event async for event in streaming.stream_events()]
    assert to_snapshot(streaming)["final_output"] == "Hi."


@pytest.mark.asyncio
async def test_a_structured_final_output_becomes_its_fields(run: RunAgent, streamed: bool) -> None:
    answer = '{"flight": "NH 212", "seat": "12A"}'
    agent = Agent(
        name="Booker",
        model=ScriptedModel([[assistant_message(answer)]]),
        output_type=Booking,
    )

    outcome = await run(agent, "Book it", streamed=streamed)

    assert to_snapshot(_result(outcome)) == {
        "final_output": {"class": "Booking", "flight": "NH 212", "seat": "12A"},
        "last_agent": "Booker",
        "items": [{"type": "message", "agent": "Booker", "text": answer}],
    }


@pytest.mark.asyncio
async def test_a_model_snapshot_is_its_calls(run: RunAgent, streamed: bool) -> None:
    agent, model = _travel_desk(random_ids=True)
    agent.instructions = "Route travel questions."

    await run(agent, "Refund my Tokyo trip", streamed=streamed)

    assert to_snapshot(model) == to_snapshot(model.calls)
    assert to_snapshot(model.calls) == [
        {
            "system_instructions": "Route travel questions.",
            "input": [{"role": "user", "content": "Refund my Tokyo trip"}],
            "model_settings": {},
            "tools": ["get_weather"],
            "handoffs": ["transfer_to_billing"],
            "streamed": streamed,
        },
        {
            "system_instructions": "Route travel questions.",
            "input": [
                {"role": "user", "content": "Refund my Tokyo trip"},
                {
                    "type": "function_call",
                    "id": "<fc_1>",
                    "call_id": "<call_1>",
                    "name": "get_weather",
                    "arguments": '{"city":"Tokyo"}',
                },
                {"type": "function_call_output", "call_id": "<call_1>", "output": "Sunny in Tokyo"},
            ],
            "model_settings": {},
            "tools": ["get_weather"],
            "handoffs": ["transfer_to_billing"],
            "streamed": streamed,
        },
    ]


@pytest.mark.asyncio
async def test_one_call_snapshots_on_its_own() -> None:
    model = ScriptedModel([[assistant_message("Hi.")]])

    await Runner.run(
        Agent(name="Desk", model=model), "Hello", run_config=RunConfig(tracing_disabled=True)
    )

    call = model.calls[0]
    assert isinstance(call, ModelCall)
    assert to_snapshot(call) == {
        "input": [{"role": "user", "content": "Hello"}],
        "model_settings": {},
        "tools": [],
        "handoffs": [],
        "streamed": False,
    }
