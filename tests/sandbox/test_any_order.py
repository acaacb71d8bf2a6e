"""``any_order`` groups of sandbox steps: parallel sandbox operations from a SandboxAgent run."""

from __future__ import annotations

import io
import pickle
from pathlib import Path
from typing import Any

import pytest
from agents import RunConfig, Runner, UserError
from agents.run_config import SandboxRunConfig
from agents.sandbox import ExecResult, SandboxAgent
from agents.sandbox.capabilities import Shell

from agents_testing.model import ScriptedModel, assistant_message, function_call
from agents_testing.sandbox import (
    InvalidSandboxStep,
    SandboxCallMatcherError,
    UnconsumedSandboxSteps,
    UnexpectedSandboxCall,
    any_order,
    scripted_sandbox_session,
)


def _out(text: str) -> ExecResult:
    return ExecResult(stdout=text.encode() + b"\n", stderr=b"", exit_code=0)


def _command(expected: str) -> Any:
    return lambda call: call.args == (expected,)


def _parallel_model(*commands: str) -> ScriptedModel:
    # One response with several tool calls: the runner runs them concurrently.
    calls = [function_call("exec_command", {"cmd": cmd}, call_id=cmd) for cmd in commands]
    return ScriptedModel([calls, [assistant_message("done")]])


async def _run(sandbox: Any, model: ScriptedModel, *, streamed: bool) -> Any:
    agent = SandboxAgent(name="Workspace assistant", model=model, capabilities=[Shell()])
    config = RunConfig(sandbox=SandboxRunConfig(session=sandbox), tracing_disabled=True)
    if not streamed:
        return await Runner.run(agent, "Look around.", run_config=config)
    result = Runner.run_streamed(agent, "Look around.", run_config=config)
    async for _ in result.stream_events():
        pass
    return result


def _outputs(model: ScriptedModel) -> dict[str, str]:
    last = model.last_call
    assert last is not None
    return {key: str(value) for key, value in last.tool_outputs().items()}


@pytest.mark.parametrize("streamed", [False, True], ids=["run", "run_streamed"])
@pytest.mark.asyncio
async def test_parallel_exec_calls_are_answered_by_their_matchers(streamed: bool) -> None:
    # Scripted in the opposite order of the tool calls: the group does not care.
    sandbox = scripted_sandbox_session(
        [
            any_order(
                {"method": "exec", "match": _command("whoami"), "result": _out("dev")},
                {"method": "exec", "match": _command("pwd"), "result": _out("/workspace")},
            )
        ]
    )
    model = _parallel_model("pwd", "whoami")

    async with sandbox:
        result = await _run(sandbox, model, streamed=streamed)

    assert result.final_output == "done"
    assert [call.args for call in sandbox.calls] == [("pwd",), ("whoami",)]
    outputs = _outputs(model)
    assert "/workspace" in outputs["pwd"]
    assert "dev" not in outputs["pwd"]
    assert "dev" in outputs["whoami"]
    assert "/workspace" not in outputs["whoami"]
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_a_strict_script_would_give_the_parallel_calls_the_wrong_results() -> None:
    # The same steps without the group: the first exec step rejects the first call.
    sandbox = scripted_sandbox_session(
        [
            {"method": "exec", "match": _command("whoami"), "result": _out("dev")},
            {"method": "exec", "match": _command("pwd"), "result": _out("/workspace")},
        ]
    )

    async with sandbox:
        with pytest.raises(UserError) as raised:
            await _run(sandbox, _parallel_model("pwd", "whoami"), streamed=False)

    assert isinstance(raised.value.__cause__, SandboxCallMatcherError)


@pytest.mark.asyncio
async def test_a_group_can_mix_methods_and_the_script_continues_after_it() -> None:
    sandbox = scripted_sandbox_session(
        [
            any_order(
                {"method": "read", "result": io.BytesIO(b"notes")},
                {"method": "exec", "result": _out("a")},
            ),
            {"method": "exec", "result": _out("b")},
        ]
    )

    async with sandbox:
        first = await sandbox.exec("ls")
        # The group still holds the read: the script does not move on before it is used.
        with pytest.raises(UnexpectedSandboxCall) as info:
            await sandbox.exec("ls")
        read = await sandbox.read(Path("notes.txt"))
        second = await sandbox.exec("ls")

    assert (first.stdout, read.read(), second.stdout) == (b"a\n", b"notes", b"b\n")
    assert info.value.group_methods == ("read",)
    assert [call.method for call in sandbox.calls] == ["exec", "exec", "read", "exec"]
    # Every step was used: the unexpected call in between leaves nothing behind.
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_a_call_no_pending_member_scripts_is_unexpected() -> None:
    sandbox = scripted_sandbox_session(
        [
            any_order(
                {"method": "read", "result": io.BytesIO(b"notes")},
                {"method": "write"},
            ),
            {"method": "exec", "result": _out("b")},
        ]
    )

    async with sandbox:
        with pytest.raises(UnexpectedSandboxCall) as info:
            await sandbox.exec("ls")

    assert str(info.value) == (
        "Unexpected sandbox exec call #1; the next position is an any_order() group whose "
        "pending members expect read, write. 3 step(s) pending: reorder the steps to match "
        "the workflow, or fix the workflow."
    )
    assert info.value.expected_method == "read"
    assert info.value.group_methods == ("read", "write")
    assert [step["method"] for step in info.value.pending_steps] == ["read", "write", "exec"]


