"""Which methods a scripted session offers: only the scripted ones, the PTY pair together,
and none of the lifecycle operations a script cannot serve."""

from __future__ import annotations

import io
import pickle
from pathlib import Path
from typing import Any

import pytest
from agents import UserError
from agents.sandbox import ExecResult
from agents.sandbox.capabilities import Shell
from agents.sandbox.session.pty_types import PtyExecUpdate

from agents_testing.core import compat
from agents_testing.model import ScriptedModel, assistant_message, function_call
from agents_testing.sandbox import (
    SandboxMethodUnavailable,
    SandboxScriptError,
    SandboxStepSpec,
    scripted_sandbox_session,
)

OK = ExecResult(stdout=b"ok\n", stderr=b"", exit_code=0)
UPDATE = PtyExecUpdate(process_id=5, output=b"$ ", exit_code=None, original_token_count=None)
DONE = PtyExecUpdate(process_id=None, output=b"bye\n", exit_code=0, original_token_count=None)

STEPS: dict[str, SandboxStepSpec] = {
    "apply_patch": {"method": "apply_patch", "result": "Done"},
    "exec": {"method": "exec", "result": OK},
    "ls": {"method": "ls", "result": []},
    "mkdir": {"method": "mkdir", "result": None},
    "pty_exec_start": {"method": "pty_exec_start", "result": UPDATE},
    "pty_write_stdin": {"method": "pty_write_stdin", "result": UPDATE},
    "read": {"method": "read", "result": io.BytesIO(b"x")},
    "rm": {"method": "rm", "result": None},
    "write": {"method": "write", "result": None},
}
if compat.sdk_at_least(0, 23, 1):
    STEPS["mv"] = {"method": "mv", "result": None}
    STEPS["same_file"] = {"method": "same_file", "result": True}

PTY = {"pty_exec_start", "pty_write_stdin"}
# Operations a script cannot serve: never offered, whatever the steps.
NEVER = ("pty_terminate_all", "persist_workspace", "hydrate_workspace", "extract")


@pytest.mark.parametrize("method", sorted(STEPS))
def test_only_the_scripted_methods_exist_on_the_session(method: str) -> None:
    sandbox = scripted_sandbox_session([STEPS[method]])
    offered = PTY if method in PTY else {method}

    for name in STEPS:
        assert hasattr(sandbox, name) is (name in offered), name
        assert (name in dir(sandbox)) is (name in offered), name
    for name in NEVER:
        assert not hasattr(sandbox, name)
        assert name not in dir(sandbox)
    # The session's own surface is always there.
    for name in ("calls", "pending_steps", "remaining_steps", "assert_complete", "supports_pty"):
        assert hasattr(sandbox, name)
        assert name in dir(sandbox)


def test_an_absent_method_is_an_attribute_error_of_the_boundary() -> None:
    sandbox = scripted_sandbox_session([STEPS["exec"]])
    with pytest.raises(SandboxMethodUnavailable) as raised:
        sandbox.read  # noqa: B018
    error = raised.value
    assert isinstance(error, AttributeError)
    assert isinstance(error, SandboxScriptError)
    assert (error.method, error.needed_method, error.name) == ("read", "read", "read")
    assert "no step scripts read" in str(error)
    with pytest.raises(SandboxMethodUnavailable) as never:
        sandbox.pty_terminate_all  # noqa: B018
    assert (never.value.method, never.value.needed_method) == ("pty_terminate_all", None)
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.method, copy.needed_method, str(copy)) == ("read", "read", str(error))


@pytest.mark.asyncio
async def test_an_sdk_tool_reaching_an_unscripted_method_fails_the_run_clearly(
    run_sandbox: Any,
) -> None:
    sandbox = scripted_sandbox_session([STEPS["read"]])
    model = ScriptedModel(
        [
            [function_call("exec_command", {"cmd": "pwd"}, call_id="c1")],
            [assistant_message("unreachable")],
        ]
    )
    async with sandbox:
        with pytest.raises(UserError) as raised:
            await run_sandbox(sandbox, model, [Shell()])

    cause = raised.value.__cause__
    assert isinstance(cause, SandboxMethodUnavailable)
    assert cause.method == "exec"
    assert sandbox.calls == ()
    assert sandbox.remaining_steps == 1


@pytest.mark.asyncio
async def test_a_pty_run_cleans_up_without_terminating_anything(
    run_sandbox: Any, tool_outputs: Any
) -> None:
    sandbox = scripted_sandbox_session(
        [
            {"method": "pty_exec_start", "result": UPDATE},
            {"method": "pty_write_stdin", "result": DONE},
        ]
    )
    model = ScriptedModel(
        [
            [function_call("exec_command", {"cmd": "sh", "tty": True}, call_id="c1")],
            [function_call("write_stdin", {"session_id": 5, "chars": "exit\n"}, call_id="c2")],
            [assistant_message("closed")],
        ]
    )
    async with sandbox:
        assert sandbox.supports_pty()
        result = await run_sandbox(sandbox, model, [Shell()])
    assert await sandbox.running() is False

    assert result.final_output == "closed"
    assert tool_outputs(model)[-1].endswith("bye\n")
    assert not hasattr(sandbox, "pty_terminate_all")
    assert [call.method for call in sandbox.calls] == ["pty_exec_start", "pty_write_stdin"]
    sandbox.assert_complete()


@pytest.mark.skipif(
    not compat.sdk_at_least(0, 23, 1), reason="read_bounded is a session operation from 0.23.1"
)
@pytest.mark.asyncio
async def test_read_bounded_exists_only_with_a_read_step() -> None:
    assert not hasattr(scripted_sandbox_session([STEPS["exec"]]), "read_bounded")
    sandbox = scripted_sandbox_session([{"method": "read", "result": io.BytesIO(b"0123456789")}])
    assert "read_bounded" in dir(sandbox)
    async with sandbox:
        assert await sandbox.read_bounded(Path("log.txt"), max_bytes=3) == b"012"
    sandbox.assert_complete()
