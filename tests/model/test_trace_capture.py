"""``capture_traces()``: the SDK's spans of real runs in memory, the previous provider restored."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from agents import (
    Agent,
    GuardrailFunctionOutput,
    InputGuardrailTripwireTriggered,
    RunConfig,
    RunContextWrapper,
    Runner,
    custom_span,
    function_tool,
    handoff,
    input_guardrail,
    set_tracing_disabled,
)
from agents.testing import (
    CapturedTraces,
    ScriptedModel,
    assistant_message,
    capture_traces,
    function_call,
    to_snapshot,
)
from agents.tracing import (
    get_trace_provider,
    set_trace_provider,
)
from agents.tracing.provider import DefaultTraceProvider

from agents_testing.core import TraceCaptureError, compat
from agents_testing.core._guard.requests import RequestGuard

from ._span_recorder import Recorder
from .conftest import RunAgent


@pytest.fixture
def own_provider() -> Iterator[tuple[DefaultTraceProvider, Recorder]]:
    """A user's own global trace provider with its own processor, for one test."""
    previous = get_trace_provider()
    provider = DefaultTraceProvider()
    recorder = Recorder()
    provider.set_processors([recorder])
    provider.set_disabled(False)
    set_trace_provider(provider)
    try:
        yield provider, recorder
    finally:
        set_trace_provider(previous)


@function_tool
def get_weather(city: str) -> str:
    """The weather in a city."""
    with custom_span("forecast_cache", {"city": city}):
        pass
    return f"Sunny in {city}"


@function_tool
def cancel(code: str) -> str:
    """Cancel a booking."""
    raise ValueError(f"unknown booking {code}")


@input_guardrail(run_in_parallel=False)
def no_card_numbers(
    context: RunContextWrapper[Any], agent: Agent[Any], user_input: Any
) -> GuardrailFunctionOutput:
    return GuardrailFunctionOutput(output_info=None, tripwire_triggered="4111" in str(user_input))


def _travel_desk() -> Agent[Any]:
    billing = Agent(
        name="Billing",
        model=ScriptedModel([[assistant_message("Refunded.")]], emit_traces=True),
    )
    model = ScriptedModel(
        [
            [function_call("get_weather", {"city": "Tokyo"}, call_id="call_w")],
            [function_call(handoff(billing).tool_name, {}, call_id="call_h")],
        ],
        emit_traces=True,
    )
    return Agent(name="Triage", model=model, tools=[get_weather], handoffs=[billing])


TRAVEL_DESK_TREE = [
    {
        "type": "trace",
        "name": "Agent workflow",
        "children": [
            {
                "type": "agent",
                "name": "Triage",
                "handoffs": ["Billing"],
                "tools": ["get_weather"],
                "output_type": "str",
                "children": [
                    {"type": "generation", "model": "scripted-model"},
                    {
                        "type": "function",
                        "name": "get_weather",
                        "input": {"city": "Tokyo"},
                        "output": "Sunny in Tokyo",
                        "children": [
                            {"type": "custom", "name": "forecast_cache", "data": {"city": "Tokyo"}}
                        ],
                    },
                    {"type": "generation", "model": "scripted-model"},
                    {"type": "handoff", "from_agent": "Triage", "to_agent": "Billing"},
                ],
            },
            {
                "type": "agent",
                "name": "Billing",
                "handoffs": [],
                "tools": [],
                "output_type": "str",
                "children": [{"type": "generation", "model": "scripted-model"}],
            },
        ],
    }
]


@pytest.mark.asyncio
async def test_the_span_tree_of_a_run_with_a_tool_and_a_handoff(
    run: RunAgent, streamed: bool
) -> None:
    with capture_traces() as traces:
        await run(_travel_desk(), "Refund my Tokyo trip", streamed=streamed, run_config=RunConfig())

    assert traces.tree == TRAVEL_DESK_TREE
    assert to_snapshot(traces) == to_snapshot(TRAVEL_DESK_TREE)
    assert [span.span_data.type for span in traces.spans_of("handoff")] == ["handoff"]
    assert len(traces.traces) == 1


