"""Every scriptable session method, reached the way a model reaches it in a real run.

The model calls a capability's tool, the SDK's tool calls the session, the scripted step
answers and the answer reaches the next model turn.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import pytest
from agents import RunConfig, Runner, UserError, function_tool
from agents.run_config import SandboxRunConfig
from agents.sandbox import ExecResult, Manifest, SandboxAgent
from agents.sandbox.capabilities import Capability, Filesystem, Shell, Skill, Skills
from agents.sandbox.entries import File
from agents.sandbox.files import EntryKind, FileEntry
from agents.sandbox.session.pty_types import PtyExecUpdate
from agents.sandbox.types import Permissions
from agents.tool import Tool
from openai.types.responses import ResponseCustomToolCall
from pydantic import ValidationError

from agents_testing.core import compat
from agents_testing.model import ScriptedModel, assistant_message, function_call
from agents_testing.sandbox import (
    InvalidSandboxArgument,
    SandboxCall,
    UnexpectedSandboxCall,
    scripted_sandbox_session,
)

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16


def _patch_call(patch: str, call_id: str = "call_patch") -> ResponseCustomToolCall:
    """The apply_patch custom tool call a model emits."""
    return ResponseCustomToolCall(
        type="custom_tool_call", call_id=call_id, name="apply_patch", input=patch
    )


class WorkspaceTools(Capability):
    """An application capability whose tools use session operations no built-in tool calls."""

    type: Literal["workspace-tools"] = "workspace-tools"

    def tools(self) -> list[Tool]:
        session = self.session
        assert session is not None

        @function_tool
        async def list_files(path: str) -> str:
            """List a workspace directory."""
            entries = await session.ls(path)
            return "\n".join(f"{entry.path} {entry.kind.value}" for entry in entries)

        @function_tool
        async def create_file(path: str, text: str) -> str:
            """Create a file with the session's patch applier."""
            diff = "".join(f"+{line}\n" for line in text.splitlines())
            return await session.apply_patch({"type": "create_file", "path": path, "diff": diff})

        return [list_files, create_file]


@pytest.mark.asyncio
async def test_exec_answers_exec_command(run_sandbox: Any, tool_outputs: Any) -> None:
    sandbox = scripted_sandbox_session(
        [{"method": "exec", "result": ExecResult(stdout=b"a.txt\n", stderr=b"", exit_code=0)}]
    )
    model = ScriptedModel(
        [
            [function_call("exec_command", {"cmd": "ls"}, call_id="c1")],
            [assistant_message("done")],
        ]
    )
    async with sandbox:
        await run_sandbox(sandbox, model, [Shell()])

    [output] = tool_outputs(model)
    assert "Process exited with code 0" in output
    assert output.endswith("a.txt\n")
    [call] = sandbox.calls
    assert call.args == ("ls",)
    assert call.kwargs["shell"] is True
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_pty_methods_answer_exec_command_and_write_stdin(
    run_sandbox: Any, tool_outputs: Any
) -> None:
    sandbox = scripted_sandbox_session(
        [
            {
                "method": "pty_exec_start",
                "match": lambda call: call.kwargs["tty"] is True,
                "result": PtyExecUpdate(
                    process_id=7, output=b">>> ", exit_code=None, original_token_count=None
                ),
            },
            {
                "method": "pty_write_stdin",
                "match": lambda call: call.kwargs == {**call.kwargs, "session_id": 7},
                "result": PtyExecUpdate(
                    process_id=None, output=b"2\n", exit_code=0, original_token_count=None
                ),
            },
        ]
    )
    model = ScriptedModel(
        [
            [function_call("exec_command", {"cmd": "python3", "tty": True}, call_id="c1")],
            [function_call("write_stdin", {"session_id": 7, "chars": "1+1\n"}, call_id="c2")],
            [assistant_message("2")],
        ]
    )
    async with sandbox:
        await run_sandbox(sandbox, model, [Shell()])

    first_output = model.calls[1].input[-1]
    assert isinstance(first_output, dict)
    assert "Process running with session ID 7" in first_output["output"]  # type: ignore[operator,typeddict-item]
    [last_output] = tool_outputs(model)[-1:]
    assert "Process exited with code 0" in last_output
    assert last_output.endswith("2\n")
    assert [call.method for call in sandbox.calls] == ["pty_exec_start", "pty_write_stdin"]
    assert sandbox.calls[1].kwargs["chars"] == "1+1\n"
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_read_answers_view_image(run_sandbox: Any, tool_outputs: Any) -> None:
    sandbox = scripted_sandbox_session([{"method": "read", "result": io.BytesIO(PNG)}])
    model = ScriptedModel(
        [
            [function_call("view_image", {"path": "chart.png"}, call_id="c1")],
            [assistant_message("a chart")],
        ]
    )
    async with sandbox:
        await run_sandbox(sandbox, model, [Filesystem()])

    assert base64.b64encode(PNG).decode() in str(tool_outputs(model))
    [call] = sandbox.calls
    assert str(call.args[0]) == "/workspace/chart.png"
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_mkdir_and_write_answer_an_apply_patch_create(
    run_sandbox: Any, tool_outputs: Any
) -> None:
    sandbox = scripted_sandbox_session(
        [
            {"method": "mkdir", "result": None},
            {"method": "write", "result": None},
        ]
    )
    model = ScriptedModel(
        [
            [_patch_call("*** Begin Patch\n*** Add File: notes.md\n+hello\n*** End Patch\n")],
            [assistant_message("created")],
        ]
    )
    async with sandbox:
        await run_sandbox(sandbox, model, [Filesystem()])

    assert tool_outputs(model) == ["Created notes.md"]
    mkdir, write = sandbox.calls
    assert (str(mkdir.args[0]), mkdir.kwargs["parents"]) == ("/workspace", True)
    assert str(write.args[0]) == "/workspace/notes.md"
    assert write.args[1].getvalue() == b"hello"
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_read_and_rm_answer_an_apply_patch_delete(
    run_sandbox: Any, tool_outputs: Any
) -> None:
    sandbox = scripted_sandbox_session(
        [
            {"method": "read", "result": io.StringIO("old\n")},
            {
                "method": "rm",
                "match": lambda call: str(call.args[0]).endswith("old.md"),
                "result": None,
            },
        ]
    )
    model = ScriptedModel(
        [
            [_patch_call("*** Begin Patch\n*** Delete File: old.md\n*** End Patch\n")],
            [assistant_message("deleted")],
        ]
    )
    async with sandbox:
        await run_sandbox(sandbox, model, [Filesystem()])

    assert tool_outputs(model) == ["Deleted old.md"]
    assert [call.method for call in sandbox.calls] == ["read", "rm"]
    sandbox.assert_complete()


