"""sent_events: detached snapshots of outgoing events; live SDK objects keep identity."""

from __future__ import annotations

import sys
import threading
from typing import Any

import pytest
from agents import function_tool
from agents.realtime import (
    RealtimeAgent,
    RealtimeModelSendRawMessage,
    RealtimeModelSendSessionUpdate,
    RealtimeModelSendToolOutput,
    RealtimeModelSendUserInput,
    RealtimeModelToolCallEvent,
    RealtimeModelTranscriptDeltaEvent,
    RealtimeRunConfig,
    RealtimeRunner,
)

from agents_testing.core import UncopyableValue
from agents_testing.realtime import (
    RealtimeStep,
    ScriptedRealtimeModel,
    UnexpectedRealtimeSend,
)


@function_tool
def lookup_order(order_id: str) -> str:
    """Look up an order by ID."""
    return f"Order {order_id} has shipped."


REPLY = RealtimeModelTranscriptDeltaEvent(item_id="item_1", delta="Hi!", response_id="resp_1")


def runner_for(model: ScriptedRealtimeModel, agent: RealtimeAgent[Any] | None = None) -> Any:
    config: RealtimeRunConfig = {"tracing_disabled": True, "async_tool_calls": False}
    return RealtimeRunner(agent or RealtimeAgent(name="Assistant"), model=model, config=config)


@pytest.mark.asyncio
async def test_mutating_the_sent_message_does_not_change_history() -> None:
    message: Any = {
        "type": "message",
        "role": "user",
        "content": [{"type": "input_text", "text": "Hello"}],
    }
    model = ScriptedRealtimeModel(strict=False)

    async with await runner_for(model).run() as session:
        await session.send_message(message)
    message["content"][0]["text"] = "changed by the application"

    (sent,) = model.sent_events
    assert isinstance(sent, RealtimeModelSendUserInput)
    assert sent.user_input == {
        "type": "message",
        "role": "user",
        "content": [{"type": "input_text", "text": "Hello"}],
    }


@pytest.mark.asyncio
async def test_mutating_a_returned_snapshot_does_not_change_history() -> None:
    model = ScriptedRealtimeModel(strict=False)

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")

    first = model.sent_events[0]
    assert isinstance(first, RealtimeModelSendUserInput)
    first.user_input = "rewritten"
    assert model.sent_events == (RealtimeModelSendUserInput(user_input="Hello"),)
    assert model.sent_events[0] is not model.sent_events[0]


@pytest.mark.asyncio
async def test_session_update_snapshot_keeps_tool_objects() -> None:
    model = ScriptedRealtimeModel([RealtimeStep(expect=RealtimeModelSendSessionUpdate)])
    support = RealtimeAgent(name="Support", instructions="Help.", tools=[lookup_order])

    async with await runner_for(model).run() as session:
        await session.update_agent(support)

    model.assert_complete()
    (update,) = model.sent_events
    assert isinstance(update, RealtimeModelSendSessionUpdate)
    assert update.session_settings["instructions"] == "Help."
    assert update.session_settings["tools"][0] is lookup_order
    update.session_settings["tools"].clear()
    again = model.sent_events[0]
    assert isinstance(again, RealtimeModelSendSessionUpdate)
    assert again.session_settings["tools"] == [lookup_order]


@pytest.mark.asyncio
async def test_tool_output_snapshot_copies_the_tool_call() -> None:
    call = RealtimeModelToolCallEvent(
        name="lookup_order", call_id="call_1", arguments='{"order_id":"o1"}'
    )
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=RealtimeModelSendToolOutput)],
        connect_events=[call],
    )
    agent = RealtimeAgent(name="Orders", tools=[lookup_order])

    async with await runner_for(model, agent).run():
        pass

    (sent,) = model.sent_events
    assert isinstance(sent, RealtimeModelSendToolOutput)
    assert sent.tool_call == call
    assert sent.tool_call is not call
    assert sent.output == "Order o1 has shipped."


