"""Running an agent whose tools come from a scripted MCP server, streamed or not."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import pytest
from agents import Agent, RunConfig, Runner, RunResult, RunResultStreaming
from agents.mcp import MCPServer

from agents_testing.mcp import mcp_tool
from agents_testing.model import ScriptedModel

RunAgent = Callable[..., Awaitable[RunResult | RunResultStreaming]]

CONVERT = mcp_tool(
    "convert",
    description="Convert US dollars to another currency.",
    input_schema={
        "type": "object",
        "properties": {
            "amount": {"type": "number"},
            "currency": {"type": "string", "enum": ["EUR", "JPY"]},
        },
        "required": ["amount", "currency"],
    },
    output_schema={
        "type": "object",
        "properties": {"amount": {"type": "number"}, "currency": {"type": "string"}},
        "required": ["amount", "currency"],
    },
)
RATES = mcp_tool("rates", description="Today's rates.")


@pytest.fixture(params=["run", "run_streamed"])
def run_agent(request: pytest.FixtureRequest) -> RunAgent:
    """Run an agent with ``model`` and ``servers`` through ``Runner.run`` or ``run_streamed``."""
    streamed = request.param == "run_streamed"

    async def run(
        model: ScriptedModel,
        servers: Sequence[MCPServer],
        prompt: Any = "Go.",
        **agent_options: Any,
    ) -> RunResult | RunResultStreaming:
        agent = Agent(name="Desk", model=model, mcp_servers=list(servers), **agent_options)
        config = RunConfig(tracing_disabled=True)
        if not streamed:
            return await Runner.run(agent, prompt, run_config=config)
        result = Runner.run_streamed(agent, prompt, run_config=config)
        async for _ in result.stream_events():
            pass
        return result

    return run


def tool_outputs(model: ScriptedModel) -> list[Any]:
    """The tool outputs the runner sent the model on its last call, in order."""
    assert model.last_call is not None
    items = model.last_call.input
    assert isinstance(items, list)
    found: list[Any] = []
    for item in items:
        plain: dict[str, Any] = dict(item) if isinstance(item, dict) else {}
        if plain.get("type") == "function_call_output":
            found.append(plain["output"])
    return found