@pytest.mark.skipif(
    not compat.sdk_at_least(0, 23, 1),
    reason="sandbox sessions have mv and same_file from 0.23.1",
)
@pytest.mark.asyncio
async def test_same_file_and_mv_answer_an_apply_patch_rename(
    run_sandbox: Any, tool_outputs: Any
) -> None:
    same = {"method": "same_file", "result": True}
    sandbox = scripted_sandbox_session(
        [
            {"method": "read", "result": io.BytesIO(b"title\n")},
            same,  # type: ignore[list-item]
            {"method": "mkdir", "result": None},
            {"method": "write", "result": None},
            {"method": "mv", "result": None},
            same,  # type: ignore[list-item]
            {"method": "mv", "result": None},
        ]
    )
    patch = (
        "*** Begin Patch\n*** Update File: notes.md\n*** Move to: Notes.md\n"
        "@@\n-title\n+Title\n*** End Patch\n"
    )
    model = ScriptedModel([[_patch_call(patch)], [assistant_message("renamed")]])
    async with sandbox:
        await run_sandbox(sandbox, model, [Filesystem()])

    assert "Moved notes.md to Notes.md" in tool_outputs(model)[0]
    methods = [call.method for call in sandbox.calls]
    assert methods == ["read", "same_file", "mkdir", "write", "mv", "same_file", "mv"]
    assert sandbox.calls[3].args[1].getvalue() == b"Title\n"
    last_mv = sandbox.calls[6]
    assert [str(path) for path in last_mv.args] == ["/workspace/notes.md", "/workspace/Notes.md"]
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_ls_and_apply_patch_answer_an_application_capability(
    run_sandbox: Any, tool_outputs: Any
) -> None:
    entry = FileEntry(
        path="/workspace/src",
        permissions=Permissions(directory=True),
        owner="u",
        group="g",
        size=0,
        kind=EntryKind.DIRECTORY,
    )
    sandbox = scripted_sandbox_session(
        [
            {"method": "ls", "result": [entry]},
            {"method": "apply_patch", "responder": lambda call: f"Created {call.args[0]['path']}"},
        ]
    )
    model = ScriptedModel(
        [
            [function_call("list_files", {"path": "."}, call_id="c1")],
            [function_call("create_file", {"path": "a.txt", "text": "hi"}, call_id="c2")],
            [assistant_message("done")],
        ]
    )
    async with sandbox:
        await run_sandbox(sandbox, model, [WorkspaceTools()])

    assert "/workspace/src directory" in str(model.calls[1].input)
    assert tool_outputs(model)[-1] == "Created a.txt"
    ls_call, patch_call = sandbox.calls
    assert ls_call.args == (".",)
    assert patch_call.args[0] == {"type": "create_file", "path": "a.txt", "diff": "+hi\n"}
    assert patch_call.kwargs == {"patch_format": "v4a"}
    sandbox.assert_complete()


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        (
            [{"method": "exec", "result": ExecResult(stdout=b"", stderr=b"", exit_code=0)}],
            ["exec_command"],
        ),
        (
            [
                {
                    "method": "pty_exec_start",
                    "result": PtyExecUpdate(
                        process_id=1, output=b"", exit_code=None, original_token_count=None
                    ),
                }
            ],
            ["exec_command", "write_stdin"],
        ),
        (
            [
                {
                    "method": "pty_write_stdin",
                    "result": PtyExecUpdate(
                        process_id=1, output=b"", exit_code=None, original_token_count=None
                    ),
                }
            ],
            ["exec_command", "write_stdin"],
        ),
    ],
    ids=["exec-only", "pty-start", "pty-write"],
)
@pytest.mark.asyncio
async def test_only_the_scripted_shell_capability_is_offered(
    run_sandbox: Any,
    tool_names: Callable[..., list[str]],
    steps: list[Any],
    expected: list[str],
) -> None:
    sandbox = scripted_sandbox_session(steps)
    model = ScriptedModel([[assistant_message("nothing to do")]])
    async with sandbox:
        await run_sandbox(sandbox, model, [Shell()])

    assert tool_names(model) == expected
    assert sandbox.supports_pty() is (len(expected) == 2)


