"""Script violations: unexpected calls, matcher rejections and unused steps, with their fields."""

from __future__ import annotations

import io
import pickle
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest
from agents import UserError
from agents.sandbox import ExecResult
from agents.sandbox.capabilities import Filesystem, Shell

from agents_testing.core import (
    InvalidStepError,
    UnconsumedStepsError,
    UnexpectedCallError,
)
from agents_testing.model import ScriptedModel, assistant_message, function_call
from agents_testing.sandbox import (
    InvalidSandboxStep,
    SandboxCall,
    SandboxCallMatcherError,
    SandboxScriptError,
    UnconsumedSandboxSteps,
    UnexpectedSandboxCall,
    scripted_sandbox_session,
)

OK = ExecResult(stdout=b"ok\n", stderr=b"", exit_code=0)


def _exec_model(*commands: str) -> ScriptedModel:
    turns: list[Any] = [
        [function_call("exec_command", {"cmd": cmd}, call_id=f"c{i}")]
        for i, cmd in enumerate(commands)
    ]
    return ScriptedModel([*turns, [assistant_message("done")]])


@pytest.mark.asyncio
async def test_a_call_after_the_script_ends_is_unexpected(run_sandbox: Any) -> None:
    sandbox = scripted_sandbox_session([{"method": "exec", "result": OK}])
    model = _exec_model("pwd", "whoami")

    async with sandbox:
        with pytest.raises(UserError) as raised:
            await run_sandbox(sandbox, model, [Shell()])

    error = raised.value.__cause__
    assert isinstance(error, UnexpectedSandboxCall)
    assert (error.call_index, error.actual_method, error.expected_method) == (1, "exec", None)
    assert error.call == sandbox.calls[1]
    assert error.call.args == ("whoami",)
    assert (error.remaining_steps, error.pending_steps) == (0, ())
    # Arguments may hold secrets: the message names the method and number only.
    assert str(error).startswith("Unexpected sandbox exec call #2: no scripted steps remain. ")
    assert "whoami" not in str(error)
    # Only steps count: every step was used, so the script is complete.
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_with_extra_checks_assert_complete_raises_the_first_violation_again(
    run_sandbox: Any,
) -> None:
    sandbox = scripted_sandbox_session([{"method": "exec", "result": OK}], extra_checks=True)

    async with sandbox:
        with pytest.raises(UserError) as raised:
            await run_sandbox(sandbox, _exec_model("pwd", "whoami"), [Shell()])

    error = raised.value.__cause__
    assert isinstance(error, UnexpectedSandboxCall)
    with pytest.raises(UnexpectedSandboxCall) as again:
        sandbox.assert_complete()
    assert again.value is error


@pytest.mark.parametrize("extra_checks", [False, True], ids=["bare", "extra-checks"])
@pytest.mark.asyncio
async def test_a_violation_caught_and_retried_correctly_leaves_a_complete_script(
    run_sandbox: Any, extra_checks: bool
) -> None:
    """Shows SBX-4."""

    def expected_only(call: SandboxCall) -> bool:
        return call.args == ("expected",)

    sandbox = scripted_sandbox_session(
        [{"method": "exec", "match": expected_only, "result": OK}], extra_checks=extra_checks
    )
    async with sandbox:
        with pytest.raises(UserError) as raised:
            await run_sandbox(sandbox, _exec_model("secret"), [Shell()])
        assert isinstance(raised.value.__cause__, SandboxCallMatcherError)
        # The retry, made correctly, uses the step the first run left pending.
        result = await run_sandbox(sandbox, _exec_model("expected"), [Shell()])

    assert result.final_output == "done"
    assert [call.args for call in sandbox.calls] == [("secret",), ("expected",)]
    if extra_checks:
        # The safety net: a violation the SDK may have swallowed still fails the test.
        with pytest.raises(SandboxCallMatcherError) as again:
            sandbox.assert_complete()
        assert again.value is raised.value.__cause__
    else:
        sandbox.assert_complete()


class _Refusal(Exception):
    """What a matcher raises for a command it does not expect."""


def _strict_matcher(call: SandboxCall) -> bool:
    if call.args == ("raise",):
        raise _Refusal
    return call.args == ("expected",)


