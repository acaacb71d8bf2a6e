"""``sandbox.calls``: detached, read-only, 0-based records of what the workflow called."""

from __future__ import annotations

import io
import sys
import threading
from pathlib import Path
from typing import Any, Literal

import pytest
from agents import UserError, function_tool
from agents.sandbox import ExecResult
from agents.sandbox.capabilities import Capability
from agents.sandbox.types import User
from agents.tool import Tool

from agents_testing.model import ScriptedModel, assistant_message, function_call
from agents_testing.sandbox import InvalidSandboxArgument, SandboxCall, scripted_sandbox_session

OK = ExecResult(stdout=b"ok\n", stderr=b"", exit_code=0)

# An empty, typed source for the generator argument below.
_NOTHING: tuple[object, ...] = ()


class PatchTool(Capability):
    """An application tool that hands the session a mutable operation and keeps it."""

    type: Literal["patch-tool"] = "patch-tool"

    def tools(self) -> list[Tool]:
        session = self.session
        assert session is not None

        @function_tool
        async def add_file(path: str) -> str:
            """Create an empty file."""
            operation: dict[str, Any] = {"type": "create_file", "path": path, "diff": ""}
            output = await session.apply_patch([operation])
            operation["path"] = "changed-after-the-call"
            return output

        return [add_file]


@pytest.mark.asyncio
async def test_calls_are_detached_from_what_the_workflow_mutates_later(run_sandbox: Any) -> None:
    capability = PatchTool()
    sandbox = scripted_sandbox_session([{"method": "apply_patch", "result": "Created a.txt"}])
    model = ScriptedModel(
        [
            [function_call("add_file", {"path": "a.txt"}, call_id="c1")],
            [assistant_message("done")],
        ]
    )
    async with sandbox:
        await run_sandbox(sandbox, model, [capability])

    [call] = sandbox.calls
    assert call.args == ([{"type": "create_file", "path": "a.txt", "diff": ""}],)
    assert "Created a.txt" in str(model.last_call.input)  # type: ignore[union-attr]
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_mutating_a_returned_call_does_not_change_history() -> None:
    seen: list[SandboxCall] = []

    def respond(call: SandboxCall) -> str:
        seen.append(call)
        call.args[0].append("from the responder")
        return "ok"

    sandbox = scripted_sandbox_session(
        [
            {"method": "apply_patch", "responder": respond},
            {"method": "apply_patch", "result": "ok"},
        ]
    )
    async with sandbox:
        await sandbox.apply_patch(["first"])
        await sandbox.apply_patch(["second"])

    sandbox.calls[1].args[0].append("from the test")
    assert [call.args for call in sandbox.calls] == [(["first"],), (["second"],)]
    assert seen[0].args == (["first", "from the responder"],)


@pytest.mark.asyncio
async def test_kwargs_are_read_only_with_defaults_filled_in() -> None:
    sandbox = scripted_sandbox_session(
        [{"method": "mkdir", "result": None}, {"method": "rm", "result": None}]
    )
    async with sandbox:
        await sandbox.mkdir("logs")
        await sandbox.rm(Path("logs"), recursive=True, user=User(name="app"))

    mkdir, rm = sandbox.calls
    assert dict(mkdir.kwargs) == {"parents": False, "user": None}
    assert rm.kwargs["recursive"] is True
    assert rm.kwargs["user"] == User(name="app")
    with pytest.raises(TypeError):
        mkdir.kwargs["parents"] = True  # type: ignore[index]
    with pytest.raises(AttributeError):
        mkdir.method = "rm"  # type: ignore[misc]


@pytest.mark.asyncio
async def test_call_indices_count_every_call_from_zero() -> None:
    sandbox = scripted_sandbox_session(
        [
            {"method": "mkdir", "result": None},
            {"method": "write", "result": None},
            {"method": "read", "result": io.BytesIO(b"x")},
        ]
    )
    async with sandbox:
        await sandbox.mkdir("a")
        await sandbox.write(Path("a/b"), io.StringIO("text"))
        await sandbox.read(Path("a/b"))

    calls = sandbox.calls
    assert [(call.call_index, call.method) for call in calls] == [
        (0, "mkdir"),
        (1, "write"),
        (2, "read"),
    ]
    assert calls[1].args[0] == Path("a/b")
    assert calls[1].args[1].getvalue() == "text"
    assert [call.call_index for call in sandbox.calls] == [0, 1, 2]


