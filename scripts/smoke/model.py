"""Smoke test of an installed agents-testing-model: a tool loop through ``Runner.run``
and a streamed run, with the double imported from ``agents.testing``."""

from __future__ import annotations

import asyncio

from agents import Agent, RunConfig, Runner, ToolCallOutputItem, function_tool
from agents.testing import ScriptedModel, assistant_message, function_call


@function_tool
def get_weather(city: str) -> str:
    """Return the weather for a city."""
    return f"{city}: sunny"


async def main() -> None:
    model = ScriptedModel(
        [
            [function_call("get_weather", {"city": "Tokyo"}, call_id="call_1")],
            [assistant_message("It is sunny in Tokyo.")],
            [assistant_message("Streamed.")],
        ]
    )
    agent = Agent(name="Weather assistant", model=model, tools=[get_weather])
    config = RunConfig(tracing_disabled=True)

    result = await Runner.run(agent, "Weather in Tokyo?", run_config=config)
    assert result.final_output == "It is sunny in Tokyo.", result.final_output
    outputs = [item.output for item in result.new_items if isinstance(item, ToolCallOutputItem)]
    assert outputs == ["Tokyo: sunny"], outputs
    assert model.last_call is not None
    assert len(model.calls) == 2, model.calls

    streamed = Runner.run_streamed(agent, "Again", run_config=config)
    kinds = [event.type async for event in streamed.stream_events()]
    assert streamed.final_output == "Streamed.", streamed.final_output
    assert "raw_response_event" in kinds, kinds
    model.assert_complete()

    import agents_testing.model

    print(f"model smoke passed ({len(model.calls)} calls) from {agents_testing.model.__file__}")


asyncio.run(main())
