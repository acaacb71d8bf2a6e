"""The session's lifecycle around real runs, and step order under concurrent tool calls."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from agents import UserError
from agents.sandbox import ExecResult
from agents.sandbox.capabilities import Shell

from agents_testing.model import ScriptedModel, assistant_message, function_call
from agents_testing.sandbox import (
    SandboxCall,
    SandboxCallMatcherError,
    UnconsumedSandboxSteps,
    scripted_sandbox_session,
)


def _result(text: str) -> ExecResult:
    return ExecResult(stdout=text.encode(), stderr=b"", exit_code=0)


@pytest.mark.asyncio
async def test_async_with_starts_and_stops_the_session(run_sandbox: Any) -> None:
    sandbox = scripted_sandbox_session([{"method": "exec", "result": _result("/workspace")}])
    model = ScriptedModel(
        [
            [function_call("exec_command", {"cmd": "pwd"}, call_id="c1")],
            [assistant_message("done")],
        ]
    )
    assert await sandbox.running() is False
    async with sandbox as entered:
        assert entered is sandbox
        assert await sandbox.running() is True
        await run_sandbox(sandbox, model, [Shell()])
        # The runner does not own a session it was given, so it leaves it running.
        assert await sandbox.running() is True
    assert await sandbox.running() is False
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_the_session_stops_cleanly_when_the_run_raises(run_sandbox: Any) -> None:
    sandbox = scripted_sandbox_session([{"method": "exec", "error": RuntimeError("disk full")}])
    model = ScriptedModel([[function_call("exec_command", {"cmd": "df"}, call_id="c1")]])

    with pytest.raises(UserError) as raised:
        async with sandbox:
            await run_sandbox(sandbox, model, [Shell()])

    assert isinstance(raised.value.__cause__, RuntimeError)
    assert await sandbox.running() is False
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_the_session_serves_a_second_run_in_the_same_context(run_sandbox: Any) -> None:
    sandbox = scripted_sandbox_session(
        [
            {"method": "exec", "result": _result("one")},
            {"method": "exec", "result": _result("two")},
        ]
    )
    first = ScriptedModel(
        [
            [function_call("exec_command", {"cmd": "echo one"}, call_id="c1")],
            [assistant_message("first done")],
        ]
    )
    second = ScriptedModel(
        [
            [function_call("exec_command", {"cmd": "echo two"}, call_id="c1")],
            [assistant_message("second done")],
        ]
    )
    async with sandbox:
        one = await run_sandbox(sandbox, first, [Shell()])
        two = await run_sandbox(sandbox, second, [Shell()])

    assert (one.final_output, two.final_output) == ("first done", "second done")
    assert "two" in str(second.last_call.input)  # type: ignore[union-attr]
    assert [(call.call_index, call.args) for call in sandbox.calls] == [
        (0, ("echo one",)),
        (1, ("echo two",)),
    ]
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_the_runner_starts_a_session_that_was_not_entered(run_sandbox: Any) -> None:
    sandbox = scripted_sandbox_session([{"method": "exec", "result": _result("x")}])
    model = ScriptedModel(
        [
            [function_call("exec_command", {"cmd": "true"}, call_id="c1")],
            [assistant_message("done")],
        ]
    )
    assert sandbox.state.workspace_root_ready is False
    try:
        await run_sandbox(sandbox, model, [Shell()])
        assert await sandbox.running() is True
        # Started by the runner, the workspace root is ready, as for a real provider.
        assert sandbox.state.workspace_root_ready is True
    finally:
        await sandbox.aclose()
    assert await sandbox.running() is False
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_concurrent_tool_calls_consume_steps_in_response_order(run_sandbox: Any) -> None:
    third_answered = asyncio.Event()

    async def slow(call: SandboxCall) -> ExecResult:
        # Finishes last, yet its step is consumed first: order follows the calls. (The
        # bound only keeps a runner that ran tools one by one from hanging the test.)
        await asyncio.wait_for(third_answered.wait(), 30)
        return _result("slow")

    def third(call: SandboxCall) -> ExecResult:
        third_answered.set()
        return _result("3")

    sandbox = scripted_sandbox_session(
        [
            {"method": "exec", "match": lambda call: call.args == ("first",), "responder": slow},
            {
                "method": "exec",
                "match": lambda call: call.args == ("second",),
                "result": _result("fast"),
            },
            {
                "method": "exec",
                "match": lambda call: call.args == ("third",),
                "responder": third,
            },
        ]
    )
    model = ScriptedModel(
        [
            [
                function_call("exec_command", {"cmd": "first"}, call_id="c1"),
                function_call("exec_command", {"cmd": "second"}, call_id="c2"),
                function_call("exec_command", {"cmd": "third"}, call_id="c3"),
            ],
            [assistant_message("done")],
        ]
    )
    async with sandbox:
        await run_sandbox(sandbox, model, [Shell()])

    assert [call.args for call in sandbox.calls] == [("first",), ("second",), ("third",)]
    outputs = [
        item["output"]  # type: ignore[typeddict-item]
        for item in model.last_call.input  # type: ignore[union-attr]
        if isinstance(item, dict) and item.get("type") == "function_call_output"
    ]
    assert [output.rsplit("\n", 1)[-1] for output in outputs] == ["slow", "fast", "3"]  # type: ignore[union-attr]
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_concurrent_calls_in_the_wrong_order_are_reported(run_sandbox: Any) -> None:
    sandbox = scripted_sandbox_session(
        [
            {"method": "exec", "match": lambda call: call.args == ("b",), "result": _result("b")},
            {"method": "exec", "match": lambda call: call.args == ("a",), "result": _result("a")},
        ]
    )
    model = ScriptedModel(
        [
            [
                function_call("exec_command", {"cmd": "a"}, call_id="c1"),
                function_call("exec_command", {"cmd": "b"}, call_id="c2"),
            ],
        ]
    )
    async with sandbox:
        with pytest.raises(UserError) as raised:
            await run_sandbox(sandbox, model, [Shell()])

    error = raised.value.__cause__
    assert isinstance(error, SandboxCallMatcherError)
    assert (error.call_index, error.call.args) == (0, ("a",))
    # The call that came second took the step its matcher accepts; the other is left.
    with pytest.raises(UnconsumedSandboxSteps) as left:
        sandbox.assert_complete()
    assert left.value.remaining_steps == 1


@pytest.mark.asyncio
async def test_starting_the_session_makes_its_workspace_root_ready() -> None:
    sandbox = scripted_sandbox_session()
    assert sandbox.state.workspace_root_ready is False
    async with sandbox:
        assert sandbox.state.workspace_root_ready is True
    sandbox.assert_complete()


def test_the_no_op_snapshot_has_the_fixed_id_scripted() -> None:
    first, second = scripted_sandbox_session(), scripted_sandbox_session(extra_checks=True)
    assert first.state.snapshot.id == second.state.snapshot.id == "scripted"