@pytest.mark.parametrize(
    ("stream", "content"),
    [(io.BytesIO(b"header|body"), b"header|body"), (io.StringIO("header|body"), "header|body")],
    ids=["BytesIO", "StringIO"],
)
@pytest.mark.asyncio
async def test_a_stream_argument_is_recorded_with_its_type_content_and_position(
    stream: io.BytesIO | io.StringIO, content: bytes | str
) -> None:
    sandbox = scripted_sandbox_session([{"method": "write"}])
    stream.seek(7)
    async with sandbox:
        await sandbox.write(Path("a.txt"), stream)

    # Capturing it neither read from the caller's stream nor moved it.
    assert stream.tell() == 7
    stream.seek(0)
    stream.truncate()
    first = sandbox.calls[0].args[1]
    second = sandbox.calls[0].args[1]
    assert type(first) is type(stream)
    assert first is not second
    assert (first.tell(), first.read()) == (7, content[7:])
    first.truncate(0)
    assert (second.tell(), second.getvalue()) == (7, content)
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_equal_arguments_of_different_types_are_recorded_as_they_were() -> None:
    sandbox = scripted_sandbox_session([{"method": "apply_patch", "result": "ok"}] * 3)
    async with sandbox:
        for value in (1, True, 1.0):
            await sandbox.apply_patch({"type": "create_file", "path": "a", "n": value})

    recorded = [call.args[0]["n"] for call in sandbox.calls]
    assert [(type(value), value) for value in recorded] == [(int, 1), (bool, True), (float, 1.0)]
    sandbox.assert_complete()


@pytest.mark.parametrize(
    ("argument", "got"),
    [(threading.Lock(), "a lock"), ((item for item in _NOTHING), "a generator")],
    ids=["lock", "generator"],
)
@pytest.mark.asyncio
async def test_an_argument_that_cannot_be_recorded_is_refused_before_anything_is_recorded(
    argument: Any, got: str
) -> None:
    sandbox = scripted_sandbox_session(
        [{"method": "apply_patch", "result": "ok"}], extra_checks=True
    )
    async with sandbox:
        with pytest.raises(InvalidSandboxArgument) as raised:
            await sandbox.apply_patch(argument)

    error = raised.value
    assert (error.method, error.call_index, error.argument, error.expected, error.got) == (
        "apply_patch",
        0,
        "args[0]",
        "a value that can be copied",
        got,
    )
    assert isinstance(error.__cause__, TypeError)
    assert "Sandbox apply_patch call #1 argument 'args[0]'" in str(error)
    assert sandbox.calls == ()
    assert sandbox.remaining_steps == 1
    # The refused call is remembered as a violation, like any other.
    with pytest.raises(InvalidSandboxArgument):
        sandbox.assert_complete()


@pytest.mark.parametrize(
    "argument",
    [threading.Lock(), (item for item in _NOTHING)],
    ids=["lock", "generator"],
)
@pytest.mark.asyncio
async def test_a_bare_session_raises_the_copy_error_of_an_argument_it_cannot_record(
    argument: Any,
) -> None:
    """Shows GEN-1."""
    sandbox = scripted_sandbox_session([{"method": "apply_patch", "result": "ok"}])
    async with sandbox:
        with pytest.raises(TypeError, match="cannot pickle") as raised:
            await sandbox.apply_patch(argument)

    assert not isinstance(raised.value, InvalidSandboxArgument)
    assert (raised.value.__cause__, raised.value.__context__) == (None, None)
    assert sandbox.calls == ()
    assert sandbox.remaining_steps == 1


