"""The sandboxed itinerary editor, run on a scripted sandbox session instead of a container.

Recipes: sandbox agent workflow, sandbox step configuration (match, responder, error).
"""

from __future__ import annotations

import io
import shlex
from pathlib import Path

import pytest
from agents import RunConfig, UserError
from agents.sandbox import ExecResult, SandboxRunConfig, WorkspaceReadNotFoundError
from agents.testing import (
    SandboxCall,
    SandboxCallMatcherError,
    ScriptedModel,
    any_order,
    assistant_message,
    function_call,
)
from openai.types.responses import ResponseCustomToolCall
from travel_desk import ITINERARY_FILE, revise_itinerary

from ._types import ScriptModel, ScriptSandbox

ITINERARY = "# Tokyo\n- 24 Dec: TD101 LHR to NRT\n- Hotel: Park Hyatt\n"
REVISED = "# Tokyo\n- 24 Dec: TD101 LHR to NRT\n- Hotel: Hoshinoya\n"
HOTEL_PATCH = (
    "*** Begin Patch\n"
    f"*** Update File: {ITINERARY_FILE}\n"
    "@@\n"
    "-- Hotel: Park Hyatt\n"
    "+- Hotel: Hoshinoya\n"
    "*** End Patch\n"
)


def apply_patch_call(patch: str, *, call_id: str) -> ResponseCustomToolCall:
    """The model calling the sandbox's freeform apply_patch tool."""
    return ResponseCustomToolCall(
        type="custom_tool_call", name="apply_patch", input=patch, call_id=call_id
    )


def shell_output(text: str) -> ExecResult:
    return ExecResult(stdout=text.encode(), stderr=b"", exit_code=0)


def tool_outputs(model: ScriptedModel) -> list[str]:
    """Every tool result the model was shown during the run, in order."""
    assert model.last_call is not None
    return [str(output) for output in model.last_call.tool_outputs().values()]


@pytest.mark.asyncio
async def test_the_editor_reads_the_itinerary_then_patches_it(
    scripted_model: ScriptModel, scripted_sandbox: ScriptSandbox, run_config: RunConfig
) -> None:
    sandbox = scripted_sandbox(
        [
            {
                "method": "exec",
                "match": lambda call: call.args == (f"cat {ITINERARY_FILE}",),
                "result": shell_output(ITINERARY),
            },
            # apply_patch reads the file, makes sure its directory exists, writes it back.
            {"method": "read", "result": io.BytesIO(ITINERARY.encode())},
            {"method": "mkdir", "result": None},
            {"method": "write", "result": None},
        ]
    )
    model = scripted_model(
        [
            [function_call("exec_command", {"cmd": f"cat {ITINERARY_FILE}"}, call_id="read")],
            [apply_patch_call(HOTEL_PATCH, call_id="patch")],
            [assistant_message("I changed your hotel to Hoshinoya.")],
        ]
    )

    async with sandbox:
        summary = await revise_itinerary(
            "Swap the hotel for Hoshinoya",
            sandbox=SandboxRunConfig(session=sandbox),
            model=model,
            run_config=run_config,
        )

    assert summary == "I changed your hotel to Hoshinoya."
    assert [call.method for call in sandbox.calls] == ["exec", "read", "mkdir", "write"]
    written_path, written = sandbox.calls[-1].args
    assert str(written_path).endswith(ITINERARY_FILE)
    assert written.getvalue() == REVISED.encode()
    shell, patch = tool_outputs(model)
    assert shell.endswith(ITINERARY)
    assert patch == f"Updated {ITINERARY_FILE}"
    assert [tool.name for tool in model.calls[0].tools] == [
        "exec_command",
        "view_image",
        "apply_patch",
    ]


@pytest.mark.asyncio
async def test_a_responder_answers_shell_commands_from_a_table_of_files(
    scripted_model: ScriptModel, scripted_sandbox: ScriptSandbox, run_config: RunConfig
) -> None:
    files = {ITINERARY_FILE: ITINERARY, "notes.md": "Window seat, please.\n"}

    def cat(call: SandboxCall) -> ExecResult:
        program, path = shlex.split(str(call.args[0]))
        assert program == "cat"
        return shell_output(files[path])

    sandbox = scripted_sandbox(
        [{"method": "exec", "responder": cat}, {"method": "exec", "responder": cat}]
    )
    model = scripted_model(
        [
            [
                function_call("exec_command", {"cmd": f"cat {ITINERARY_FILE}"}, call_id="c1"),
                function_call("exec_command", {"cmd": "cat notes.md"}, call_id="c2"),
            ],
            [assistant_message("Your itinerary is fine; you asked for a window seat.")],
        ]
    )

    async with sandbox:
        await revise_itinerary(
            "Check my trip against my notes",
            sandbox=SandboxRunConfig(session=sandbox),
            model=model,
            run_config=run_config,
        )

    first, second = tool_outputs(model)
    assert first.endswith(ITINERARY)
    assert second.endswith("Window seat, please.\n")
    assert [call.args for call in sandbox.calls] == [(f"cat {ITINERARY_FILE}",), ("cat notes.md",)]


