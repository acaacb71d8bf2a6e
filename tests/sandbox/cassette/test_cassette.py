"""Record a ``UnixLocalSandboxClient`` session of a ``SandboxAgent`` run; replay it scripted."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, cast

import pytest
from agents import RunConfig, Runner, function_tool
from agents.run_config import SandboxRunConfig
from agents.sandbox import SandboxAgent
from agents.sandbox.capabilities import Capability
from agents.sandbox.manifest import Manifest
from agents.sandbox.sandboxes.unix_local import UnixLocalSandboxClient
from agents.tool import Tool

from agents_testing.model import ScriptedModel, assistant_message, function_call
from agents_testing.sandbox import (
    SandboxCallMismatch,
    SandboxCassette,
    ScriptedSandboxSession,
)


class Desk(Capability):
    """Workspace tools built on the session's exec, read, write and apply_patch."""

    type: Literal["desk"] = "desk"

    def tools(self) -> list[Tool]:
        session = self.session
        assert session is not None

        @function_tool
        async def run(command: str) -> str:
            """Run a shell command in the workspace."""
            result = await session.exec(command)
            return result.stdout.decode() + f"[exit {result.exit_code}]"

        @function_tool
        async def write_file(path: str, text: str) -> str:
            """Write a file."""
            await session.write(Path(path), io.BytesIO(text.encode()))
            return "written"

        @function_tool
        async def read_file(path: str) -> str:
            """Read a file."""
            stream = await session.read(Path(path))
            data = stream.read()
            return data.decode() if isinstance(data, bytes) else str(data)

        @function_tool
        async def create_file(path: str, text: str) -> str:
            """Create a file through the patch applier."""
            diff = "".join(f"+{line}\n" for line in text.splitlines())
            return str(
                await session.apply_patch({"type": "create_file", "path": path, "diff": diff})
            )

        return [run, write_file, read_file, create_file]


def script(listing_command: str = "ls") -> ScriptedModel:
    return ScriptedModel(
        [
            [function_call("write_file", {"path": "trip.md", "text": "Paris\n"}, call_id="c1")],
            [function_call("create_file", {"path": "notes.md", "text": "pack\n"}, call_id="c2")],
            [function_call("read_file", {"path": "trip.md"}, call_id="c3")],
            [function_call("run", {"command": listing_command}, call_id="c4")],
            [assistant_message("Done.")],
        ]
    )


async def run_desk(session: Any, model: ScriptedModel) -> Any:
    agent = SandboxAgent(name="Desk", model=model, capabilities=[Desk()])
    return await Runner.run(
        agent,
        "Plan the trip.",
        run_config=RunConfig(sandbox=SandboxRunConfig(session=session), tracing_disabled=True),
    )


def tool_outputs(model: ScriptedModel) -> list[Any]:
    last = model.last_call
    assert last is not None
    assert isinstance(last.input, list)
    items = cast("Sequence[Mapping[str, Any]]", last.input)
    return [item["output"] for item in items if item.get("type") == "function_call_output"]


async def record(path: Path) -> list[Any]:
    cassette = SandboxCassette(path)
    client = UnixLocalSandboxClient()
    session = await client.create(manifest=Manifest())
    try:
        async with session:
            cassette.record(session)
            model = script()
            await run_desk(session, model)
    finally:
        await client.delete(session)
    cassette.save()
    return tool_outputs(model)


@pytest.mark.asyncio
async def test_a_real_local_session_replays_without_the_sandbox(tmp_path: Path) -> None:
    path = tmp_path / "desk.sandbox.json"
    recorded = await record(path)

    calls = json.loads(path.read_text())["calls"]
    assert [call["method"] for call in calls] == ["write", "apply_patch", "read", "exec"]
    assert recorded[2] == "Paris\n"
    assert recorded[3] == "notes.md\ntrip.md\n[exit 0]"

    sandbox = SandboxCassette(path).replay()
    assert isinstance(sandbox, ScriptedSandboxSession)
    model = script()
    async with sandbox:
        result = await run_desk(sandbox, model)

    assert result.final_output == "Done."
    assert tool_outputs(model) == recorded
    assert [call.method for call in sandbox.calls] == ["write", "apply_patch", "read", "exec"]
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_re_recording_the_same_run_gives_the_same_bytes(tmp_path: Path) -> None:
    await record(tmp_path / "a.json")
    await record(tmp_path / "b.json")
    assert (tmp_path / "a.json").read_text() == (tmp_path / "b.json").read_text()
    assert "/tmp" not in (tmp_path / "a.json").read_text()


@pytest.mark.asyncio
async def test_drift_in_the_agents_commands_fails_with_the_diff(tmp_path: Path) -> None:
    path = tmp_path / "desk.sandbox.json"
    await record(path)
    sandbox = SandboxCassette(path).replay()

    async with sandbox:
        await run_desk(sandbox, script(listing_command="ls -la"))

    # The SDK turned the failed command into tool output; assert_complete() still
    # reports the diff.
    with pytest.raises(SandboxCallMismatch) as caught:
        sandbox.assert_complete()
    assert caught.value.call_index == 3
    assert caught.value.differences == ("exec().args[0]: recorded 'ls', now 'ls -la'",)


@pytest.mark.asyncio
async def test_a_result_that_contains_itself_is_handed_on_and_refuses_the_write(
    tmp_path: Path,
) -> None:
    """A recorded session may answer with a value that refers back to itself: the call
    gets it as with the session alone, and writing the cassette is refused naming the
    cycle, never a ``RecursionError``."""
    from agents_testing.core.cassette import CassetteWriteError
    from agents_testing.sandbox import scripted_sandbox_session

    looped: dict[str, Any] = {"exit_code": 0}
    looped["self"] = looped
    session = scripted_sandbox_session([{"method": "exec", "responder": lambda call: looped}])
    cassette = SandboxCassette(tmp_path / "looped.json")

    async with cassette.record(session):
        handed: Any = await session.exec("ls")
        assert handed is looped

    with pytest.raises(CassetteWriteError) as raised:
        cassette.save()
    assert str(raised.value).startswith(
        f"Refusing to write the cassette {cassette.path}: exec() result['self'] refers back "
        "to exec() result, so the value contains itself (a cycle). "
    )
    assert not cassette.exists
