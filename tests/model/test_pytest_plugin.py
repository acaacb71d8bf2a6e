"""The model fixtures turn our extra checks on; the marker or an argument turns them off."""

from __future__ import annotations

from typing import Any

import pytest
from agents import Agent
from agents.testing import (
    InvalidModelStep,
    ScriptedModelFactory,
    ScriptedModelProviderFactory,
    assistant_message,
)


class Boom(RuntimeError):
    pass


def _error_with_output() -> dict[str, Any]:
    # Refused only with extra checks: response fields next to an error.
    return {"error": Boom("down"), "output": [assistant_message("never")]}


def test_the_fixture_model_makes_the_extra_checks(scripted_model: ScriptedModelFactory) -> None:
    with pytest.raises(InvalidModelStep) as raised:
        scripted_model([_error_with_output()])

    assert raised.value.reason == "conflicting_outcomes"
    assert "extra_checks=True" in str(raised.value)


@pytest.mark.agents_testing(extra_checks=False)
@pytest.mark.asyncio
async def test_the_marker_turns_the_extra_checks_off(
    scripted_model: ScriptedModelFactory, run: Any, streamed: bool
) -> None:
    model = scripted_model([_error_with_output()])

    with pytest.raises(Boom):
        await run(Agent(name="A", model=model), "Hi", streamed=streamed)


@pytest.mark.agents_testing(assert_complete=False)
def test_an_argument_turns_them_off_despite_the_marker(
    scripted_model: ScriptedModelFactory,
) -> None:
    model = scripted_model([_error_with_output()], extra_checks=False)

    assert model.remaining_steps == 1


@pytest.mark.agents_testing(extra_checks=False)
def test_an_argument_turns_them_on_despite_the_marker(
    scripted_model: ScriptedModelFactory,
) -> None:
    with pytest.raises(InvalidModelStep, match=r"cannot be combined"):
        scripted_model([_error_with_output()], extra_checks=True)


def test_the_provider_fixture_makes_its_models_with_the_extra_checks(
    scripted_model_provider: ScriptedModelProviderFactory,
) -> None:
    with pytest.raises(InvalidModelStep) as raised:
        scripted_model_provider(default=[_error_with_output()])

    assert raised.value.reason == "conflicting_outcomes"


@pytest.mark.agents_testing(extra_checks=False)
@pytest.mark.asyncio
async def test_the_marker_turns_the_provider_models_extra_checks_off(
    scripted_model_provider: ScriptedModelProviderFactory, run: Any, streamed: bool
) -> None:
    scripted_model_provider(default=[_error_with_output()])

    with pytest.raises(Boom):
        await run(Agent(name="A", model="gpt-4.1"), "Hi", streamed=streamed)
