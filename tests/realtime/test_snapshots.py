"""``to_snapshot`` of a scripted realtime model: the events a real session sent it."""

from __future__ import annotations

import uuid

import pytest
from agents import function_tool
from agents.realtime import (
    RealtimeAgent,
    RealtimeModelSendToolOutput,
    RealtimeModelSendUserInput,
    RealtimeModelToolCallEvent,
    RealtimeRunner,
)
from agents.realtime.testing import RealtimeStep, ScriptedRealtimeModel, to_snapshot


async def _session_sends(*messages: str) -> ScriptedRealtimeModel:
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=RealtimeModelSendUserInput) for _ in messages]
    )
    runner = RealtimeRunner(
        RealtimeAgent(name="Assistant"), model=model, config={"tracing_disabled": True}
    )
    async with await runner.run() as session:
        for message in messages:
            await session.send_message(message)
    return model


@pytest.mark.asyncio
async def test_a_realtime_model_snapshot_is_its_sent_events() -> None:
    model = await _session_sends("Hello", "Book a table")

    assert to_snapshot(model) == to_snapshot(model.sent_events)
    assert to_snapshot(model) == [
        {"class": "RealtimeModelSendUserInput", "user_input": "Hello"},
        {"class": "RealtimeModelSendUserInput", "user_input": "Book a table"},
    ]


@pytest.mark.asyncio
async def test_equal_sessions_give_equal_snapshots_and_a_change_shows() -> None:
    first = await _session_sends("Hello")
    second = await _session_sends("Hello")
    changed = await _session_sends("Goodbye")

    assert to_snapshot(first) == to_snapshot(second)
    assert to_snapshot(first) != to_snapshot(changed)


@function_tool
def lookup_order(order_id: str) -> str:
    """Look up an order by ID."""
    return f"Order {order_id} has shipped."


@pytest.mark.asyncio
async def test_a_tool_output_send_keeps_its_call_id_consistent() -> None:
    call_id = f"call_{uuid.uuid4().hex}"
    tool_call = RealtimeModelToolCallEvent(
        name="lookup_order", call_id=call_id, arguments='{"order_id":"order_123"}'
    )
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=RealtimeModelSendToolOutput)], connect_events=[tool_call]
    )
    agent = RealtimeAgent(name="Order assistant", tools=[lookup_order])
    runner = RealtimeRunner(
        agent, model=model, config={"async_tool_calls": False, "tracing_disabled": True}
    )

    async with await runner.run():
        pass

    [sent] = to_snapshot(model)
    assert sent["class"] == "RealtimeModelSendToolOutput"
    assert sent["output"] == "Order order_123 has shipped."
    assert sent["tool_call"]["call_id"] == "<call_1>"
    assert sent["tool_call"]["name"] == "lookup_order"
    assert sent["tool_call"]["type"] == "function_call"