@pytest.mark.asyncio
async def test_raw_message_snapshot_is_detached() -> None:
    other_data: dict[str, Any] = {"items": ["a"]}
    raw = RealtimeModelSendRawMessage(message={"type": "custom.event", "other_data": other_data})
    model = ScriptedRealtimeModel([RealtimeStep(expect=raw)])

    async with await runner_for(model).run():
        await model.send_event(raw)
    other_data["items"].append("b")

    (sent,) = model.sent_events
    assert isinstance(sent, RealtimeModelSendRawMessage)
    assert sent.message == {"type": "custom.event", "other_data": {"items": ["a"]}}
    model.assert_complete()


@pytest.mark.asyncio
async def test_unexpected_send_carries_a_detached_copy() -> None:
    model = ScriptedRealtimeModel()
    sent = RealtimeModelSendUserInput(user_input="Hello")

    async with await runner_for(model).run():
        with pytest.raises(UnexpectedRealtimeSend) as caught:
            await model.send_event(sent)

    assert caught.value.actual == sent
    assert caught.value.actual is not sent


class CopyRefused(RuntimeError):
    """What a value's own ``__deepcopy__`` raises."""


class Uncopyable:
    def __deepcopy__(self, memo: Any) -> Any:
        raise CopyRefused("x")


class RefusingOnce:
    """A value whose ``__deepcopy__`` raises one exception object it holds."""

    def __init__(self) -> None:
        self.refusal = CopyRefused("x")

    def __deepcopy__(self, memo: Any) -> Any:
        raise self.refusal


@pytest.mark.parametrize("conditional", [False, True], ids=["send_event", "send_event_if"])
@pytest.mark.asyncio
async def test_send_that_cannot_be_copied_re_raises_the_values_own_error_and_leaves_no_trace(
    conditional: bool,
) -> None:
    """Shows GEN-1."""
    matched: list[Any] = []
    delivered: list[Any] = []

    def expects_anything(event: Any) -> bool:
        matched.append(event)
        return True

    class Recorder:
        async def on_event(self, event: Any) -> None:
            delivered.append(event)

    model = ScriptedRealtimeModel([RealtimeStep(expect=expects_anything, emit=[REPLY])])
    value: Any = RefusingOnce()

    async with await runner_for(model).run() as session:
        model.add_listener(Recorder())  # type: ignore[arg-type]
        sending = (
            model.send_event_if(
                RealtimeModelSendUserInput(user_input=value),
                lambda: True,
            )
            if conditional
            else session.send_message(value)
        )
        with pytest.raises(CopyRefused) as caught:
            await sending

    error = caught.value
    assert error is value.refusal
    assert error.__cause__ is None
    assert error.__context__ is None
    assert (model.sent_events, model.remaining_steps, matched, delivered) == ((), 1, [], [])
    if sys.version_info >= (3, 11):
        (note,) = error.__notes__
        assert "RealtimeModelSendUserInput.user_input" in note


@pytest.mark.asyncio
async def test_with_extra_checks_an_uncopyable_send_is_our_uncopyable_value_error() -> None:
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=RealtimeModelSendRawMessage)], extra_checks=True
    )
    raw = RealtimeModelSendRawMessage(
        message={"type": "custom.event", "other_data": {"lock": threading.Lock()}}
    )

    async with await runner_for(model).run():
        with pytest.raises(
            UncopyableValue, match=r"Cannot snapshot RealtimeModelSendRawMessage\.message"
        ) as caught:
            await model.send_event(raw)

    assert isinstance(caught.value.__cause__, TypeError)
    assert (model.sent_events, model.remaining_steps) == ((), 1)


@pytest.mark.parametrize("extra_checks", [False, True])
@pytest.mark.asyncio
async def test_connect_settings_that_cannot_be_copied_record_nothing(extra_checks: bool) -> None:
    model = ScriptedRealtimeModel(extra_checks=extra_checks)
    session = await runner_for(model).run(
        model_config={"initial_model_settings": {"instructions": Uncopyable()}}  # type: ignore[typeddict-item,unused-ignore]
    )

    expected = UncopyableValue if extra_checks else CopyRefused
    with pytest.raises(expected):
        await session.enter()

    assert model.connect_calls == ()
    assert (model.connected, model.closed) == (False, False)
