"""Deterministic call ids for tool calls scripted without ``call_id``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from agents import Agent, function_tool
from agents.items import TResponseStreamEvent
from openai.types.responses import ResponseOutputItemDoneEvent

from agents_testing.model import (
    InvalidModelStep,
    ModelCall,
    ModelStep,
    ScriptedModel,
    UnconsumedModelSteps,
    assistant_message,
    function_call,
)

from ..conftest import RunAgent, StreamedRun


@function_tool
def echo(text: str) -> str:
    """Echo the text."""
    return f"echo:{text}"


def _call_ids(result: Any) -> list[str]:
    items = result.result.new_items if isinstance(result, StreamedRun) else result.new_items
    raw: list[Any] = [item.raw_item for item in items if item.type == "tool_call_item"]
    return [item.call_id for item in raw]


@pytest.mark.asyncio
async def test_omitted_call_ids_are_numbered_in_the_order_calls_are_served(
    run: RunAgent, streamed: bool
) -> None:
    model = ScriptedModel(
        [
            [function_call("echo", {"text": "a"}), function_call("echo", {"text": "b"})],
            [function_call("echo", {"text": "c"})],
            [assistant_message("Done.")],
        ]
    )

    result = await run(Agent(name="E", model=model, tools=[echo]), "Go", streamed=streamed)

    assert result.final_output == "Done."
    assert _call_ids(result) == ["call_1", "call_2", "call_3"]
    # The recorded requests show the same ids with their outputs.
    assert model.calls[1].tool_outputs() == {"call_1": "echo:a", "call_2": "echo:b"}
    assert model.calls[2].tool_outputs() == {
        "call_1": "echo:a",
        "call_2": "echo:b",
        "call_3": "echo:c",
    }


@pytest.mark.asyncio
async def test_explicit_call_ids_keep_their_value_and_are_skipped_by_the_counter(
    run: RunAgent, streamed: bool
) -> None:
    model = ScriptedModel(
        [
            [function_call("echo", {"text": "a"})],
            [function_call("echo", {"text": "b"}, call_id="call_2")],
            [function_call("echo", {"text": "c"})],
            [assistant_message("Done.")],
        ]
    )

    result = await run(Agent(name="E", model=model, tools=[echo]), "Go", streamed=streamed)

    # call_2 is written explicitly later in the script, so the counter never hands it out.
    assert _call_ids(result) == ["call_1", "call_2", "call_3"]
    assert model.last_call is not None
    assert model.last_call.tool_outputs() == {
        "call_1": "echo:a",
        "call_2": "echo:b",
        "call_3": "echo:c",
    }


@pytest.mark.asyncio
async def test_ids_in_the_request_are_skipped_and_responders_get_ids_too(
    run: RunAgent, streamed: bool
) -> None:
    history: list[Any] = [
        {"type": "function_call", "call_id": "call_1", "name": "echo", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_1", "output": "old"},
        {"role": "user", "content": "Again"},
    ]
    model = ScriptedModel(
        [
            ModelStep.respond(lambda call: [function_call("echo", {"text": call.user_text})]),
            [assistant_message("Done.")],
        ]
    )

    result = await run(Agent(name="E", model=model, tools=[echo]), history, streamed=streamed)

    assert _call_ids(result) == ["call_2"]
    assert model.last_call is not None
    assert model.last_call.tool_outputs() == {"call_1": "old", "call_2": "echo:Again"}


@pytest.mark.asyncio
async def test_each_model_counts_its_own_calls(run: RunAgent) -> None:
    first = ScriptedModel([[function_call("echo", {"text": "a"})], [assistant_message("1")]])
    second = ScriptedModel([[function_call("echo", {"text": "b"})], [assistant_message("2")]])

    await run(Agent(name="A", model=first, tools=[echo]), "Go", streamed=False)
    await run(Agent(name="B", model=second, tools=[echo]), "Go", streamed=True)

    assert first.calls[1].tool_outputs() == {"call_1": "echo:a"}
    assert second.calls[1].tool_outputs() == {"call_1": "echo:b"}


def test_pending_steps_show_the_placeholder_until_the_call_is_served() -> None:
    model = ScriptedModel([[function_call("echo", {"text": "a"})]])

    with pytest.raises(UnconsumedModelSteps) as raised:
        model.assert_complete()

    pending: Any
    (pending,) = raised.value.pending_steps
    output: list[Any] = list(pending.output)
    assert [item.call_id for item in output] == ["call_<auto>"]


def test_an_explicit_call_id_is_unchanged() -> None:
    call = function_call("echo", "{}", call_id="abc")

    assert call.call_id == "abc"


def test_exact_stream_events_need_explicit_call_ids() -> None:
    event = ResponseOutputItemDoneEvent(
        type="response.output_item.done",
        sequence_number=0,
        output_index=0,
        item=function_call("echo", "{}"),
    )

    with pytest.raises(InvalidModelStep) as raised:
        ScriptedModel([ModelStep.stream([event])])

    assert str(raised.value) == (
        "Scripted model step #1 is invalid: stream event 1 carries a call built without call_id; "
        "ModelStep.stream sends its events exactly as written, so give the call an "
        "explicit call_id."
    )


@pytest.mark.asyncio
async def test_an_id_a_responder_served_explicitly_is_not_handed_out_later(
    run: RunAgent, streamed: bool
) -> None:
    def explicit(call: ModelCall) -> list[Any]:
        return [function_call("echo", {"text": "a"}, call_id="call_1")]

    model = ScriptedModel(
        [
            ModelStep.respond(explicit),
            [assistant_message("First.")],
            [function_call("echo", {"text": "b"})],
            [assistant_message("Second.")],
        ]
    )
    agent = Agent(name="E", model=model, tools=[echo])

    first = await run(agent, "Go", streamed=streamed)
    # A new conversation: its request holds no call ids, the model still remembers.
    second = await run(agent, "Again", streamed=streamed)

    assert _call_ids(first) == ["call_1"]
    assert _call_ids(second) == ["call_2"]


@pytest.mark.asyncio
async def test_a_stream_factory_yielding_a_call_without_call_id_fails_the_call(
    run: RunAgent,
) -> None:
    async def events(call: ModelCall) -> AsyncIterator[TResponseStreamEvent]:
        yield ResponseOutputItemDoneEvent(
            type="response.output_item.done",
            sequence_number=0,
            output_index=0,
            item=function_call("echo", "{}"),
        )

    model = ScriptedModel([ModelStep.stream(events)])

    with pytest.raises(InvalidModelStep, match="stream event 1 carries a call built without"):
        await run(Agent(name="E", model=model, tools=[echo]), "Go", streamed=True)
