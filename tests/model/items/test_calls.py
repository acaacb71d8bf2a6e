"""Builders of calls of the agent's own tools: handoffs, custom tools and tool search."""

from __future__ import annotations

from typing import Any

import pytest
from agents import Agent, CustomTool, ToolSearchTool, function_tool, handoff
from agents.items import HandoffCallItem, HandoffOutputItem, ToolCallItem
from agents.stream_events import RawResponsesStreamEvent
from agents.tool_context import ToolContext
from pydantic import BaseModel

from agents_testing.model import (
    InvalidModelArgument,
    ScriptedModel,
    assistant_message,
    custom_tool_call,
    function_call,
    handoff_call,
    tool_search_call,
)

from ..conftest import RunAgent, StreamedRun

BAD: Any = 5


class RefundInput(BaseModel):
    order: str


def _items(result: Any) -> list[Any]:
    return list(result.result.new_items if isinstance(result, StreamedRun) else result.new_items)


@pytest.mark.asyncio
async def test_handoff_call_hands_the_run_to_the_target_agent(
    run: RunAgent, streamed: bool
) -> None:
    billing_model = ScriptedModel([[assistant_message("Billing here.")]])
    billing = Agent(name="Billing agent", model=billing_model)
    triage_model = ScriptedModel([[handoff_call(billing)]])
    triage = Agent(name="Triage", model=triage_model, handoffs=[billing])

    result = await run(triage, "My invoice", streamed=streamed)

    assert result.final_output == "Billing here."
    last_agent = result.result.last_agent if isinstance(result, StreamedRun) else result.last_agent
    assert last_agent is billing
    items = _items(result)
    assert [type(item) for item in items[:2]] == [HandoffCallItem, HandoffOutputItem]
    assert items[0].raw_item.call_id == "call_1"
    assert billing_model.last_call is not None
    assert billing_model.last_call.tool_output("call_1") is not None


@pytest.mark.asyncio
async def test_handoff_call_uses_a_handoffs_own_tool_name_and_input(
    run: RunAgent, streamed: bool
) -> None:
    received: list[RefundInput] = []

    async def on_handoff(ctx: Any, data: RefundInput) -> None:
        received.append(data)

    refunds = Agent(name="Refunds", model=ScriptedModel([[assistant_message("Refunded.")]]))
    to_refunds = handoff(
        refunds,
        tool_name_override="escalate_refund",
        on_handoff=on_handoff,
        input_type=RefundInput,
    )
    triage_model = ScriptedModel([[handoff_call(to_refunds, {"order": "A-1"}, call_id="h1")]])
    triage = Agent(name="Triage", model=triage_model, handoffs=[to_refunds])

    result = await run(triage, "Refund me", streamed=streamed)

    assert result.final_output == "Refunded."
    assert received == [RefundInput(order="A-1")]
    assert _items(result)[0].raw_item.name == "escalate_refund"


def test_handoff_call_rejects_what_is_no_agent_or_handoff() -> None:
    with pytest.raises(InvalidModelArgument) as raised:
        handoff_call(BAD)

    assert str(raised.value) == (
        "Invalid argument handoff_call(agent): expected an agents.Agent or an agents.Handoff "
        "(from handoff(agent, ...)), got int 5."
    )


@pytest.mark.asyncio
async def test_custom_tool_call_runs_the_custom_tool_and_streams_its_input(
    run: RunAgent, streamed: bool
) -> None:
    inputs: list[str] = []

    def invoke(context: ToolContext[Any], text: str) -> str:
        inputs.append(text)
        return "formatted"

    tool = CustomTool(name="format_sql", description="Format SQL.", on_invoke_tool=invoke)
    model = ScriptedModel(
        [[custom_tool_call("format_sql", "select 1")], [assistant_message("Done.")]],
        stream_all_items=True,
    )

    result = await run(Agent(name="SQL", model=model, tools=[tool]), "Format", streamed=streamed)

    assert result.final_output == "Done."
    assert inputs == ["select 1"]
    assert isinstance(_items(result)[0], ToolCallItem)
    assert model.last_call is not None
    assert model.last_call.tool_output("call_1") == "formatted"
    if isinstance(result, StreamedRun):
        first_response: list[Any] = [
            event.data
            for event in result.events
            if isinstance(event, RawResponsesStreamEvent)
            and event.data.type.startswith("response.custom_tool_call_input")
        ]
        assert [(event.type, event.item_id) for event in first_response] == [
            ("response.custom_tool_call_input.delta", "resp-789_item_0"),
            ("response.custom_tool_call_input.done", "resp-789_item_0"),
        ]
        assert [getattr(event, "delta", None) for event in first_response] == ["select 1", None]


@pytest.mark.asyncio
async def test_tool_search_call_is_recorded_as_a_hosted_tool_search(
    run: RunAgent, streamed: bool
) -> None:
    @function_tool(defer_loading=True)
    def lookup(city: str) -> str:
        """Look a city up."""
        return city

    model = ScriptedModel(
        [[tool_search_call({"query": "city"}), assistant_message("Searched.")]],
        stream_all_items=True,
    )
    agent = Agent(name="Finder", model=model, tools=[ToolSearchTool(), lookup])

    result = await run(agent, "Find", streamed=streamed)

    assert result.final_output == "Searched."
    raw = _items(result)[0].raw_item
    assert raw.type == "tool_search_call"
    assert (raw.call_id, raw.execution, raw.arguments) == ("call_1", "server", {"query": "city"})


@pytest.mark.parametrize(
    ("build", "argument", "expected"),
    [
        (lambda: function_call("", "{}"), "function_call(name)", "a non-empty str"),
        (lambda: function_call("f", BAD), "function_call(arguments)", "a str or a mapping"),
        (lambda: handoff_call(Agent(name="A"), BAD), "handoff_call(arguments)", "a str or a"),
        (lambda: handoff_call(Agent(name="A"), call_id=""), "handoff_call(call_id)", "a non-"),
        (lambda: custom_tool_call("f", BAD), "custom_tool_call(input)", "a str"),
        (lambda: custom_tool_call("f", namespace=BAD), "custom_tool_call(namespace)", "a str or"),
        (lambda: tool_search_call(BAD), "tool_search_call(arguments)", "a mapping or None"),
        (
            lambda: tool_search_call(status="done"),
            "tool_search_call(status)",
            "a value the installed openai accepts for ResponseToolSearchCall.status",
        ),
    ],
)
def test_call_builders_name_the_bad_argument(build: Any, argument: str, expected: str) -> None:
    with pytest.raises(InvalidModelArgument) as raised:
        build()

    assert raised.value.argument == argument
    assert str(raised.value).startswith(f"Invalid argument {argument}: expected {expected}")
