"""The ``captured_traces`` fixture: spans of one test in memory, tracing state restored after."""

from __future__ import annotations

import agents
import pytest
from agents.tracing import get_trace_provider

CAPTURE_TESTS = """
import agents
import pytest
from agents import Agent, Runner, function_tool
from agents.testing import assistant_message, function_call
from agents.tracing import get_trace_provider

BEFORE = get_trace_provider()


def tracing_on():
    return agents.trace("probe").export() is not None


@function_tool
def get_weather(city: str) -> str:
    return f"Sunny in {city}"


@pytest.mark.asyncio
async def test_spans_despite_the_scripted_fixtures(scripted_model, captured_traces):
    model = scripted_model(
        [
            [function_call("get_weather", {"city": "Tokyo"}, call_id="call_1")],
            [assistant_message("Sunny.")],
        ]
    )
    await Runner.run(Agent(name="Desk", model=model, tools=[get_weather]), "Weather?")
    [trace] = captured_traces.tree
    [agent] = trace["children"]
    assert [child["type"] for child in agent["children"]] == ["function"]


@pytest.mark.asyncio
async def test_fixture_order_does_not_matter(captured_traces, scripted_model):
    model = scripted_model([[assistant_message("Hi.")]])
    await Runner.run(Agent(name="Desk", model=model), "Hello")
    assert len(captured_traces.spans_of("agent")) == 1


@pytest.mark.agents_testing(disable_tracing=False)
@pytest.mark.asyncio
async def test_with_tracing_kept(captured_traces, scripted_model):
    model = scripted_model([[assistant_message("Hi.")]])
    await Runner.run(Agent(name="Desk", model=model), "Hello")
    assert len(captured_traces.spans_of("agent")) == 1


@pytest.mark.asyncio
async def test_alone(captured_traces):
    with agents.trace("Manual"), agents.custom_span("step", {"n": 1}):
        pass
    assert captured_traces.tree == [
        {
            "type": "trace",
            "name": "Manual",
            "children": [{"type": "custom", "name": "step", "data": {"n": 1}}],
        }
    ]


def test_afterwards_everything_is_as_before():
    assert get_trace_provider() is BEFORE
    assert tracing_on()
"""


def test_the_fixture_captures_spans_and_puts_everything_back(project: pytest.Pytester) -> None:
    before = get_trace_provider()
    agents.set_tracing_disabled(False)
    project.makepyfile(test_capture=CAPTURE_TESTS)

    result = project.runpytest()

    result.assert_outcomes(passed=5)
    assert get_trace_provider() is before


def test_nothing_reaches_the_exporter_while_capturing(project: pytest.Pytester) -> None:
    project.makepyfile(
        test_upload="""
        import pytest
        from agents import Agent, Runner
        from agents.testing import ScriptedModel, assistant_message
        from agents.tracing.processors import BackendSpanExporter, default_processor


        async def run_and_collect_uploads(monkeypatch):
            uploaded = []
            monkeypatch.setattr(
                BackendSpanExporter, "export", lambda self, items: uploaded.extend(items)
            )
            model = ScriptedModel([[assistant_message("Hi.")]], emit_traces=True)
            await Runner.run(Agent(name="Desk", model=model), "Hello")
            default_processor().force_flush()
            return uploaded


        @pytest.mark.agents_testing(disable_tracing=False)
        @pytest.mark.asyncio
        async def test_capture(captured_traces, monkeypatch):
            assert await run_and_collect_uploads(monkeypatch) == []
            assert [node["type"] for node in captured_traces.tree[0]["children"]] == ["agent"]


        @pytest.mark.agents_testing(disable_tracing=False)
        @pytest.mark.asyncio
        async def test_control_without_capture(scripted_model, monkeypatch):
            assert await run_and_collect_uploads(monkeypatch) != []
        """
    )

    result = project.runpytest("--agents-block-model-requests")

    result.assert_outcomes(passed=2)
