"""Fixtures for the sandbox boundary: drive a real SandboxAgent run over a scripted session."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import pytest
from agents import RunConfig, Runner, RunResult
from agents.run_config import SandboxRunConfig
from agents.sandbox import SandboxAgent
from agents.sandbox.capabilities import Capability

from agents_testing.model import ScriptedModel
from agents_testing.sandbox import ScriptedSandboxSession

RunSandbox = Callable[..., Awaitable[RunResult]]


@pytest.fixture
def run_sandbox() -> RunSandbox:
    """Run a SandboxAgent with ``model`` and ``capabilities`` against a started ``sandbox``."""

    async def run(
        sandbox: ScriptedSandboxSession,
        model: ScriptedModel,
        capabilities: Sequence[Capability],
        prompt: str = "Go.",
        **agent_options: Any,
    ) -> RunResult:
        agent = SandboxAgent(
            name="Sandbox assistant",
            model=model,
            capabilities=list(capabilities),
            **agent_options,
        )
        return await Runner.run(
            agent,
            prompt,
            run_config=RunConfig(
                sandbox=SandboxRunConfig(session=sandbox),
                tracing_disabled=True,
            ),
        )

    return run


def _tool_outputs(model: ScriptedModel) -> list[Any]:
    """The tool outputs the runner sent to the model on its last call, in order."""
    last = model.last_call
    assert last is not None
    assert isinstance(last.input, list)
    return [
        item["output"]  # type: ignore[typeddict-item]
        for item in last.input
        if isinstance(item, dict) and str(item.get("type", "")).endswith("_call_output")
    ]


def _tool_names(model: ScriptedModel, call: int = 0) -> list[str]:
    """The names of the tools offered to the model on call ``call``, sorted."""
    return sorted(tool.name for tool in model.calls[call].tools)


@pytest.fixture
def tool_outputs() -> Callable[[ScriptedModel], list[Any]]:
    """The tool outputs the runner sent to the model on its last call, in order."""
    return _tool_outputs


@pytest.fixture
def tool_names() -> Callable[..., list[str]]:
    """The names of the tools offered to the model on a call, sorted."""
    return _tool_names