@pytest.mark.asyncio
async def test_pty_calls_share_the_one_global_fifo(run_sandbox: Any) -> None:
    update = PtyExecUpdate(process_id=3, output=b"", exit_code=None, original_token_count=None)
    sandbox = scripted_sandbox_session(
        [
            {"method": "pty_write_stdin", "result": update},
            {"method": "pty_exec_start", "result": update},
        ]
    )
    model = ScriptedModel(
        [
            [function_call("exec_command", {"cmd": "top"}, call_id="c1")],
            [assistant_message("unreachable")],
        ]
    )
    async with sandbox:
        with pytest.raises(UserError) as raised:
            await run_sandbox(sandbox, model, [Shell()])

    cause = raised.value.__cause__
    assert isinstance(cause, UnexpectedSandboxCall)
    assert (cause.actual_method, cause.expected_method) == ("pty_exec_start", "pty_write_stdin")
    assert sandbox.remaining_steps == 2
    assert [step["method"] for step in sandbox.pending_steps] == [
        "pty_write_stdin",
        "pty_exec_start",
    ]


@pytest.mark.asyncio
async def test_responder_gets_the_detached_call(run_sandbox: Any, tool_outputs: Any) -> None:
    seen: list[SandboxCall] = []

    async def respond(call: SandboxCall) -> ExecResult:
        seen.append(call)
        return ExecResult(stdout=f"ran {call.args[0]}".encode(), stderr=b"", exit_code=3)

    sandbox = scripted_sandbox_session([{"method": "exec", "responder": respond}])
    model = ScriptedModel(
        [
            [function_call("exec_command", {"cmd": "make"}, call_id="c1")],
            [assistant_message("failed")],
        ]
    )
    async with sandbox:
        await run_sandbox(sandbox, model, [Shell()])

    [output] = tool_outputs(model)
    assert "Process exited with code 3" in output
    assert output.endswith("ran make")
    assert seen[0] == sandbox.calls[0]
    assert seen[0].call_index == 0
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_the_manifest_describes_the_workspace_without_consuming_steps(
    run_sandbox: Any,
) -> None:
    manifest = Manifest(root="/srv/app", entries={"README.md": File(content=b"# App\n")})
    sandbox = scripted_sandbox_session(
        [{"method": "read", "result": io.BytesIO(PNG)}], manifest=manifest
    )
    model = ScriptedModel(
        [
            [function_call("view_image", {"path": "logo.png"}, call_id="c1")],
            [assistant_message("a logo")],
        ]
    )
    async with sandbox:
        await run_sandbox(sandbox, model, [Filesystem()])

    instructions = model.calls[0].system_instructions
    assert instructions is not None
    assert "/srv/app" in instructions
    assert "README.md" in instructions
    [call] = sandbox.calls
    assert str(call.args[0]) == "/srv/app/logo.png"
    sandbox.assert_complete()


