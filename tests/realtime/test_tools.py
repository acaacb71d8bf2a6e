"""Tool calls and handoffs driven through a real RealtimeRunner / RealtimeSession."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from agents import function_tool
from agents.realtime import (
    RealtimeAgent,
    RealtimeModelSendEvent,
    RealtimeModelSendSessionUpdate,
    RealtimeModelSendToolOutput,
    RealtimeModelSendUserInput,
    RealtimeModelToolCallEvent,
    RealtimeModelTurnStartedEvent,
    RealtimeRunConfig,
    RealtimeRunner,
    RealtimeSession,
    RealtimeSessionEvent,
    realtime_handoff,
)
from agents.realtime.testing import RealtimeStep, ScriptedRealtimeModel

# A guard against a broken script hanging the suite; never a way of waiting.
GUARD_SECONDS = 10


@function_tool
def lookup_order(order_id: str) -> str:
    """Look up an order by ID."""
    return f"Order {order_id} has shipped."


def config(**extra: Any) -> RealtimeRunConfig:
    settings: dict[str, Any] = {"tracing_disabled": True, **extra}
    return settings  # type: ignore[return-value]


async def next_event(session: RealtimeSession, kind: str) -> RealtimeSessionEvent:
    """The next session event of type ``kind``, skipping the others."""

    async def scan() -> RealtimeSessionEvent:
        async for event in session:
            if event.type == kind:
                return event
        raise AssertionError(f"session ended before a {kind!r} event")

    return await asyncio.wait_for(scan(), GUARD_SECONDS)


def tool_output(call_id: str, output: str) -> Any:
    def matches(event: RealtimeModelSendEvent) -> bool:
        return (
            isinstance(event, RealtimeModelSendToolOutput)
            and event.tool_call.call_id == call_id
            and event.output == output
        )

    return matches


ORDER_CALL = RealtimeModelToolCallEvent(
    name="lookup_order", call_id="call_1", arguments='{"order_id":"order_123"}'
)


@pytest.mark.asyncio
async def test_function_tool_called_while_connecting_completes_with_async_tool_calls_off() -> None:
    # The seed's tool recipe with function_tool, which every supported release has.
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=tool_output("call_1", "Order order_123 has shipped."))],
        connect_events=[ORDER_CALL],
    )
    agent = RealtimeAgent(name="Order assistant", tools=[lookup_order])
    runner = RealtimeRunner(agent, model=model, config=config(async_tool_calls=False))

    async with await runner.run():
        assert (model.remaining_steps, model.pending_steps) == (0, ())

    model.assert_complete()
    (sent,) = model.sent_events
    assert isinstance(sent, RealtimeModelSendToolOutput)
    assert sent.tool_call == ORDER_CALL
    assert sent.start_response is True


@pytest.mark.asyncio
async def test_tool_output_is_sent_before_send_message_returns_with_async_tool_calls_off() -> None:
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(
                expect=RealtimeModelSendUserInput(user_input="Where is order_123?"),
                emit=[ORDER_CALL],
            ),
            RealtimeStep(expect=tool_output("call_1", "Order order_123 has shipped.")),
        ]
    )
    agent = RealtimeAgent(name="Order assistant", tools=[lookup_order])
    runner = RealtimeRunner(agent, model=model, config=config(async_tool_calls=False))

    async with await runner.run() as session:
        await session.send_message("Where is order_123?")
        # The tool ran inside the send: the whole script is used already.
        model.assert_complete()
        end = await next_event(session, "tool_end")
        assert end.output == "Order order_123 has shipped."  # type: ignore[union-attr]


@pytest.mark.asyncio
async def test_background_tool_call_output_is_awaited_through_the_script() -> None:
    # async_tool_calls defaults to True: the tool runs in a background task. The step
    # that expects its output sets an event, so the test waits without sleeping.
    output_sent = asyncio.Event()
    expect_output = tool_output("call_1", "Order order_123 has shipped.")

    def output_and_signal(event: RealtimeModelSendEvent) -> bool:
        matched = bool(expect_output(event))
        if matched:
            output_sent.set()
        return matched

    model = ScriptedRealtimeModel(
        [
            RealtimeStep(
                expect=RealtimeModelSendUserInput(user_input="Where is order_123?"),
                emit=[ORDER_CALL],
            ),
            RealtimeStep(expect=output_and_signal),
        ]
    )
    agent = RealtimeAgent(name="Order assistant", tools=[lookup_order])
    runner = RealtimeRunner(agent, model=model, config=config())

    async with await runner.run() as session:
        await session.send_message("Where is order_123?")
        # The send returned before the background tool finished.
        assert model.remaining_steps == 1
        await asyncio.wait_for(output_sent.wait(), GUARD_SECONDS)
        model.assert_complete()

    assert [type(event) for event in model.sent_events] == [
        RealtimeModelSendUserInput,
        RealtimeModelSendToolOutput,
    ]


@pytest.mark.asyncio
async def test_background_tool_output_step_emits_events_the_session_reports() -> None:
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(
                expect=RealtimeModelSendUserInput(user_input="Where is order_123?"),
                emit=[ORDER_CALL],
            ),
            RealtimeStep(
                expect=tool_output("call_1", "Order order_123 has shipped."),
                emit=[RealtimeModelTurnStartedEvent()],
            ),
        ]
    )
    agent = RealtimeAgent(name="Order assistant", tools=[lookup_order])
    runner = RealtimeRunner(agent, model=model, config=config(async_tool_calls=True))

    async with await runner.run() as session:
        await session.send_message("Where is order_123?")
        start = await next_event(session, "tool_start")
        assert start.tool is lookup_order  # type: ignore[union-attr]
        # The output step's own event marks the moment the output was sent.
        await next_event(session, "agent_start")

    model.assert_complete()


@pytest.mark.asyncio
async def test_handoff_between_realtime_agents_updates_the_session_then_sends_output() -> None:
    billing = RealtimeAgent(name="Billing", instructions="You handle billing questions.")
    triage = RealtimeAgent(name="Triage", instructions="Route the caller.", handoffs=[billing])
    transfer_name = realtime_handoff(billing).tool_name
    transfer = RealtimeModelToolCallEvent(name=transfer_name, call_id="call_h", arguments="{}")

    def billing_settings(event: RealtimeModelSendEvent) -> bool:
        return (
            isinstance(event, RealtimeModelSendSessionUpdate)
            and event.session_settings.get("instructions") == "You handle billing questions."
        )

    def transfer_output(event: RealtimeModelSendEvent) -> bool:
        return isinstance(event, RealtimeModelSendToolOutput) and event.tool_call == transfer

    model = ScriptedRealtimeModel(
        [
            RealtimeStep(
                expect=RealtimeModelSendUserInput(user_input="I was charged twice"),
                emit=[transfer],
            ),
            RealtimeStep(expect=billing_settings),
            RealtimeStep(expect=transfer_output, emit=[RealtimeModelTurnStartedEvent()]),
        ]
    )
    runner = RealtimeRunner(triage, model=model, config=config())

    async with await runner.run() as session:
        await session.send_message("I was charged twice")
        handoff = await next_event(session, "handoff")
        assert handoff.from_agent is triage  # type: ignore[union-attr]
        assert handoff.to_agent is billing  # type: ignore[union-attr]
        started = await next_event(session, "agent_start")
        assert started.agent is billing  # type: ignore[union-attr]

    model.assert_complete()
    (connect,) = model.connect_calls
    assert connect.initial_model_settings is not None
    assert connect.initial_model_settings["instructions"] == "Route the caller."
    handoffs = connect.initial_model_settings["handoffs"]
    assert [handoff.tool_name for handoff in handoffs] == [transfer_name]


@pytest.mark.asyncio
async def test_unknown_tool_is_reported_as_a_session_error() -> None:
    unknown = RealtimeModelToolCallEvent(name="missing_tool", call_id="call_x", arguments="{}")
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(expect=RealtimeModelSendUserInput(user_input="Hi"), emit=[unknown]),
        ],
        strict=False,
    )
    runner = RealtimeRunner(
        RealtimeAgent(name="Assistant"), model=model, config=config(async_tool_calls=False)
    )

    async with await runner.run() as session:
        await session.send_message("Hi")
        error = await next_event(session, "error")
        assert "missing_tool" in str(error.error)  # type: ignore[union-attr]

    model.assert_complete()
