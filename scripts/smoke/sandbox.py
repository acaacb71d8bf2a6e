"""Smoke test of an installed agents-testing-sandbox: a ``SandboxAgent`` run whose shell
command is answered by the scripted session."""

from __future__ import annotations

import asyncio

from agents import RunConfig, Runner
from agents.run_config import SandboxRunConfig
from agents.sandbox import ExecResult, SandboxAgent
from agents.sandbox.capabilities import Shell
from agents.testing import (
    ScriptedModel,
    assistant_message,
    function_call,
    scripted_sandbox_session,
)


async def main() -> None:
    pwd = ExecResult(stdout=b"/workspace\n", stderr=b"", exit_code=0)
    sandbox = scripted_sandbox_session([{"method": "exec", "result": pwd}])
    model = ScriptedModel(
        [
            [function_call("exec_command", {"cmd": "pwd"}, call_id="call_1")],
            [assistant_message("The workspace is /workspace.")],
        ]
    )
    agent = SandboxAgent(name="Workspace", model=model, capabilities=[Shell()])

    async with sandbox:
        config = RunConfig(sandbox=SandboxRunConfig(session=sandbox), tracing_disabled=True)
        result = await Runner.run(agent, "Where are you?", run_config=config)

    assert result.final_output == "The workspace is /workspace.", result.final_output
    assert [call.method for call in sandbox.calls] == ["exec"], sandbox.calls
    sandbox.assert_complete()
    model.assert_complete()

    import agents_testing.sandbox

    print(f"sandbox smoke passed from {agents_testing.sandbox.__file__}")


asyncio.run(main())
