"""Results a step returns: any value, handed back as scripted; with ``extra_checks`` checked
field by field when scripted."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import pytest
from agents import UserError
from agents.sandbox import ExecResult
from agents.sandbox.capabilities import Filesystem, Shell
from agents.sandbox.session.pty_types import PtyExecUpdate
from openai.types.responses import ResponseCustomToolCall

from agents_testing.core import compat
from agents_testing.model import ScriptedModel, assistant_message, function_call
from agents_testing.sandbox import (
    InvalidSandboxStep,
    SandboxCall,
    SandboxStepSpec,
    scripted_sandbox_session,
)


def _exec_result(**fields: Any) -> ExecResult:
    values: dict[str, Any] = {"stdout": b"", "stderr": b"", "exit_code": 0, **fields}
    return ExecResult(**values)


def _update(**fields: Any) -> PtyExecUpdate:
    values: dict[str, Any] = {
        "process_id": 1,
        "output": b"",
        "exit_code": None,
        "original_token_count": None,
        **fields,
    }
    return PtyExecUpdate(**values)


MALFORMED = [
    ("exec", _exec_result(stdout=None), "field 'stdout' must be bytes, got NoneType"),
    ("exec", _exec_result(stderr="text"), "field 'stderr' must be bytes, got str"),
    ("exec", _exec_result(exit_code="0"), "field 'exit_code' must be an int, got str"),
    ("exec", _exec_result(exit_code=True), "field 'exit_code' must be an int, got bool"),
    ("exec", _exec_result(exit_code=None), "field 'exit_code' must be an int, got NoneType"),
    ("pty_exec_start", _update(output=None), "field 'output' must be bytes, got NoneType"),
    ("pty_exec_start", _update(process_id="7"), "field 'process_id' must be an int or None"),
    ("pty_write_stdin", _update(exit_code=1.5), "field 'exit_code' must be an int or None"),
    (
        "pty_write_stdin",
        _update(original_token_count=[1]),
        "field 'original_token_count' must be an int or None",
    ),
]


@pytest.mark.parametrize(("method", "result", "message"), MALFORMED)
def test_a_result_with_a_wrong_field_is_refused_naming_the_field(
    method: str, result: Any, message: str
) -> None:
    with pytest.raises(InvalidSandboxStep) as raised:
        scripted_sandbox_session([{"method": method, "result": result}], extra_checks=True)
    assert (raised.value.reason, raised.value.input_index, raised.value.method) == (
        "invalid_outcome",
        0,
        method,
    )
    assert message in str(raised.value)


@pytest.mark.parametrize(("method", "result", "message"), MALFORMED)
@pytest.mark.asyncio
async def test_a_bare_session_hands_back_a_result_with_any_fields(
    method: str, result: Any, message: str
) -> None:
    sandbox = scripted_sandbox_session([{"method": method, "result": result}])
    async with sandbox:
        if method == "pty_write_stdin":
            served = await sandbox.pty_write_stdin(session_id=1, chars="x")
        else:
            served = await getattr(sandbox, method)("sh")
    assert type(served) is type(result)
    assert vars(served) == vars(result)
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_a_responder_result_with_a_wrong_field_fails_the_call_naming_the_field(
    run_sandbox: Any,
) -> None:
    sandbox = scripted_sandbox_session(
        [{"method": "exec", "responder": lambda call: _exec_result(stdout=None)}],
        extra_checks=True,
    )
    model = ScriptedModel(
        [
            [function_call("exec_command", {"cmd": "pwd"}, call_id="c1")],
            [assistant_message("unreachable")],
        ]
    )
    async with sandbox:
        with pytest.raises(UserError) as raised:
            await run_sandbox(sandbox, model, [Shell()])

    error = raised.value.__cause__
    assert isinstance(error, InvalidSandboxStep)
    assert (error.reason, error.input_index, error.method) == ("invalid_outcome", 0, "exec")
    assert "field 'stdout' must be bytes" in str(error)
    with pytest.raises(InvalidSandboxStep):
        sandbox.assert_complete()


@pytest.mark.asyncio
async def test_a_step_for_a_method_returning_none_may_leave_the_result_out(
    run_sandbox: Any, tool_outputs: Any
) -> None:
    sandbox = scripted_sandbox_session([{"method": "mkdir"}, {"method": "write"}])
    patch = "*** Begin Patch\n*** Add File: notes.md\n+hello\n*** End Patch\n"
    model = ScriptedModel(
        [
            [
                ResponseCustomToolCall(
                    type="custom_tool_call", call_id="p1", name="apply_patch", input=patch
                )
            ],
            [assistant_message("created")],
        ]
    )
    assert sandbox.pending_steps == (
        {"method": "mkdir", "result": None},
        {"method": "write", "result": None},
    )
    async with sandbox:
        await run_sandbox(sandbox, model, [Filesystem()])

    assert tool_outputs(model) == ["Created notes.md"]
    sandbox.assert_complete()


@pytest.mark.parametrize(
    "method", ["pty_exec_start", "pty_write_stdin", "exec", "read", "ls", "apply_patch"]
)
def test_a_step_for_a_method_returning_a_value_needs_an_outcome(method: str) -> None:
    # pty_exec_start and pty_write_stdin return a PtyExecUpdate, never None.
    with pytest.raises(InvalidSandboxStep) as raised:
        scripted_sandbox_session([{"method": method}])
    assert (raised.value.reason, raised.value.method) == ("invalid_outcome", method)
    assert "found: none" in str(raised.value)


@pytest.mark.parametrize("method", ["pty_exec_start", "pty_write_stdin"])
def test_a_pty_result_of_none_is_refused_with_extra_checks(method: str) -> None:
    with pytest.raises(InvalidSandboxStep) as raised:
        scripted_sandbox_session([{"method": method, "result": None}], extra_checks=True)
    assert "returns a PtyExecUpdate, got NoneType" in str(raised.value)


PLACEHOLDER_CALLS: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {
    "read": ((Path("a.png"),), {}),
    "pty_exec_start": (("sh",), {}),
    "pty_write_stdin": ((), {"session_id": 1, "chars": "x"}),
    "exec": (("pwd",), {}),
    "ls": ((".",), {}),
    "apply_patch": (([],), {}),
    "same_file": (("a", "b"), {}),
}


@pytest.mark.parametrize("method", sorted(PLACEHOLDER_CALLS))
@pytest.mark.asyncio
async def test_a_bare_session_takes_none_as_a_placeholder_result(method: str) -> None:
    if method == "same_file" and not compat.sdk_at_least(0, 23, 1):
        pytest.skip("sandbox sessions have same_file from 0.23.1")
    sandbox = scripted_sandbox_session([{"method": method, "result": None}])
    assert sandbox.pending_steps == ({"method": method, "result": None},)
    args, kwargs = PLACEHOLDER_CALLS[method]
    async with sandbox:
        assert await getattr(sandbox, method)(*args, **kwargs) is None
    sandbox.assert_complete()


def test_scripting_a_pty_method_with_a_placeholder_offers_the_interactive_shell() -> None:
    assert scripted_sandbox_session([{"method": "pty_exec_start", "result": None}]).supports_pty()
    sandbox = scripted_sandbox_session([{"method": "pty_write_stdin", "result": None}])
    assert sandbox.supports_pty()
    assert hasattr(sandbox, "pty_exec_start")


@pytest.mark.asyncio
async def test_a_placeholder_result_reaches_the_sdk_as_scripted_through_a_run(
    run_sandbox: Any,
) -> None:
    """Shows SBX-1."""
    sandbox = scripted_sandbox_session([{"method": "read", "result": None}])
    model = ScriptedModel(
        [
            [function_call("view_image", {"path": "chart.png"}, call_id="c1")],
            [assistant_message("unreachable")],
        ]
    )
    async with sandbox:
        with pytest.raises(UserError) as raised:
            await run_sandbox(sandbox, model, [Filesystem()])

    # The image viewer got the scripted None and failed on it, not the script.
    assert isinstance(raised.value.__cause__, AttributeError)
    assert "'NoneType' object has no attribute 'read'" in str(raised.value.__cause__)
    assert [call.method for call in sandbox.calls] == ["read"]
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_static_pty_results_are_snapshotted_and_copied_on_every_use() -> None:
    update = _update(output=b"before")
    sandbox = scripted_sandbox_session([{"method": "pty_exec_start", "result": update}])
    object.__setattr__(update, "output", b"after")  # frozen, but not immune
    [pending] = sandbox.pending_steps
    object.__setattr__(pending["result"], "output", b"changed through pending_steps")

    async with sandbox:
        served = await sandbox.pty_exec_start("sh")
    assert served.output == b"before"
    assert served is not update
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_a_handed_out_exec_result_is_the_callers_own() -> None:
    step: SandboxStepSpec = {"method": "exec", "result": _exec_result(stdout=b"one")}
    sandbox = scripted_sandbox_session([step, step])
    async with sandbox:
        first = await sandbox.exec("a")
        first.stdout = b"changed"
        second = await sandbox.exec("b")
    assert second.stdout == b"one"
    sandbox.assert_complete()


async def _inner() -> ExecResult:
    return _exec_result()


async def _respond_with_an_awaitable(call: SandboxCall) -> Any:
    return _inner()


@pytest.mark.asyncio
async def test_a_responder_awaitable_resolving_to_another_awaitable_is_refused() -> None:
    sandbox = scripted_sandbox_session(
        [{"method": "exec", "responder": _respond_with_an_awaitable}], extra_checks=True
    )
    async with sandbox:
        with pytest.raises(InvalidSandboxStep) as raised:
            await sandbox.exec("a")
    assert "not to another awaitable" in str(raised.value)


@pytest.mark.asyncio
async def test_a_bare_session_hands_back_what_a_responders_awaitable_resolves_to() -> None:
    sandbox = scripted_sandbox_session(
        [{"method": "exec", "responder": _respond_with_an_awaitable}]
    )
    async with sandbox:
        served = await sandbox.exec("a")
    assert inspect.iscoroutine(served)
    assert (await served).exit_code == 0
    sandbox.assert_complete()


def _looped() -> dict[str, Any]:
    looped: dict[str, Any] = {"k": 1}
    looped["self"] = looped
    return looped


@pytest.mark.parametrize("extra_checks", [False, True], ids=["bare", "extra-checks"])
@pytest.mark.parametrize("method", ["exec", "ls", "read", "apply_patch"])
def test_a_result_that_contains_itself_is_refused_when_the_script_is_built(
    method: str, extra_checks: bool
) -> None:
    """The SDK's own double never finishes copying such a result (it recurses until
    ``RecursionError``); ours refuses it where it was scripted, naming the cycle."""
    with pytest.raises(InvalidSandboxStep) as raised:
        scripted_sandbox_session(
            [{"method": method, "result": [_looped()]}], extra_checks=extra_checks
        )

    error = raised.value
    assert (error.reason, error.input_index, error.method) == ("invalid_outcome", 0, method)
    assert str(error) == (
        f"Scripted sandbox step #1 for {method} contains a result that cannot be "
        "snapshotted. result[0]['self'] refers back to result[0], so the value contains "
        "itself (a cycle)."
    )