@pytest.mark.parametrize(
    ("wrong_call", "violation"),
    [
        (lambda sandbox: sandbox.exec("reject"), SandboxCallMatcherError),
        (lambda sandbox: sandbox.exec("raise"), _Refusal),
        (lambda sandbox: sandbox.write(Path("out"), io.BytesIO(b"x")), UnexpectedSandboxCall),
    ],
    ids=["matcher-rejects", "matcher-raises", "wrong-method"],
)
@pytest.mark.asyncio
async def test_assert_complete_of_a_bare_session_counts_only_the_steps_left(
    run_sandbox: Any, wrong_call: Any, violation: type[Exception]
) -> None:
    """Shows SBX-4."""
    sandbox = scripted_sandbox_session(
        [
            {"method": "exec", "match": _strict_matcher, "result": OK},
            {"method": "write", "result": None},
        ]
    )
    async with sandbox:
        with pytest.raises(violation):
            await wrong_call(sandbox)
        result = await run_sandbox(sandbox, _exec_model("expected"), [Shell()])
        with pytest.raises(UnconsumedSandboxSteps) as left:
            sandbox.assert_complete()
        assert left.value.pending_methods == ("write",)
        await sandbox.write(Path("out"), io.BytesIO(b"x"))

    assert result.final_output == "done"
    # The violation was caught and the retry used the steps: nothing is left to report.
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_a_wrong_method_is_unexpected_and_leaves_the_step_pending(
    run_sandbox: Any,
) -> None:
    sandbox = scripted_sandbox_session(
        [{"method": "read", "result": io.BytesIO(b"x")}, {"method": "exec", "result": OK}]
    )
    model = _exec_model("cat x")

    async with sandbox:
        with pytest.raises(UserError) as raised:
            await run_sandbox(sandbox, model, [Shell()])

    error = raised.value.__cause__
    assert isinstance(error, UnexpectedSandboxCall)
    assert (error.actual_method, error.expected_method, error.call_index) == ("exec", "read", 0)
    assert error.remaining_steps == 2
    assert [step["method"] for step in error.pending_steps] == ["read", "exec"]
    assert error.pending_steps[0]["result"].read() == b"x"
    assert str(error).startswith("Unexpected sandbox exec call #1; expected read.")
    assert "cat x" not in str(error)
    assert sandbox.remaining_steps == 2
    assert [step["method"] for step in sandbox.pending_steps] == ["read", "exec"]


@pytest.mark.asyncio
async def test_a_matcher_returning_false_raises_and_leaves_the_step_pending(
    run_sandbox: Any,
) -> None:
    def only_ls(call: SandboxCall) -> bool:
        return call.args == ("ls",)

    sandbox = scripted_sandbox_session([{"method": "exec", "match": only_ls, "result": OK}])
    model = _exec_model("rm -rf /")

    async with sandbox:
        with pytest.raises(UserError) as raised:
            await run_sandbox(sandbox, model, [Shell()])

    error = raised.value.__cause__
    assert isinstance(error, SandboxCallMatcherError)
    assert (error.call_index, error.method) == (0, "exec")
    assert error.call.args == ("rm -rf /",)
    assert error.__cause__ is None
    assert str(error).startswith("Sandbox matcher rejected exec call #1.")
    assert "rm -rf" not in str(error)
    [pending] = sandbox.pending_steps
    assert (pending["method"], pending["match"]) == ("exec", only_ls)
    assert pending["result"].stdout == b"ok\n"


@pytest.mark.asyncio
async def test_a_raising_matcher_propagates_its_exception_and_leaves_the_step_pending(
    run_sandbox: Any,
) -> None:
    failure = KeyError("missing")

    def broken(call: SandboxCall) -> bool:
        raise failure

    sandbox = scripted_sandbox_session([{"method": "exec", "match": broken, "result": OK}])
    model = _exec_model("pwd")

    async with sandbox:
        with pytest.raises(UserError) as raised:
            await run_sandbox(sandbox, model, [Shell()])

    # The SDK's tool wraps the matcher's own exception, exactly as it would a provider's.
    assert raised.value.__cause__ is failure
    assert [call.args for call in sandbox.calls] == [("pwd",)]
    assert sandbox.remaining_steps == 1
    # The matcher's exception is not a script violation: what is left is the step.
    with pytest.raises(UnconsumedSandboxSteps):
        sandbox.assert_complete()


@pytest.mark.asyncio
async def test_a_matcher_may_raise_base_exceptions_through_the_session() -> None:
    def interrupt(call: SandboxCall) -> bool:
        raise KeyboardInterrupt

    sandbox = scripted_sandbox_session([{"method": "exec", "match": interrupt, "result": OK}])
    async with sandbox:
        with pytest.raises(KeyboardInterrupt):
            await sandbox.exec("pwd")
    assert sandbox.remaining_steps == 1