@pytest.mark.asyncio
async def test_every_member_matcher_rejecting_raises_the_matcher_error() -> None:
    sandbox = scripted_sandbox_session(
        [
            any_order(
                {"method": "exec", "match": _command("pwd"), "result": _out("a")},
                {"method": "exec", "match": _command("whoami"), "result": _out("b")},
                {"method": "read", "result": io.BytesIO(b"notes")},
            )
        ]
    )

    async with sandbox:
        with pytest.raises(SandboxCallMatcherError) as info:
            await sandbox.exec("ls")

    assert str(info.value) == (
        "Sandbox matchers of the any_order() group rejected exec call #1 (2 pending exec "
        "member(s)). Fix the matcher or the step order, or inspect the error's call to see "
        "what the workflow sent."
    )
    assert (info.value.method, info.value.group_members) == ("exec", 2)
    assert sandbox.remaining_steps == 3


@pytest.mark.asyncio
async def test_pending_group_members_are_listed_and_reported() -> None:
    sandbox = scripted_sandbox_session(
        [
            any_order(
                {"method": "read", "result": io.BytesIO(b"notes")},
                {"method": "exec", "result": _out("a")},
            ),
            {"method": "write"},
        ]
    )

    async with sandbox:
        await sandbox.exec("ls")

    assert [step["method"] for step in sandbox.pending_steps] == ["read", "write"]
    with pytest.raises(UnconsumedSandboxSteps) as info:
        sandbox.assert_complete()
    assert str(info.value) == (
        "Scripted sandbox session has 2 unconsumed step(s). Pending: read, write. The "
        "workflow ended before reaching them; remove them or find out why the workflow "
        "stopped early."
    )
    assert info.value.pending_methods == ("read", "write")


@pytest.mark.parametrize(
    ("steps", "message", "reason"),
    [
        (
            [{"method": "exec", "result": _out("a")}, any_order()],
            "Scripted sandbox step #2 is invalid: any_order() needs at least one step; "
            "an empty group would match no call, so remove it or give it the steps that may "
            "come in any order.",
            "invalid_group",
        ),
        (
            [any_order({"method": "write"}, any_order({"method": "write"}))],
            "Scripted sandbox step #1 is invalid: any_order() member 2 is itself a "
            "group; groups cannot be nested (a group already accepts its members in any "
            "order), so list the inner steps in the outer group.",
            "invalid_group",
        ),
        (
            [any_order({"method": "write"}, {"method": "teleport"})],
            "Scripted sandbox step #1 has an unknown method. any_order() member 2: "
            "'teleport' is not one; the installed SDK's scriptable methods are ",
            "unknown_method",
        ),
    ],
)
def test_malformed_groups_are_refused_when_the_script_is_built(
    steps: list[Any], message: str, reason: str
) -> None:
    with pytest.raises(InvalidSandboxStep) as info:
        scripted_sandbox_session(steps)

    assert str(info.value).startswith(message)
    if reason != "unknown_method":
        assert str(info.value) == message
    assert info.value.reason == reason


def test_group_members_offer_their_methods() -> None:
    sandbox = scripted_sandbox_session([any_order({"method": "read", "result": b""})])

    assert hasattr(sandbox, "read")
    assert not hasattr(sandbox, "write")


@pytest.mark.asyncio
async def test_group_errors_pickle_with_their_fields() -> None:
    sandbox = scripted_sandbox_session(
        [
            any_order(
                {"method": "read", "result": io.BytesIO(b"notes")},
                {"method": "exec", "match": _never, "result": _out("a")},
            ),
            {"method": "write"},
        ]
    )

    async with sandbox:
        with pytest.raises(UnexpectedSandboxCall) as unexpected:
            await sandbox.write(Path("x"), io.BytesIO(b""))
        with pytest.raises(SandboxCallMatcherError) as rejected:
            await sandbox.exec("ls")

    for error in (unexpected.value, rejected.value):
        copy = pickle.loads(pickle.dumps(error))
        assert str(copy) == str(error)
    assert pickle.loads(pickle.dumps(unexpected.value)).group_methods == ("read", "exec")
    assert pickle.loads(pickle.dumps(rejected.value)).group_members == 1


def _never(call: Any) -> bool:
    return False