@pytest.mark.asyncio
async def test_a_guardrail_tripwire_shows_in_the_span_tree(run: RunAgent, streamed: bool) -> None:
    agent = Agent(
        name="Desk",
        model=ScriptedModel([[assistant_message("Booked.")]], emit_traces=True),
        input_guardrails=[no_card_numbers],
    )

    with capture_traces() as traces, pytest.raises(InputGuardrailTripwireTriggered):
        await run(agent, "Card 4111 1111", streamed=streamed, run_config=RunConfig())

    agent_node: dict[str, Any] = {
        "type": "agent",
        "name": "Desk",
        "handoffs": [],
        "tools": [],
        "output_type": "str",
        "children": [{"type": "guardrail", "name": "no_card_numbers", "triggered": True}],
    }
    if streamed:
        # The streamed runner also marks the agent span failed; Runner.run does not.
        agent_node["error"] = {
            "message": "Guardrail tripwire triggered",
            "data": {"guardrail": "no_card_numbers", "type": "input_guardrail"},
        }
    assert traces.tree == [{"type": "trace", "name": "Agent workflow", "children": [agent_node]}]


@pytest.mark.asyncio
async def test_a_failing_tool_shows_its_error_in_the_span_tree(
    run: RunAgent, streamed: bool
) -> None:
    model = ScriptedModel(
        [
            [function_call("cancel", {"code": "X9"}, call_id="call_c")],
            [assistant_message("Could not cancel.")],
        ]
    )
    agent = Agent(name="Desk", model=model, tools=[cancel])

    with capture_traces() as traces:
        await run(agent, "Cancel X9", streamed=streamed, run_config=RunConfig())

    [function] = traces.tree[0]["children"][0]["children"]
    assert function["type"] == "function"
    assert function["name"] == "cancel"
    assert function["input"] == {"code": "X9"}
    assert function["error"]["message"] == "Error running tool (non-fatal)"
    assert function["error"]["data"]["tool_name"] == "cancel"


@pytest.mark.asyncio
async def test_generation_spans_come_only_from_models_that_emit_them() -> None:
    agent = Agent(name="Desk", model=ScriptedModel([[assistant_message("Hi.")]]))

    with capture_traces() as traces:
        await Runner.run(agent, "Hello")

    assert traces.tree[0]["children"] == [
        {"type": "agent", "name": "Desk", "handoffs": [], "tools": [], "output_type": "str"}
    ]


@pytest.mark.asyncio
async def test_run_spans_are_left_out_of_the_tree_unless_asked_for() -> None:
    agent = Agent(name="Desk", model=ScriptedModel([[assistant_message("Hi.")]]))

    with capture_traces() as traces:
        await Runner.run(agent, "Hello")

    kinds = {span.span_data.type for span in traces.spans}
    hidden = kinds & set(compat.run_loop_span_types())
    full = traces.span_tree(run_spans=True)
    assert {"agent"} <= kinds
    assert "task" not in str(traces.tree)
    if hidden:
        assert full != traces.tree
        assert full[0]["children"][0]["type"] in hidden
    else:
        assert full == traces.tree


@pytest.mark.asyncio
async def test_the_previous_provider_and_its_processors_are_back_afterwards(
    own_provider: tuple[DefaultTraceProvider, Recorder],
) -> None:
    provider, recorder = own_provider

    with capture_traces() as traces:
        assert get_trace_provider() is not provider
        await Runner.run(Agent(name="Desk", model=ScriptedModel([[assistant_message("A")]])), "x")

    assert get_trace_provider() is provider
    assert recorder.spans == []
    assert traces.active is False
    await Runner.run(Agent(name="Desk", model=ScriptedModel([[assistant_message("B")]])), "y")
    assert "agent" in [span.span_data.type for span in recorder.spans]
    assert len(traces.spans_of("agent")) == 1


@pytest.mark.asyncio
async def test_the_previous_provider_is_back_when_the_body_fails(
    own_provider: tuple[DefaultTraceProvider, Recorder],
) -> None:
    provider, _ = own_provider

    with pytest.raises(RuntimeError, match="boom"), capture_traces():
        raise RuntimeError("boom")

    assert get_trace_provider() is provider


