"""``sandbox.calls``: detached, read-only, 0-based records of what the workflow called."""

from __future__ import annotations

import io
import threading
from pathlib import Path
from typing import Any, Literal

import pytest
from agents import function_tool
from agents.sandbox.capabilities import Capability
from agents.sandbox.types import User
from agents.tool import Tool

from agents_testing.model import ScriptedModel, assistant_message, function_call
from agents_testing.sandbox import InvalidSandboxArgument, SandboxCall, scripted_sandbox_session

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
            {"method": "read", "result": b"x"},
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
    sandbox = scripted_sandbox_session([{"method": "apply_patch", "result": "ok"}])
    async with sandbox:
        with pytest.raises(InvalidSandboxArgument) as raised:
            await sandbox.apply_patch(argument)

    error = raised.value
    assert (error.method, error.argument, error.expected, error.got) == (
        "apply_patch",
        "args[0]",
        "a value that can be copied",
        got,
    )
    assert error.__cause__ is not None
    assert sandbox.calls == ()
    assert sandbox.remaining_steps == 1
