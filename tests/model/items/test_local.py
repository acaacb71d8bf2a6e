"""Builders of built-in tool calls the runner runs: computer, shell, local shell, apply-patch."""

from __future__ import annotations

from typing import Any, Literal

import pytest
from agents import (
    Agent,
    ApplyPatchTool,
    ComputerTool,
    LocalShellCommandRequest,
    LocalShellTool,
    ShellCommandRequest,
    ShellTool,
)
from agents.computer import Computer
from agents.editor import ApplyPatchOperation

from agents_testing.model import (
    InvalidModelArgument,
    ScriptedModel,
    apply_patch_call,
    assistant_message,
    computer_call,
    local_shell_call,
    shell_call,
)

from ..conftest import RunAgent

# Wrongly typed arguments, as untyped test code could pass them.
BAD_INT: Any = 5
BAD_ENV: Any = {"A": 1}


class FakeComputer(Computer):
    """A screen that records every action and returns a fixed screenshot."""

    def __init__(self) -> None:
        self.actions: list[tuple[Any, ...]] = []

    @property
    def environment(self) -> Literal["browser"]:
        return "browser"

    @property
    def dimensions(self) -> tuple[int, int]:
        return (800, 600)

    def screenshot(self) -> str:
        self.actions.append(("screenshot",))
        return "aW1n"

    def click(self, x: int, y: int, button: str) -> None:
        self.actions.append(("click", x, y, button))

    def double_click(self, x: int, y: int) -> None:
        self.actions.append(("double_click", x, y))

    def scroll(self, x: int, y: int, scroll_x: int, scroll_y: int) -> None:
        self.actions.append(("scroll", x, y, scroll_x, scroll_y))

    def type(self, text: str) -> None:
        self.actions.append(("type", text))

    def wait(self) -> None:
        self.actions.append(("wait",))

    def move(self, x: int, y: int) -> None:
        self.actions.append(("move", x, y))

    def keypress(self, keys: list[str]) -> None:
        self.actions.append(("keypress", *keys))

    def drag(self, path: list[tuple[int, int]]) -> None:
        self.actions.append(("drag", *path))


class FakeEditor:
    """An apply-patch editor that records the operations it was asked for."""

    def __init__(self) -> None:
        self.operations: list[tuple[str, str, str | None]] = []

    def create_file(self, operation: ApplyPatchOperation) -> str:
        self.operations.append((operation.type, operation.path, operation.diff))
        return f"created {operation.path}"

    def update_file(self, operation: ApplyPatchOperation) -> str:
        self.operations.append((operation.type, operation.path, operation.diff))
        return f"updated {operation.path}"

    def delete_file(self, operation: ApplyPatchOperation) -> str:
        self.operations.append((operation.type, operation.path, operation.diff))
        return f"deleted {operation.path}"


def _last_output(model: ScriptedModel, call_id: str) -> Any:
    assert model.last_call is not None
    return model.last_call.tool_output(call_id)


@pytest.mark.asyncio
async def test_computer_call_runs_the_action_on_the_computer_tool(
    run: RunAgent, streamed: bool
) -> None:
    computer = FakeComputer()
    model = ScriptedModel(
        [
            [computer_call({"type": "click", "x": 10, "y": 20, "button": "left"})],
            [assistant_message("Clicked.")],
        ],
        stream_all_items=True,
    )
    agent = Agent(name="Operator", model=model, tools=[ComputerTool(computer=computer)])

    result = await run(agent, "Click it", streamed=streamed)

    assert result.final_output == "Clicked."
    # The runner clicks, then takes the screenshot it sends back as the call's output.
    assert computer.actions == [("click", 10, 20, "left"), ("screenshot",)]
    assert model.last_call is not None
    assert list(model.last_call.tool_outputs()) == ["call_1"]
    model.assert_complete()