@pytest.mark.asyncio
async def test_a_matcher_returning_anything_but_false_accepts(run_sandbox: Any) -> None:
    sandbox = scripted_sandbox_session(
        [
            {"method": "exec", "match": lambda call: None, "result": OK},
            {"method": "exec", "match": lambda call: 0, "result": OK},
        ]
    )
    async with sandbox:
        await run_sandbox(sandbox, _exec_model("a", "b"), [Shell()])
    sandbox.assert_complete()


async def _later(call: SandboxCall) -> bool:
    return False


@pytest.mark.asyncio
async def test_an_async_matcher_result_is_rejected_at_the_call_with_extra_checks() -> None:
    sandbox = scripted_sandbox_session(
        [{"method": "exec", "match": lambda c: _later(c), "result": OK}], extra_checks=True
    )
    async with sandbox:
        with pytest.raises(InvalidSandboxStep, match="returned an awaitable") as raised:
            await sandbox.exec("pwd")
    assert (raised.value.reason, raised.value.input_index) == ("invalid_matcher", 0)
    assert sandbox.remaining_steps == 1


@pytest.mark.asyncio
async def test_a_bare_session_takes_an_awaitable_matcher_result_as_acceptance() -> None:
    # Only False rejects; an awaitable is not False (and is closed, never awaited).
    sandbox = scripted_sandbox_session(
        [{"method": "exec", "match": lambda c: _later(c), "result": OK}]
    )
    async with sandbox:
        assert (await sandbox.exec("pwd")).stdout == b"ok\n"
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_unused_steps_are_reported_with_their_methods(run_sandbox: Any) -> None:
    sandbox = scripted_sandbox_session(
        [
            {"method": "exec", "result": OK},
            {"method": "mkdir", "result": None},
            {"method": "write", "result": None},
        ]
    )
    async with sandbox:
        await run_sandbox(sandbox, _exec_model("pwd"), [Shell()])

    with pytest.raises(UnconsumedSandboxSteps) as raised:
        sandbox.assert_complete()
    assert raised.value.remaining_steps == sandbox.remaining_steps == 2
    assert raised.value.pending_methods == ("mkdir", "write")
    assert (
        raised.value.pending_steps
        == sandbox.pending_steps
        == (
            {"method": "mkdir", "result": None},
            {"method": "write", "result": None},
        )
    )
    assert str(raised.value).startswith(
        "Scripted sandbox session has 2 unconsumed step(s). Pending: mkdir, write. "
    )


@pytest.mark.asyncio
async def test_with_extra_checks_assert_complete_raises_a_violation_the_sdk_turned_into_output(
    run_sandbox: Any,
) -> None:
    sandbox = scripted_sandbox_session(
        [{"method": "write", "result": None}, {"method": "read", "result": io.BytesIO(b"\x89PNG")}],
        extra_checks=True,
    )
    model = ScriptedModel(
        [
            [function_call("view_image", {"path": "a.png"}, call_id="c1")],
            [assistant_message("I could not see it")],
        ]
    )
    async with sandbox:
        result = await run_sandbox(sandbox, model, [Filesystem()])

    assert result.final_output == "I could not see it"
    assert "UnexpectedSandboxCall" in str(model.last_call.input)  # type: ignore[union-attr]
    with pytest.raises(UnexpectedSandboxCall) as raised:
        sandbox.assert_complete()
    assert (raised.value.actual_method, raised.value.expected_method) == ("read", "write")


def test_errors_inherit_the_boundary_base_and_the_core_kinds() -> None:
    assert issubclass(InvalidSandboxStep, SandboxScriptError)
    assert issubclass(InvalidSandboxStep, InvalidStepError)
    assert issubclass(UnexpectedSandboxCall, UnexpectedCallError)
    assert issubclass(SandboxCallMatcherError, UnexpectedCallError)
    assert issubclass(UnconsumedSandboxSteps, UnconsumedStepsError)
    assert all(
        issubclass(cls, SandboxScriptError)
        for cls in (UnexpectedSandboxCall, SandboxCallMatcherError, UnconsumedSandboxSteps)
    )