class CopyRefusing:
    """An argument whose deep copy raises ``error``; its repr is a secret."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        raise self.error

    def __repr__(self) -> str:
        return "CopyRefusing('sk-secret')"


class UncopyableCommand(Capability):
    """An application tool that hands the session a command part that cannot be copied."""

    type: Literal["uncopyable-command"] = "uncopyable-command"
    # A function returning the part: the runtime copies capabilities, a function it keeps.
    make_part: Any = None

    def tools(self) -> list[Tool]:
        session, make_part = self.session, self.make_part
        assert session is not None

        async def run_it() -> str:
            """Run the prepared command."""
            await session.exec(make_part())
            return "ran"

        return [function_tool(run_it, failure_error_function=None)]


def _uncopyable_run_model() -> ScriptedModel:
    return ScriptedModel(
        [[function_call("run_it", {}, call_id="c1")], [assistant_message("unreachable")]]
    )


@pytest.mark.asyncio
async def test_an_argument_whose_copy_raises_re_raises_that_very_exception(
    run_sandbox: Any,
) -> None:
    failure = RuntimeError("x")
    matched: list[SandboxCall] = []
    responded: list[SandboxCall] = []
    sandbox = scripted_sandbox_session(
        [
            {"method": "exec", "match": matched.append, "result": OK},
            {"method": "exec", "responder": responded.append},
        ]
    )
    async with sandbox:
        with pytest.raises(RuntimeError) as direct:
            await sandbox.exec(CopyRefusing(failure))  # type: ignore[arg-type]
        with pytest.raises(UserError) as through_a_run:
            await run_sandbox(
                sandbox,
                _uncopyable_run_model(),
                [UncopyableCommand(make_part=lambda: CopyRefusing(failure))],
            )

    assert direct.value is failure
    # The run's tool failed with the very same exception, which the SDK wraps as the cause.
    assert isinstance(through_a_run.value, UserError)
    assert through_a_run.value.__cause__ is failure
    assert (failure.__cause__, failure.__suppress_context__) == (None, False)
    # Nothing recorded, nothing consumed, no matcher or responder called.
    assert sandbox.calls == ()
    assert sandbox.remaining_steps == 2
    assert (matched, responded) == ([], [])
    notes = getattr(failure, "__notes__", [])
    if sys.version_info >= (3, 11):
        assert any("sandbox exec call #1 argument 'args[0]'" in note for note in notes)
    # Argument values may hold secrets: the note names the position and type only.
    assert not any("sk-secret" in note for note in notes)


@pytest.mark.asyncio
async def test_with_extra_checks_an_argument_whose_copy_raises_is_an_invalid_argument() -> None:
    failure = RuntimeError("x")
    sandbox = scripted_sandbox_session([{"method": "exec", "result": OK}], extra_checks=True)
    async with sandbox:
        with pytest.raises(InvalidSandboxArgument, match="cannot be copied") as raised:
            await sandbox.exec("ls", CopyRefusing(failure))  # type: ignore[arg-type]

    error = raised.value
    assert error.__cause__ is failure
    assert (error.method, error.call_index, error.argument, error.got) == (
        "exec",
        0,
        "args[1]",
        "a CopyRefusing",
    )
    assert "sk-secret" not in str(error)
    assert (sandbox.calls, sandbox.remaining_steps) == ((), 1)


@pytest.mark.asyncio
async def test_a_callable_argument_is_recorded_as_it_is() -> None:
    class Callback:
        def __call__(self) -> None:
            return None

        def __deepcopy__(self, memo: dict[int, Any]) -> Any:
            raise AssertionError("a callable is kept, not copied")

    callback = Callback()
    sandbox = scripted_sandbox_session([{"method": "apply_patch", "result": "ok"}])
    async with sandbox:
        await sandbox.apply_patch([callback])
    assert sandbox.calls[0].args[0][0] is callback


@pytest.mark.parametrize("extra_checks", [False, True], ids=["bare", "extra-checks"])
@pytest.mark.asyncio
async def test_an_argument_that_contains_itself_is_refused_before_anything_is_recorded(
    extra_checks: bool,
) -> None:
    """The SDK's own double recurses until ``RecursionError`` on such an argument; ours
    refuses it with a ``TypeError`` that names the argument's position, never its keys."""
    looped: dict[str, Any] = {"secret-key": 1}
    looped["self"] = looped
    sandbox = scripted_sandbox_session(
        [{"method": "apply_patch", "result": "ok"}], extra_checks=extra_checks
    )
    async with sandbox:
        with pytest.raises(InvalidSandboxArgument) as raised:
            await sandbox.apply_patch([looped])
        assert await sandbox.apply_patch([]) == "ok"

    error = raised.value
    assert isinstance(error, TypeError)
    assert (error.method, error.call_index, error.argument, error.got) == (
        "apply_patch",
        0,
        "args[0]",
        "a list that contains itself",
    )
    assert str(error) == (
        "Sandbox apply_patch call #1 argument 'args[0]' (a list) contains itself (a "
        "reference cycle) and cannot be copied for the recorded history. Pass a value "
        "without a cycle. Nothing was recorded or consumed."
    )
    assert [call.args for call in sandbox.calls] == [([],)]
