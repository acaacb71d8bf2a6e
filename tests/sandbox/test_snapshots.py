"""``to_snapshot`` of a scripted sandbox session and of a SandboxAgent run."""

from __future__ import annotations

from typing import Any

import pytest
from agents import RunConfig, Runner
from agents.run_config import SandboxRunConfig
from agents.sandbox import ExecResult, SandboxAgent
from agents.sandbox.capabilities import Shell
from agents.testing import (
    ScriptedModel,
    ScriptedSandboxSession,
    assistant_message,
    function_call,
    scripted_sandbox_session,
    to_snapshot,
)


async def _workspace_run(streamed: bool) -> tuple[Any, ScriptedSandboxSession]:
    sandbox = scripted_sandbox_session(
        [
            {
                "method": "exec",
                "result": ExecResult(stdout=b"/workspace\n", stderr=b"", exit_code=0),
            }
        ]
    )
    model = ScriptedModel(
        [
            [function_call("exec_command", {"cmd": "pwd"}, call_id="call_1")],
            [assistant_message("The workspace is /workspace.")],
        ]
    )
    agent = SandboxAgent(name="Workspace", model=model, capabilities=[Shell()])
    config = RunConfig(sandbox=SandboxRunConfig(session=sandbox), tracing_disabled=True)
    async with sandbox:
        if not streamed:
            return await Runner.run(agent, "Where are you?", run_config=config), sandbox
        result = Runner.run_streamed(agent, "Where are you?", run_config=config)
        [event async for event in result.stream_events()]
    return result, sandbox


@pytest.mark.parametrize("streamed", [False, True], ids=["run", "run_streamed"])
@pytest.mark.asyncio
async def test_a_session_snapshot_is_its_calls(streamed: bool) -> None:
    _, sandbox = await _workspace_run(streamed)

    assert to_snapshot(sandbox) == to_snapshot(sandbox.calls)
    assert to_snapshot(sandbox) == [
        {"method": "exec", "args": ["pwd"], "kwargs": {"shell": True, "timeout": 10.0}}
    ]


@pytest.mark.parametrize("streamed", [False, True], ids=["run", "run_streamed"])
@pytest.mark.asyncio
async def test_the_shell_tools_random_chunk_id_and_wall_time_are_normalized(
    streamed: bool,
) -> None:
    first, _ = await _workspace_run(streamed)
    second, _ = await _workspace_run(streamed)

    assert first.new_items[1].raw_item["output"] != second.new_items[1].raw_item["output"]
    assert to_snapshot(first) == to_snapshot(second)
    assert to_snapshot(first)["items"][1] == {
        "type": "tool_output",
        "agent": "Workspace",
        "tool": "exec_command",
        "call_id": "<call_1>",
        "output": "Chunk ID: <chunk_1>\nWall time: <duration> seconds\nProcess exited with "
        "code 0\nOutput:\n/workspace\n",
    }


def test_call_data_snapshots_streams_and_paths() -> None:
    from io import BytesIO
    from pathlib import PurePosixPath

    from agents_testing.sandbox import SandboxCall

    call = SandboxCall(0, "write", (PurePosixPath("notes.txt"), BytesIO(b"hi\n")), {"user": None})

    assert to_snapshot(call) == {
        "method": "write",
        "args": ["notes.txt", {"bytes": "hi\n"}],
        "kwargs": {},
    }
