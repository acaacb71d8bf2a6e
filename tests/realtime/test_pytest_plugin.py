"""The ``scripted_realtime_model`` fixture: models with the extra checks, unless told otherwise."""

from __future__ import annotations

import pytest
from agents.realtime import (
    RealtimeAgent,
    RealtimeModelSendInterrupt,
    RealtimeModelSendUserInput,
    RealtimeRunner,
)

from agents_testing.realtime import (
    InvalidRealtimeStep,
    RealtimeStep,
    ScriptedRealtimeModelFactory,
    UnexpectedRealtimeSend,
)

SECRET = "my one-time code is 424242"


def test_the_fixture_makes_the_extra_checks_by_default(
    scripted_realtime_model: ScriptedRealtimeModelFactory,
) -> None:
    with pytest.raises(InvalidRealtimeStep, match="strict must be a bool"):
        scripted_realtime_model(strict=0)  # type: ignore[arg-type]
    with pytest.raises(InvalidRealtimeStep, match="step 1: "):
        scripted_realtime_model([RealtimeStep(expect="Hello")])  # type: ignore[arg-type]


@pytest.mark.agents_testing(extra_checks=False)
def test_the_marker_turns_the_extra_checks_off(
    scripted_realtime_model: ScriptedRealtimeModelFactory,
) -> None:
    model = scripted_realtime_model(strict=0)  # type: ignore[arg-type]
    assert model.remaining_steps == 0


def test_an_argument_turns_the_extra_checks_off_for_one_model(
    scripted_realtime_model: ScriptedRealtimeModelFactory,
) -> None:
    model = scripted_realtime_model(strict=0, extra_checks=False)  # type: ignore[arg-type]
    assert model.remaining_steps == 0


@pytest.mark.agents_testing(extra_checks=False)
def test_an_argument_wins_over_the_marker(
    scripted_realtime_model: ScriptedRealtimeModelFactory,
) -> None:
    with pytest.raises(InvalidRealtimeStep, match="strict must be a bool"):
        scripted_realtime_model(strict=0, extra_checks=True)  # type: ignore[arg-type]


@pytest.mark.asyncio
async def test_fixture_models_keep_sent_content_out_of_their_errors(
    scripted_realtime_model: ScriptedRealtimeModelFactory,
) -> None:
    model = scripted_realtime_model([RealtimeStep(expect=RealtimeModelSendInterrupt)])
    runner = RealtimeRunner(RealtimeAgent(name="Assistant"), model=model)

    async with await runner.run() as session:
        with pytest.raises(UnexpectedRealtimeSend, match="expectation") as caught:
            await session.send_message(SECRET)
        await session.interrupt()

    assert caught.value.actual == RealtimeModelSendUserInput(user_input=SECRET)
    assert "424242" not in str(caught.value)