@pytest.mark.asyncio
async def test_spans_are_captured_while_tracing_is_switched_off(
    own_provider: tuple[DefaultTraceProvider, Recorder], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, recorder = own_provider
    monkeypatch.setenv("OPENAI_AGENTS_DISABLE_TRACING", "1")
    set_tracing_disabled(True)

    with capture_traces() as traces:
        await Runner.run(Agent(name="Desk", model=ScriptedModel([[assistant_message("A")]])), "x")
    await Runner.run(Agent(name="Desk", model=ScriptedModel([[assistant_message("B")]])), "y")

    assert len(traces.spans_of("agent")) == 1
    assert recorder.spans == []  # the switch the test set is still off afterwards


@pytest.mark.asyncio
async def test_nothing_is_uploaded_while_capturing() -> None:
    state = compat.capture_tracing_state()
    set_tracing_disabled(False)
    # What earlier tests of this process left queued is handed to the exporter (and
    # dropped) now, not while the guard below counts what the capture let through.
    with RequestGuard("earlier tests"):
        pass
    try:
        with RequestGuard("uploads") as guard, capture_traces() as traces:
            await Runner.run(
                Agent(name="Desk", model=ScriptedModel([[assistant_message("A")]])), "x"
            )
        with RequestGuard("uploads") as control:
            await Runner.run(
                Agent(name="Desk", model=ScriptedModel([[assistant_message("B")]])), "y"
            )
    finally:
        state.restore()

    assert len(traces.spans_of("agent")) == 1
    assert guard.dropped_trace_items == 0
    assert control.dropped_trace_items > 0


def test_a_capture_cannot_be_entered_twice_at_once() -> None:
    traces = capture_traces()

    with traces, pytest.raises(TraceCaptureError) as caught:
        traces.__enter__()

    assert str(caught.value) == (
        "This trace capture is already active; leave it before entering it again, or use "
        "a new capture_traces()."
    )


@pytest.mark.asyncio
async def test_nested_captures_each_see_their_own_spans() -> None:
    with capture_traces() as outer:
        await Runner.run(Agent(name="A", model=ScriptedModel([[assistant_message("1")]])), "x")
        with capture_traces() as inner:
            await Runner.run(Agent(name="B", model=ScriptedModel([[assistant_message("2")]])), "y")
        await Runner.run(Agent(name="C", model=ScriptedModel([[assistant_message("3")]])), "z")

    assert [span.span_data.export()["name"] for span in outer.spans_of("agent")] == ["A", "C"]
    assert [span.span_data.export()["name"] for span in inner.spans_of("agent")] == ["B"]
    assert isinstance(outer, CapturedTraces)


@pytest.mark.asyncio
async def test_the_fixture_captures_spans_although_scripted_fixtures_switch_tracing_off(
    scripted_model: Any, captured_traces: CapturedTraces
) -> None:
    model = scripted_model([[assistant_message("Hi.")]])

    await Runner.run(Agent(name="Desk", model=model), "Hello")

    assert [node["name"] for node in captured_traces.tree[0]["children"]] == ["Desk"]


@pytest.mark.asyncio
async def test_raw_spans_snapshot_as_their_export_with_ids_and_times_normalized() -> None:
    with capture_traces() as traces:
        await Runner.run(_travel_desk(), "Refund my Tokyo trip")

    handoff_span = to_snapshot(traces.spans_of("handoff"))
    assert handoff_span == [
        {
            "object": "trace.span",
            "id": handoff_span[0]["id"],
            "trace_id": "<trace_1>",
            "parent_id": handoff_span[0]["parent_id"],
            "started_at": "<timestamp>",
            "ended_at": "<timestamp>",
            "span_data": {"type": "handoff", "from_agent": "Triage", "to_agent": "Billing"},
        }
    ]
    assert handoff_span[0]["id"].startswith("<span_")
    assert handoff_span[0]["parent_id"].startswith("<span_")
    assert to_snapshot(traces.traces) == [
        {"object": "trace", "id": "<trace_1>", "workflow_name": "Agent workflow"}
    ]
