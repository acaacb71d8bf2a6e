"""The ``scripted_sandbox`` fixture: sessions with the stricter checks on unless a test opts out."""

from __future__ import annotations

import io
from typing import Any

import pytest
from agents.sandbox.capabilities import Filesystem

from agents_testing.model import ScriptedModel, assistant_message, function_call
from agents_testing.sandbox import (
    InvalidSandboxStep,
    ScriptedSandboxFactory,
    UnconsumedSandboxSteps,
    UnexpectedSandboxCall,
)

WRONGLY_TYPED = {"method": "exec", "result": b"not an ExecResult"}


def test_the_fixture_turns_the_extra_checks_on(scripted_sandbox: ScriptedSandboxFactory) -> None:
    with pytest.raises(InvalidSandboxStep, match=r"exec returns an agents\.sandbox\.ExecResult"):
        scripted_sandbox([WRONGLY_TYPED])  # type: ignore[list-item]
    assert scripted_sandbox().extra_checks is True


@pytest.mark.agents_testing(extra_checks=False)
@pytest.mark.asyncio
async def test_the_marker_turns_the_extra_checks_off(
    scripted_sandbox: ScriptedSandboxFactory,
) -> None:
    sandbox = scripted_sandbox([WRONGLY_TYPED])  # type: ignore[list-item]
    assert sandbox.extra_checks is False
    async with sandbox:
        served: object = await sandbox.exec("pwd")
    assert served == b"not an ExecResult"


@pytest.mark.agents_testing(extra_checks=False)
def test_a_keyword_wins_over_the_marker(scripted_sandbox: ScriptedSandboxFactory) -> None:
    with pytest.raises(InvalidSandboxStep):
        scripted_sandbox([WRONGLY_TYPED], extra_checks=True)  # type: ignore[list-item]


@pytest.mark.asyncio
async def test_a_keyword_turns_the_extra_checks_off_for_one_session(
    scripted_sandbox: ScriptedSandboxFactory,
) -> None:
    sandbox = scripted_sandbox([WRONGLY_TYPED], extra_checks=False)  # type: ignore[list-item]
    async with sandbox:
        served: object = await sandbox.exec("pwd")
    assert served == b"not an ExecResult"


def _write_then_view_model() -> ScriptedModel:
    return ScriptedModel(
        [
            [function_call("view_image", {"path": "a.png"}, call_id="c1")],
            [assistant_message("I could not see it")],
        ]
    )


@pytest.mark.parametrize("extra_checks", [True, False], ids=["fixture-default", "opted-out"])
@pytest.mark.agents_testing(assert_complete=False)
@pytest.mark.asyncio
async def test_a_violation_the_sdk_swallowed_is_raised_again_unless_opted_out(
    scripted_sandbox: ScriptedSandboxFactory, run_sandbox: Any, extra_checks: bool
) -> None:
    sandbox = scripted_sandbox(
        [{"method": "write", "result": None}, {"method": "read", "result": io.BytesIO(b"PNG")}],
        extra_checks=None if extra_checks else False,
    )
    async with sandbox:
        result = await run_sandbox(sandbox, _write_then_view_model(), [Filesystem()])

    # The image viewer turned the unexpected read into tool output.
    assert result.final_output == "I could not see it"
    if extra_checks:
        with pytest.raises(UnexpectedSandboxCall):
            sandbox.assert_complete()
    else:
        with pytest.raises(UnconsumedSandboxSteps, match=r"has 2 unconsumed step\(s\)"):
            sandbox.assert_complete()