@pytest.mark.asyncio
async def test_errors_survive_pickling_with_their_fields() -> None:
    sandbox = scripted_sandbox_session(
        [{"method": "read", "result": io.BytesIO()}, {"method": "exec", "result": OK}]
    )
    async with sandbox:
        with pytest.raises(UnexpectedSandboxCall) as raised:
            await sandbox.exec("pwd")
    copy = pickle.loads(pickle.dumps(raised.value))
    assert (copy.call, copy.call_index, copy.actual_method, copy.expected_method) == (
        raised.value.call,
        0,
        "exec",
        "read",
    )
    assert copy.remaining_steps == 2
    assert [step["method"] for step in copy.pending_steps] == ["read", "exec"]
    unused = scripted_sandbox_session([{"method": "mkdir", "result": None}])
    with pytest.raises(UnconsumedSandboxSteps) as unconsumed:
        unused.assert_complete()
    left = pickle.loads(pickle.dumps(unconsumed.value))
    assert (left.remaining_steps, left.pending_steps, left.pending_methods) == (
        1,
        ({"method": "mkdir", "result": None},),
        ("mkdir",),
    )
    assert str(left) == str(unconsumed.value)
    with pytest.raises(InvalidSandboxStep) as refused:
        scripted_sandbox_session([{"method": "exec", "result": OK}, {"method": "cp"}])
    invalid = pickle.loads(pickle.dumps(refused.value))
    assert (invalid.reason, invalid.input_index, invalid.method) == ("unknown_method", 1, "cp")
    assert invalid.detail == refused.value.detail
    assert str(invalid) == str(refused.value)
    assert str(invalid).startswith("Scripted sandbox step #2 has an unknown method. 'cp' ")


def test_errors_are_built_from_a_message_and_keyword_fields() -> None:
    call = SandboxCall(0, "exec", ("pwd",), MappingProxyType({}))
    errors: list[SandboxScriptError] = [
        InvalidSandboxStep("bad step", reason="invalid_input", input_index=2, method=None),
        UnexpectedSandboxCall(
            "unexpected", call=call, call_index=0, expected_method="read", remaining_steps=1
        ),
        SandboxCallMatcherError("rejected", call=call, call_index=0, method="exec"),
        UnconsumedSandboxSteps("left over", remaining_steps=1, pending_methods=("exec",)),
    ]
    for error in errors:
        copy = pickle.loads(pickle.dumps(error))
        assert (type(copy), str(copy), vars(copy)) == (type(error), str(error), vars(error))
    invalid, unexpected, rejected, left = errors
    assert isinstance(invalid, InvalidSandboxStep)
    assert (str(invalid), invalid.reason, invalid.input_index, invalid.method) == (
        "bad step",
        "invalid_input",
        2,
        None,
    )
    assert (unexpected.actual_method, unexpected.expected_method) == ("exec", "read")  # type: ignore[attr-defined]
    assert (unexpected.remaining_steps, unexpected.pending_steps) == (1, ())  # type: ignore[attr-defined]
    assert (rejected.call, rejected.call_index, rejected.method) == (call, 0, "exec")  # type: ignore[attr-defined]
    assert (left.remaining_steps, left.pending_methods) == (1, ("exec",))  # type: ignore[attr-defined]


@pytest.mark.asyncio
async def test_the_call_in_an_error_is_detached_from_history() -> None:
    sandbox = scripted_sandbox_session(
        [{"method": "exec", "result": OK}, {"method": "apply_patch", "result": "done"}]
    )
    async with sandbox:
        with pytest.raises(UnexpectedSandboxCall) as raised:
            await sandbox.apply_patch([{"type": "delete_file", "path": "a"}])
    raised.value.call.args[0].clear()
    assert sandbox.calls[0].args == ([{"type": "delete_file", "path": "a"}],)


@pytest.mark.asyncio
async def test_changing_pending_step_dicts_changes_nothing_in_the_script() -> None:
    sandbox = scripted_sandbox_session(
        [
            {"method": "read", "result": io.BytesIO(b"kept")},
            {"method": "exec", "result": OK},
        ]
    )
    [read, run] = sandbox.pending_steps
    read["result"].write(b"changed")
    read["method"] = "exec"
    run["result"].stdout = b"changed\n"
    run.clear()  # type: ignore[attr-defined]
    with pytest.raises(UnconsumedSandboxSteps) as raised:
        sandbox.assert_complete()
    raised.value.pending_steps[0]["result"].write(b"changed too")

    assert [step["method"] for step in sandbox.pending_steps] == ["read", "exec"]
    async with sandbox:
        assert (await sandbox.read("notes.txt")).read() == b"kept"  # type: ignore[arg-type]
        assert (await sandbox.exec("pwd")).stdout == b"ok\n"
    assert sandbox.remaining_steps == 0
    assert sandbox.pending_steps == ()
    sandbox.assert_complete()
