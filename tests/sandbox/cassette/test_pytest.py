"""The ``sandbox_cassette`` fixture, driven through a throw-away test."""

from __future__ import annotations

import json

import pytest

INI = """
[pytest]
asyncio_mode = strict
asyncio_default_fixture_loop_scope = function
"""

TEST = """
import pytest
from agents import RunConfig, Runner
from agents.run_config import SandboxRunConfig
from agents.sandbox import SandboxAgent
from agents.sandbox.capabilities import Shell
from agents.sandbox.manifest import Manifest
from agents.sandbox.sandboxes.unix_local import UnixLocalSandboxClient
from agents.testing import ScriptedModel, assistant_message, function_call

CLIENT = UnixLocalSandboxClient()


@pytest.mark.asyncio
async def test_echo(sandbox_cassette):
    session = await sandbox_cassette.session(lambda: CLIENT.create(manifest=Manifest()))
    model = ScriptedModel(
        [
            [function_call("exec_command", {{"cmd": "{command}"}}, call_id="c1")],
            [assistant_message("ok")],
        ]
    )
    agent = SandboxAgent(name="Shell", model=model, capabilities=[Shell()])
    async with session:
        await Runner.run(
            agent,
            "Go.",
            run_config=RunConfig(sandbox=SandboxRunConfig(session=session), tracing_disabled=True),
        )
    assert "hello" in str(model.last_call.input)
"""


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.delenv("CI", raising=False)
    pytester.makeini(INI)
    return pytester


def test_once_records_the_local_session_and_none_replays_it(project: pytest.Pytester) -> None:
    project.makepyfile(test_echo=TEST.format(command="echo hello"))

    project.runpytest().assert_outcomes(failed=1)
    project.runpytest("--agents-record-mode=once").assert_outcomes(passed=1)

    cassette = project.path / "cassettes" / "test_echo" / "test_echo.sandbox.json"
    calls = json.loads(cassette.read_text())["calls"]
    assert [call["method"] for call in calls] == ["pty_exec_start"], calls
    project.runpytest().assert_outcomes(passed=1)

    project.makepyfile(test_echo=TEST.format(command="echo hello there"))
    result = project.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*recorded 'echo hello', now 'echo hello there'*"])


CLASS_TEST = """
import pytest
from agents import trace
from agents.sandbox.manifest import Manifest
from agents.sandbox.sandboxes.unix_local import UnixLocalSandboxClient
from agents.tracing.traces import NoOpTrace

CLIENT = UnixLocalSandboxClient()


class TestDesk:
    @pytest.mark.asyncio
    async def test_echo(self, sandbox_cassette):
        session = await sandbox_cassette.session(lambda: CLIENT.create(manifest=Manifest()))
        async with session:
            await session.exec("echo hello")
        # Recording or replaying, SDK tracing is off: nothing to export.
        with trace("desk") as current:
            assert isinstance(current, NoOpTrace)
"""


def test_a_sandbox_cassette_is_named_by_class_and_tracing_is_off(
    project: pytest.Pytester,
) -> None:
    project.makepyfile(test_echo=CLASS_TEST)

    project.runpytest("--agents-record-mode=once").assert_outcomes(passed=1)
    project.runpytest().assert_outcomes(passed=1)

    folder = project.path / "cassettes" / "test_echo"
    assert [path.name for path in folder.iterdir()] == ["TestDesk.test_echo.sandbox.json"]
    calls = json.loads((folder / "TestDesk.test_echo.sandbox.json").read_text())["calls"]
    assert [call["method"] for call in calls] == ["exec"]
