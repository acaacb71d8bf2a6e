"""Step validation, outcomes and static-result snapshots, checked through real runs."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from agents import UserError
from agents.sandbox import ExecResult, Manifest
from agents.sandbox.capabilities import Filesystem, Shell
from agents.sandbox.errors import ExecTransportError
from openai.types.responses import ResponseCustomToolCall

from agents_testing.core import compat
from agents_testing.model import ScriptedModel, assistant_message, function_call
from agents_testing.sandbox import (
    InvalidSandboxStep,
    SandboxCall,
    SandboxStepSpec,
    scripted_sandbox_session,
)

OK = ExecResult(stdout=b"ok\n", stderr=b"", exit_code=0)
VALID: SandboxStepSpec = {"method": "exec", "result": OK}


def _exec_model(*commands: str) -> ScriptedModel:
    turns: list[Any] = [
        [function_call("exec_command", {"cmd": cmd}, call_id=f"c{i}")]
        for i, cmd in enumerate(commands)
    ]
    return ScriptedModel([*turns, [assistant_message("done")]])


@pytest.mark.parametrize("extra_checks", [False, True], ids=["bare", "extra-checks"])
@pytest.mark.parametrize(
    ("step", "reason", "method", "sentence"),
    [
        ("exec", "invalid_input", None, "must be a mapping."),
        ({"result": OK}, "unknown_method", None, "has an unknown method."),
        ({"method": 3, "result": OK}, "unknown_method", None, "has an unknown method."),
        (
            {"method": "exec", "result": OK, "expect": 1},
            "invalid_input",
            "exec",
            "contains unsupported fields.",
        ),
        ({"method": "cp", "result": None}, "unknown_method", "cp", "has an unknown method."),
        (
            {"method": "exec", "match": "pwd", "result": OK},
            "invalid_matcher",
            "exec",
            "for exec must use a callable matcher.",
        ),
        (
            {"method": "exec", "result": OK, "error": OSError()},
            "invalid_outcome",
            "exec",
            "for exec must define exactly one outcome.",
        ),
        (
            {"method": "exec"},
            "invalid_outcome",
            "exec",
            "for exec must define exactly one outcome.",
        ),
        (
            {"method": "exec", "responder": "ok"},
            "invalid_outcome",
            "exec",
            "for exec must use a callable responder.",
        ),
        (
            {"method": "exec", "error": "boom"},
            "invalid_outcome",
            "exec",
            "for exec must use an Exception.",
        ),
        (
            {"method": "exec", "error": ExecTransportError},
            "invalid_outcome",
            "exec",
            "for exec must use an Exception.",
        ),
    ],
    ids=lambda value: value if isinstance(value, str) and not value.endswith(".") else None,
)
def test_a_malformed_step_is_rejected_with_reason_index_and_method(
    step: Any, reason: str, method: str | None, sentence: str, extra_checks: bool
) -> None:
    """The message begins with the sentence the SDK's own double says for the problem,
    so a test that matches it passes with either; our explanation follows."""
    with pytest.raises(InvalidSandboxStep) as raised:
        scripted_sandbox_session([VALID, step], extra_checks=extra_checks)
    assert (raised.value.reason, raised.value.input_index, raised.value.method) == (
        reason,
        1,
        method,
    )
    assert str(raised.value).startswith(f"Scripted sandbox step #2 {sentence} ")
    assert "\n" not in str(raised.value)


WRONGLY_TYPED: list[SandboxStepSpec] = [
    {"method": "exec", "result": b"pwd"},
    {"method": "mkdir", "result": True},
    {"method": "ls", "result": ["a.txt"]},
    {"method": "read", "result": 42},
    {"method": "apply_patch", "result": None},
]


@pytest.mark.parametrize("step", WRONGLY_TYPED, ids=lambda step: step["method"])
def test_a_result_of_the_wrong_type_is_refused_with_extra_checks(step: SandboxStepSpec) -> None:
    with pytest.raises(InvalidSandboxStep) as raised:
        scripted_sandbox_session([VALID, step], extra_checks=True)
    assert (raised.value.reason, raised.value.input_index, raised.value.method) == (
        "invalid_outcome",
        1,
        step["method"],
    )
    assert f"{step['method']} returns" in str(raised.value)


@pytest.mark.parametrize("step", WRONGLY_TYPED, ids=lambda step: step["method"])
@pytest.mark.asyncio
async def test_a_bare_session_hands_back_a_result_of_any_type_as_scripted(
    step: SandboxStepSpec,
) -> None:
    """Shows SBX-1."""
    sandbox = scripted_sandbox_session([step])
    arguments: dict[str, tuple[Any, ...]] = {
        "exec": ("pwd",),
        "mkdir": ("logs",),
        "ls": (".",),
        "read": (Path("a.txt"),),
        "apply_patch": ([],),
    }
    async with sandbox:
        served = await getattr(sandbox, step["method"])(*arguments[step["method"]])
    assert served == step["result"]
    assert type(served) is type(step["result"])
    sandbox.assert_complete()


def test_an_async_matcher_is_rejected() -> None:
    async def match(call: SandboxCall) -> bool:
        return True

    with pytest.raises(InvalidSandboxStep) as raised:
        scripted_sandbox_session([{"method": "exec", "match": match, "result": OK}])
    assert (raised.value.reason, raised.value.input_index) == ("invalid_matcher", 0)


@pytest.mark.parametrize("steps", [VALID, "exec", 3])
def test_steps_that_are_not_a_sequence_of_dicts_are_rejected(steps: Any) -> None:
    with pytest.raises(InvalidSandboxStep) as raised:
        scripted_sandbox_session(steps)
    assert (raised.value.reason, raised.value.input_index, raised.value.method) == (
        "invalid_input",
        0,
        None,
    )


@pytest.mark.skipif(
    not compat.sdk_at_least(0, 23, 1), reason="sandbox sessions have mv and same_file from 0.23.1"
)
@pytest.mark.parametrize("method", ["mv", "same_file"])
def test_mv_and_same_file_are_scriptable_where_the_sdk_has_them(method: str) -> None:
    sandbox = scripted_sandbox_session([{"method": method, "result": None}])
    assert [step["method"] for step in sandbox.pending_steps] == [method]


@pytest.mark.skipif(
    compat.sdk_at_least(0, 23, 1), reason="mv and same_file are session operations from 0.23.1"
)
@pytest.mark.parametrize("method", ["mv", "same_file"])
def test_mv_and_same_file_are_unknown_methods_where_the_sdk_lacks_them(method: str) -> None:
    with pytest.raises(InvalidSandboxStep) as raised:
        scripted_sandbox_session([{"method": method, "result": None}])
    assert (raised.value.reason, raised.value.method) == ("unknown_method", method)


@pytest.mark.asyncio
async def test_static_results_are_snapshotted_when_the_script_is_built(
    run_sandbox: Any, tool_outputs: Any
) -> None:
    result = ExecResult(stdout=b"before\n", stderr=b"", exit_code=0)
    stream = io.BytesIO(b"title\n")
    sandbox = scripted_sandbox_session(
        [
            {"method": "exec", "result": result},
            {"method": "read", "result": stream},
            {"method": "mkdir", "result": None},
            {"method": "write", "result": None},
        ]
    )
    result.stdout = b"after\n"
    result.exit_code = 9
    stream.seek(0)
    stream.write(b"WRONG!")
    patch = "*** Begin Patch\n*** Update File: notes.md\n@@\n-title\n+Title\n*** End Patch\n"
    model = ScriptedModel(
        [
            [function_call("exec_command", {"cmd": "cat notes.md"}, call_id="c1")],
            [_patch_call(patch)],
            [assistant_message("done")],
        ]
    )

    async with sandbox:
        await run_sandbox(sandbox, model, [Shell(), Filesystem()])

    exec_output = model.calls[1].input[-1]
    assert isinstance(exec_output, dict)
    assert "Process exited with code 0" in exec_output["output"]  # type: ignore[operator,typeddict-item]
    assert exec_output["output"].endswith("before\n")  # type: ignore[typeddict-item,union-attr]
    assert tool_outputs(model)[-1] == "Updated notes.md"
    assert sandbox.calls[3].args[1].getvalue() == b"Title\n"
    sandbox.assert_complete()


@pytest.mark.parametrize(
    "content",
    [io.BytesIO(b"title\n"), io.StringIO("title\n")],
    ids=["BytesIO", "StringIO"],
)
@pytest.mark.asyncio
async def test_read_results_may_be_byte_or_text_streams(
    run_sandbox: Any, tool_outputs: Any, content: Any
) -> None:
    sandbox = scripted_sandbox_session(
        [
            {"method": "read", "result": content},
            {"method": "mkdir", "result": None},
            {"method": "write", "result": None},
        ]
    )
    patch = "*** Begin Patch\n*** Update File: notes.md\n@@\n-title\n+Title\n*** End Patch\n"
    model = ScriptedModel([[_patch_call(patch)], [assistant_message("done")]])

    async with sandbox:
        await run_sandbox(sandbox, model, [Filesystem()])

    assert tool_outputs(model) == ["Updated notes.md"]
    assert sandbox.calls[2].args[1].getvalue() == b"Title\n"


@pytest.mark.asyncio
async def test_an_error_step_fails_the_call_like_a_provider_failure(run_sandbox: Any) -> None:
    failure = ExecTransportError(command=("pwd",), context={"reason": "connection reset"})
    sandbox = scripted_sandbox_session([{"method": "exec", "error": failure}])

    async with sandbox:
        with pytest.raises(UserError) as raised:
            await run_sandbox(sandbox, _exec_model("pwd"), [Shell()])

    assert raised.value.__cause__ is failure
    assert [call.method for call in sandbox.calls] == ["exec"]
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_an_error_the_sdk_handles_reaches_the_model(
    run_sandbox: Any, tool_outputs: Any
) -> None:
    sandbox = scripted_sandbox_session([{"method": "exec", "error": TimeoutError()}])

    async with sandbox:
        result = await run_sandbox(sandbox, _exec_model("sleep 100"), [Shell()])

    assert result.final_output == "done"
    [output] = tool_outputs(_model_of(result))
    assert "Command timed out after 10.000 seconds." in output
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_a_responder_may_be_sync_or_async_and_gets_each_call() -> None:
    async def slow(call: SandboxCall) -> ExecResult:
        await asyncio.sleep(0)
        return ExecResult(stdout=str(call.args).encode(), stderr=b"", exit_code=0)

    sandbox = scripted_sandbox_session(
        [
            {"method": "exec", "responder": slow},
            {"method": "exec", "responder": lambda call: OK},
        ]
    )
    async with sandbox:
        first = await sandbox.exec("a", "b", shell=False)
        second = await sandbox.exec("c")
    assert (first.stdout, second.stdout) == (b"('a', 'b')", b"ok\n")
    # A responder's value is handed back as it is: the responder owns what it returns.
    assert second is OK
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_a_responder_returning_the_wrong_type_is_an_invalid_outcome() -> None:
    sandbox = scripted_sandbox_session(
        [VALID, {"method": "exec", "responder": lambda call: b"not an ExecResult"}],
        extra_checks=True,
    )
    async with sandbox:
        await sandbox.exec("a")
        with pytest.raises(InvalidSandboxStep) as raised:
            await sandbox.exec("b")
    assert (raised.value.reason, raised.value.input_index, raised.value.method) == (
        "invalid_outcome",
        1,
        "exec",
    )
    with pytest.raises(InvalidSandboxStep):
        sandbox.assert_complete()


@pytest.mark.asyncio
async def test_a_bare_session_hands_back_a_responders_value_of_any_type() -> None:
    sandbox = scripted_sandbox_session(
        [{"method": "exec", "responder": lambda call: b"not an ExecResult"}]
    )
    async with sandbox:
        served: object = await sandbox.exec("a")
    assert served == b"not an ExecResult"
    sandbox.assert_complete()


def _patch_call(patch: str) -> ResponseCustomToolCall:
    return ResponseCustomToolCall(
        type="custom_tool_call", call_id="call_patch", name="apply_patch", input=patch
    )


def _model_of(result: Any) -> ScriptedModel:
    model = result.last_agent.model
    assert isinstance(model, ScriptedModel)
    return model


@pytest.mark.asyncio
async def test_a_raising_responder_fails_the_call_like_a_provider_failure(
    run_sandbox: Any,
) -> None:
    failure = ExecTransportError(command=("make",), context={"reason": "lost"})

    def respond(call: SandboxCall) -> ExecResult:
        raise failure

    sandbox = scripted_sandbox_session([{"method": "exec", "responder": respond}])
    async with sandbox:
        with pytest.raises(UserError) as raised:
            await run_sandbox(sandbox, _exec_model("make"), [Shell()])

    assert raised.value.__cause__ is failure
    sandbox.assert_complete()


def _two_arguments(call: SandboxCall, extra: object) -> ExecResult:
    return OK


def _no_arguments() -> ExecResult:
    return OK


def _generator(call: SandboxCall) -> Any:
    yield OK


@pytest.mark.parametrize(
    ("key", "value", "reason", "message"),
    [
        ("responder", UnicodeDecodeError, "invalid_outcome", "not the class UnicodeDecodeError"),
        ("responder", ExecResult, "invalid_outcome", "not the class ExecResult"),
        ("responder", _two_arguments, "invalid_outcome", "must accept one positional argument"),
        ("responder", _no_arguments, "invalid_outcome", "must accept one positional argument"),
        ("responder", _generator, "invalid_outcome", "not be a generator function"),
        ("match", bool, "invalid_matcher", "not the class bool"),
        ("match", _two_arguments, "invalid_matcher", "must accept one positional argument"),
        ("match", _generator, "invalid_matcher", "not be a generator function"),
    ],
    ids=lambda value: value if isinstance(value, str) and " " not in value else None,
)
def test_a_matcher_or_responder_of_the_wrong_shape_is_refused_when_built(
    key: str, value: Any, reason: str, message: str
) -> None:
    step: dict[str, Any] = {"method": "exec", key: value}
    if key == "match":
        step["result"] = OK
    with pytest.raises(InvalidSandboxStep) as raised:
        scripted_sandbox_session([VALID, step])  # type: ignore[list-item]
    assert (raised.value.reason, raised.value.input_index) == (reason, 1)
    assert message in str(raised.value)


class Halt(BaseException):
    """A BaseException that is not an Exception."""


SURPRISING_ERRORS = [KeyboardInterrupt(), asyncio.CancelledError(), Halt(), StopIteration()]


@pytest.mark.parametrize("error", SURPRISING_ERRORS, ids=lambda error: type(error).__name__)
def test_an_error_that_cannot_surface_as_a_provider_failure_is_refused_with_extra_checks(
    error: BaseException,
) -> None:
    with pytest.raises(InvalidSandboxStep) as raised:
        scripted_sandbox_session([{"method": "exec", "error": error}], extra_checks=True)
    assert (raised.value.reason, raised.value.method) == ("invalid_outcome", "exec")
    assert "'error':" in str(raised.value)


@pytest.mark.parametrize(
    ("error", "raised_as"),
    [
        (KeyboardInterrupt(), KeyboardInterrupt),
        (asyncio.CancelledError(), asyncio.CancelledError),
        (Halt(), Halt),
        # Python turns a StopIteration leaving a coroutine into a RuntimeError.
        (StopIteration(), RuntimeError),
    ],
    ids=lambda value: value.__name__ if isinstance(value, type) else type(value).__name__,
)
@pytest.mark.asyncio
async def test_a_bare_session_raises_any_scripted_exception_instance(
    error: BaseException, raised_as: type[BaseException]
) -> None:
    sandbox = scripted_sandbox_session([{"method": "exec", "error": error}])
    async with sandbox:
        with pytest.raises(raised_as) as raised:
            await sandbox.exec("a")
    assert raised.value is error or raised.value.__cause__ is error
    sandbox.assert_complete()


@pytest.mark.parametrize("extra_checks", [False, True], ids=["bare", "extra-checks"])
@pytest.mark.parametrize(
    "error", [SystemExit, GeneratorExit, StopIteration, TimeoutError], ids=lambda e: e.__name__
)
def test_an_exception_class_is_refused_for_an_instance(
    error: type[BaseException], extra_checks: bool
) -> None:
    with pytest.raises(InvalidSandboxStep, match=f"got the class {error.__name__}") as raised:
        scripted_sandbox_session(
            [{"method": "exec", "error": error}],  # type: ignore[list-item]
            extra_checks=extra_checks,
        )
    assert (raised.value.reason, raised.value.method) == ("invalid_outcome", "exec")
    assert f"write {error.__name__}(...)" in str(raised.value)


@pytest.mark.asyncio
async def test_a_responder_raising_a_base_exception_propagates_it_unchanged() -> None:
    def interrupt(call: SandboxCall) -> ExecResult:
        raise KeyboardInterrupt

    sandbox = scripted_sandbox_session([{"method": "exec", "responder": interrupt}])
    async with sandbox:
        with pytest.raises(KeyboardInterrupt):
            await sandbox.exec("a")


class Verdict:
    """A matcher result whose truth value cannot be taken (like a numpy array's)."""

    def __bool__(self) -> bool:
        raise ValueError("the truth value is ambiguous")


@pytest.mark.asyncio
async def test_only_false_rejects_a_call_whatever_the_matcher_returns(run_sandbox: Any) -> None:
    sandbox = scripted_sandbox_session(
        [
            {"method": "exec", "match": lambda call: Verdict(), "result": OK},
            {"method": "exec", "match": lambda call: "", "result": OK},
        ]
    )
    async with sandbox:
        await run_sandbox(sandbox, _exec_model("a", "b"), [Shell()])
    sandbox.assert_complete()


class HostileName(str):
    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    def __hash__(self) -> int:
        raise RuntimeError("no hash")


class HostileKey:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


@pytest.mark.parametrize(
    "step",
    [
        {"method": HostileName("cp"), "result": None},
        {"method": "exec", "result": OK, HostileKey(): 1},
        {"method": "exec", "result": OK, 10**5000: 1},
    ],
    ids=["method", "key", "huge-int-key"],
)
def test_messages_survive_values_whose_repr_fails(step: Any) -> None:
    with pytest.raises(InvalidSandboxStep) as raised:
        scripted_sandbox_session([step])
    assert str(raised.value).startswith("Scripted sandbox step #1 ")
    assert len(str(raised.value)) < 600


class BrokenMapping(Mapping[str, Any]):
    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("broken")

    def __iter__(self) -> Any:
        return iter(["method"])

    def __len__(self) -> int:
        return 1


def test_a_step_mapping_that_fails_to_read_is_invalid_input() -> None:
    with pytest.raises(InvalidSandboxStep) as raised:
        scripted_sandbox_session([BrokenMapping()])  # type: ignore[list-item]
    assert (raised.value.reason, raised.value.input_index) == ("invalid_input", 0)
    assert isinstance(raised.value.__cause__, RuntimeError)


@pytest.mark.asyncio
async def test_the_manifest_is_copied_when_the_script_is_built(run_sandbox: Any) -> None:
    manifest = Manifest(root="/srv/app")
    sandbox = scripted_sandbox_session([VALID], manifest=manifest)
    manifest.root = "/changed"
    async with sandbox:
        await run_sandbox(sandbox, _exec_model("pwd"), [Shell()])
    assert sandbox.state.manifest.root == "/srv/app"
    sandbox.assert_complete()


class LengthOf:
    """A callable that cannot take a SandboxCall, and whose signature Python 3.13 reads as
    ``(obj, /)`` while earlier releases cannot read it at all."""

    __call__ = len


@pytest.mark.parametrize("matcher", [LengthOf(), len], ids=["instance", "builtin"])
@pytest.mark.asyncio
async def test_a_callable_whose_shape_shows_only_when_called_is_reported_with_the_cause(
    matcher: Any,
) -> None:
    # Both signatures accept one argument (where they can be read), so only the call
    # shows that a SandboxCall has no len().
    sandbox = scripted_sandbox_session(
        [
            {"method": "exec", "match": matcher, "result": OK},
            {"method": "exec", "responder": max},  # type: ignore[list-item]
        ],
        extra_checks=True,
    )
    async with sandbox:
        with pytest.raises(InvalidSandboxStep) as refused:
            await sandbox.exec("a")
    assert (refused.value.reason, refused.value.input_index) == ("invalid_matcher", 0)
    assert isinstance(refused.value.__cause__, TypeError)
    assert "has no len" in str(refused.value.__cause__)
    assert sandbox.remaining_steps == 2

    responding = scripted_sandbox_session(
        [{"method": "exec", "responder": max}],  # type: ignore[list-item]
        extra_checks=True,
    )
    async with responding:
        with pytest.raises(InvalidSandboxStep) as responder:
            await responding.exec("a")
    assert (responder.value.reason, responder.value.input_index) == ("invalid_outcome", 0)
    assert isinstance(responder.value.__cause__, TypeError)


@pytest.mark.parametrize("matcher", [LengthOf(), len], ids=["instance", "builtin"])
@pytest.mark.asyncio
async def test_a_bare_session_lets_a_callables_type_error_through_unchanged(matcher: Any) -> None:
    sandbox = scripted_sandbox_session([{"method": "exec", "match": matcher, "result": OK}])
    async with sandbox:
        with pytest.raises(TypeError, match="has no len"):
            await sandbox.exec("a")
    assert sandbox.remaining_steps == 1

    responding = scripted_sandbox_session([{"method": "exec", "responder": max}])  # type: ignore[list-item]
    async with responding:
        with pytest.raises(TypeError, match="not iterable"):
            await responding.exec("a")
    assert responding.remaining_steps == 0


def _counts(call: SandboxCall) -> bool:
    return len(call) > 0  # type: ignore[arg-type]


@pytest.mark.asyncio
async def test_a_type_error_from_inside_a_matcher_is_its_own_even_with_extra_checks() -> None:
    sandbox = scripted_sandbox_session(
        [{"method": "exec", "match": _counts, "result": OK}], extra_checks=True
    )
    async with sandbox:
        with pytest.raises(TypeError, match="has no len") as raised:
            await sandbox.exec("a")
    assert not isinstance(raised.value, InvalidSandboxStep)
    assert sandbox.remaining_steps == 1


@pytest.mark.parametrize("content", [b"title\n", "title\n"], ids=["bytes", "str"])
@pytest.mark.asyncio
async def test_a_bare_session_returns_a_str_or_bytes_read_result_unchanged(content: Any) -> None:
    sandbox = scripted_sandbox_session([{"method": "read", "result": content}])
    async with sandbox:
        served = await sandbox.read(Path("notes.md"))
    assert served is content
    sandbox.assert_complete()


@pytest.mark.parametrize(
    ("content", "advice"),
    [(b"title\n", "io.BytesIO(...)"), ("title\n", "io.StringIO(...)")],
    ids=["bytes", "str"],
)
def test_with_extra_checks_a_str_or_bytes_read_result_is_refused_for_a_stream(
    content: Any, advice: str
) -> None:
    with pytest.raises(
        InvalidSandboxStep, match="read returns a stream the SDK reads from"
    ) as raised:
        scripted_sandbox_session([{"method": "read", "result": content}], extra_checks=True)
    assert (raised.value.reason, raised.value.method) == ("invalid_outcome", "read")
    assert advice in str(raised.value)