@pytest.mark.parametrize("manifest", [{"root": "/srv"}, True, "/srv"], ids=["dict", "bool", "str"])
def test_a_manifest_must_be_a_manifest_with_extra_checks(manifest: Any) -> None:
    with pytest.raises(InvalidSandboxArgument) as raised:
        scripted_sandbox_session(manifest=manifest, extra_checks=True)
    error = raised.value
    assert (error.argument, error.expected, error.got, error.method) == (
        "manifest",
        "an agents.sandbox.Manifest or None",
        type(manifest).__name__,
        None,
    )
    assert isinstance(error, TypeError)
    assert "argument 'manifest' must be an agents.sandbox.Manifest or None" in str(error)


@pytest.mark.parametrize("manifest", [True, "/srv"], ids=["bool", "str"])
def test_a_bare_session_leaves_a_wrong_manifest_to_the_sdks_own_validation(manifest: Any) -> None:
    with pytest.raises(ValidationError, match="validation error for SandboxSessionState"):
        scripted_sandbox_session(manifest=manifest)


def test_a_bare_session_takes_a_manifest_as_a_mapping_the_sdk_validates() -> None:
    fields = {"root": "/srv"}
    sandbox = scripted_sandbox_session(manifest=fields)  # type: ignore[arg-type]
    fields["root"] = "/changed"
    assert isinstance(sandbox.state.manifest, Manifest)
    assert sandbox.state.manifest.root == "/srv"


@pytest.mark.asyncio
async def test_a_streamed_run_uses_the_session_the_same_way() -> None:
    sandbox = scripted_sandbox_session(
        [{"method": "exec", "result": ExecResult(stdout=b"3\n", stderr=b"", exit_code=0)}]
    )
    model = ScriptedModel(
        [
            [function_call("exec_command", {"cmd": "nproc"}, call_id="c1")],
            [assistant_message("3 cores")],
        ]
    )
    agent = SandboxAgent(name="Counter", model=model, capabilities=[Shell()])
    async with sandbox:
        result = Runner.run_streamed(
            agent,
            "How many cores?",
            run_config=RunConfig(sandbox=SandboxRunConfig(session=sandbox), tracing_disabled=True),
        )
        kinds = [event.type async for event in result.stream_events()]

    assert result.final_output == "3 cores"
    assert "run_item_stream_event" in kinds
    assert model.last_call is not None
    assert model.last_call.streamed
    assert [call.args for call in sandbox.calls] == [("nproc",)]
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_capability_manifest_entries_are_not_materialized(run_sandbox: Any) -> None:
    skills = Skills(skills=[Skill(name="greet", description="Say hello.", content="# Greet\n")])
    sandbox = scripted_sandbox_session(
        [{"method": "exec", "result": ExecResult(stdout=b"hi\n", stderr=b"", exit_code=0)}]
    )
    model = ScriptedModel(
        [
            [function_call("exec_command", {"cmd": "echo hi"}, call_id="c1")],
            [assistant_message("greeted")],
        ]
    )
    async with sandbox:
        await run_sandbox(sandbox, model, [Shell(), skills])

    instructions = model.calls[0].system_instructions
    assert instructions is not None
    assert "greet: Say hello." in instructions
    assert [call.method for call in sandbox.calls] == ["exec"]
    sandbox.assert_complete()


@pytest.mark.skipif(
    not compat.sdk_at_least(0, 23, 1), reason="read_bounded is a session operation from 0.23.1"
)
@pytest.mark.asyncio
async def test_read_bounded_is_answered_by_the_read_step() -> None:
    sandbox = scripted_sandbox_session([{"method": "read", "result": io.BytesIO(b"0123456789")}])
    async with sandbox:
        prefix = await sandbox.read_bounded(Path("log.txt"), max_bytes=4)
    assert prefix == b"0123"
    assert [call.method for call in sandbox.calls] == ["read"]
    sandbox.assert_complete()