@pytest.mark.asyncio
async def test_shell_call_runs_the_commands_through_the_shell_tool_executor(
    run: RunAgent, streamed: bool
) -> None:
    requests: list[tuple[list[str], int | None]] = []

    def executor(request: ShellCommandRequest) -> str:
        action = request.data.action
        requests.append((list(action.commands), action.timeout_ms))
        return "README.md"

    model = ScriptedModel(
        [
            [shell_call(["ls", "pwd"], timeout_ms=500, call_id="sh_1")],
            [assistant_message("Listed.")],
        ],
        stream_all_items=True,
    )
    agent = Agent(name="Shell user", model=model, tools=[ShellTool(executor=executor)])

    result = await run(agent, "List files", streamed=streamed)

    assert result.final_output == "Listed."
    assert requests == [(["ls", "pwd"], 500)]
    assert "README.md" in str(_last_output(model, "sh_1"))


@pytest.mark.asyncio
async def test_local_shell_call_runs_the_split_command_through_the_local_shell_tool(
    run: RunAgent, streamed: bool
) -> None:
    seen: list[tuple[list[str], dict[str, str], str | None]] = []

    def executor(request: LocalShellCommandRequest) -> str:
        action = request.data.action
        seen.append((list(action.command), dict(action.env), action.working_directory))
        return "total 0"

    model = ScriptedModel(
        [
            [local_shell_call("ls -la 'my dir'", env={"A": "1"}, working_directory="/tmp")],
            [assistant_message("Done.")],
        ],
        stream_all_items=True,
    )
    agent = Agent(name="Local", model=model, tools=[LocalShellTool(executor=executor)])

    result = await run(agent, "List", streamed=streamed)

    assert result.final_output == "Done."
    assert seen == [(["ls", "-la", "my dir"], {"A": "1"}, "/tmp")]
    assert _last_output(model, "call_1") == "total 0"


@pytest.mark.asyncio
async def test_apply_patch_call_reaches_the_editor_for_each_operation(
    run: RunAgent, streamed: bool
) -> None:
    editor = FakeEditor()
    model = ScriptedModel(
        [
            [
                apply_patch_call("new.txt", "+hello", operation="create_file"),
                apply_patch_call("old.txt", operation="delete_file", item_id="apc_2"),
            ],
            [assistant_message("Patched.")],
        ]
    )
    agent = Agent(name="Editor", model=model, tools=[ApplyPatchTool(editor=editor)])

    result = await run(agent, "Patch", streamed=streamed)

    assert result.final_output == "Patched."
    assert editor.operations == [
        ("create_file", "new.txt", "+hello"),
        ("delete_file", "old.txt", None),
    ]
    assert _last_output(model, "call_1") == "created new.txt"
    assert _last_output(model, "call_2") == "deleted old.txt"


@pytest.mark.parametrize(
    ("build", "argument", "expected"),
    [
        (
            lambda: computer_call(BAD_INT),
            "computer_call(action)",
            "an action name or an action mapping",
        ),
        (
            lambda: computer_call("fly"),
            "computer_call(action)",
            "a value the installed openai accepts for ResponseComputerToolCall.action",
        ),
        (lambda: computer_call(call_id=""), "computer_call(call_id)", "a non-empty str"),
        (lambda: shell_call(BAD_INT), "shell_call(commands)", "a str or a sequence of str"),
        (lambda: shell_call("ls", timeout_ms=-1), "shell_call(timeout_ms)", "a non-negative int"),
        (lambda: local_shell_call(""), "local_shell_call(command)", "a non-empty command"),
        (lambda: local_shell_call("ls", env=BAD_ENV), "local_shell_call(env)", "a mapping of"),
        (lambda: apply_patch_call(""), "apply_patch_call(path)", "a non-empty str"),
        (lambda: apply_patch_call("a", None), "apply_patch_call(diff)", "a str"),
        (
            lambda: apply_patch_call("a", "+x", operation="delete_file"),
            "apply_patch_call(diff)",
            "None for operation='delete_file'",
        ),
        (
            lambda: apply_patch_call("a", "+x", operation="rename"),  # type: ignore[arg-type]
            "apply_patch_call(operation)",
            "'create_file', 'update_file' or 'delete_file'",
        ),
    ],
)
def test_local_tool_builders_name_the_bad_argument(
    build: Any, argument: str, expected: str
) -> None:
    with pytest.raises(InvalidModelArgument) as raised:
        build()

    assert raised.value.argument == argument
    assert raised.value.expected.startswith(expected)
    assert str(raised.value).startswith(f"Invalid argument {argument}: expected {expected}")
