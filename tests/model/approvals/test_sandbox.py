"""A sandbox shell tool made to ask for approval is decided like any other tool."""

from __future__ import annotations

from typing import Any

import pytest
from agents import RunConfig
from agents.run_config import SandboxRunConfig
from agents.sandbox import ExecResult, SandboxAgent
from agents.sandbox.capabilities import Shell

from agents_testing.model import (
    ScriptedModel,
    approve,
    assistant_message,
    function_call,
    reject,
    run_with_approvals,
)
from agents_testing.sandbox import scripted_sandbox_session


def ask_before_running(toolset: Any) -> None:
    toolset.exec_command.needs_approval = True


@pytest.mark.asyncio
async def test_only_the_approved_shell_command_reaches_the_sandbox(streamed: bool) -> None:
    sandbox = scripted_sandbox_session(
        [
            {
                "method": "exec",
                "match": lambda call: "ls" in str(call.args),
                "result": ExecResult(stdout=b"itinerary.md\n", stderr=b"", exit_code=0),
            }
        ]
    )
    model = ScriptedModel(
        [
            [
                function_call("exec_command", {"cmd": "rm -rf /workspace"}, call_id="c1"),
                function_call("exec_command", {"cmd": "ls"}, call_id="c2"),
            ],
            [assistant_message("The workspace holds itinerary.md.")],
        ]
    )
    agent = SandboxAgent(
        name="Workspace", model=model, capabilities=[Shell(configure_tools=ask_before_running)]
    )

    async with sandbox:
        run = await run_with_approvals(
            agent,
            "What is in the workspace?",
            decide=[
                reject("exec_command", when={"cmd": "rm -rf /workspace"}, message="Not allowed."),
                approve("exec_command"),
            ],
            round_trip=True,
            streamed=streamed,
            run_config=RunConfig(sandbox=SandboxRunConfig(session=sandbox), tracing_disabled=True),
        )

    assert run.final_output == "The workspace holds itinerary.md."
    assert [call.method for call in sandbox.calls] == ["exec"]
    run.assert_not_run(call_id="c1")
    run.assert_ran_once(call_id="c2")
    sandbox.assert_complete()