@pytest.mark.asyncio
async def test_parallel_reads_are_answered_by_what_they_read_in_any_order(
    scripted_model: ScriptModel, scripted_sandbox: ScriptSandbox, run_config: RunConfig
) -> None:
    # The two commands of one response run concurrently: the group does not fix their order.
    sandbox = scripted_sandbox(
        [
            any_order(
                {
                    "method": "exec",
                    "match": lambda call: call.args == ("cat notes.md",),
                    "result": shell_output("Window seat, please.\n"),
                },
                {
                    "method": "exec",
                    "match": lambda call: call.args == (f"cat {ITINERARY_FILE}",),
                    "result": shell_output(ITINERARY),
                },
            )
        ]
    )
    model = scripted_model(
        [
            [
                function_call("exec_command", {"cmd": f"cat {ITINERARY_FILE}"}, call_id="c1"),
                function_call("exec_command", {"cmd": "cat notes.md"}, call_id="c2"),
            ],
            [assistant_message("Your itinerary is fine; you asked for a window seat.")],
        ]
    )

    async with sandbox:
        await revise_itinerary(
            "Check my trip against my notes",
            sandbox=SandboxRunConfig(session=sandbox),
            model=model,
            run_config=run_config,
        )

    first, second = tool_outputs(model)
    assert first.endswith(ITINERARY)
    assert second.endswith("Window seat, please.\n")


# The session reports the mismatch again at the end; this test checks it itself.
@pytest.mark.agents_testing(assert_complete=False)
@pytest.mark.asyncio
async def test_a_command_the_step_does_not_match_stops_the_run_with_the_call(
    scripted_model: ScriptModel, scripted_sandbox: ScriptSandbox, run_config: RunConfig
) -> None:
    sandbox = scripted_sandbox(
        [
            {
                "method": "exec",
                "match": lambda call: call.args == (f"cat {ITINERARY_FILE}",),
                "result": shell_output(ITINERARY),
            }
        ]
    )
    model = scripted_model(
        [[function_call("exec_command", {"cmd": f"rm {ITINERARY_FILE}"}, call_id="rm")]]
    )

    async with sandbox:
        with pytest.raises(UserError) as failed:
            await revise_itinerary(
                "Start over",
                sandbox=SandboxRunConfig(session=sandbox),
                model=model,
                run_config=run_config,
            )

    rejected = failed.value.__cause__
    assert isinstance(rejected, SandboxCallMatcherError)
    assert rejected.method == "exec"
    assert rejected.call_index == 0
    assert rejected.call.args == (f"rm {ITINERARY_FILE}",)
    # The session keeps the mismatch and reports it again when checked.
    with pytest.raises(SandboxCallMatcherError):
        sandbox.assert_complete()


@pytest.mark.asyncio
async def test_patching_a_missing_itinerary_is_reported_back_to_the_model(
    scripted_model: ScriptModel, scripted_sandbox: ScriptSandbox, run_config: RunConfig
) -> None:
    missing = WorkspaceReadNotFoundError(path=Path(f"/workspace/{ITINERARY_FILE}"))
    sandbox = scripted_sandbox([{"method": "read", "error": missing}])
    model = scripted_model(
        [
            [apply_patch_call(HOTEL_PATCH, call_id="patch")],
            [assistant_message("There is no itinerary to change yet.")],
        ]
    )

    async with sandbox:
        summary = await revise_itinerary(
            "Swap the hotel for Hoshinoya",
            sandbox=SandboxRunConfig(session=sandbox),
            model=model,
            run_config=run_config,
        )

    assert summary == "There is no itinerary to change yet."
    [patch_result] = tool_outputs(model)
    # The SDK's patch tool turns the scripted read error into a result the model can read.
    assert patch_result == f"apply_patch missing file: {ITINERARY_FILE}"
    assert [call.method for call in sandbox.calls] == ["read"]
