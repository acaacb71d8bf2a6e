"""Model failures at the desk: retried when the provider says so, surfaced otherwise.

Recipe: error injection and retry.
"""

from __future__ import annotations

import pytest
from agents import ModelRetryAdvice
from agents.testing import ModelStep, assistant_message

from ._types import OpenDesk, ScriptModel


@pytest.mark.asyncio
async def test_a_transient_failure_is_retried_when_the_provider_suggests_it(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    model = scripted_model(
        [
            ModelStep.raise_error(
                RuntimeError("temporary failure"),
                retry_advice=ModelRetryAdvice(suggested=True, replay_safety="safe"),
            ),
            [assistant_message("Hello! Where would you like to fly?")],
        ]
    )
    desk = open_desk(model)

    result = await desk.ask("Hi there")

    assert result.final_output == "Hello! Where would you like to fly?"
    # The retry is a second model call with the same request.
    first, retry = model.calls
    assert retry.input == first.input
    assert result.context_wrapper.usage.requests == 2


@pytest.mark.asyncio
async def test_a_failure_without_retry_advice_reaches_the_caller(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    model = scripted_model([ModelStep.raise_error(RuntimeError("model unavailable"))])
    desk = open_desk(model)

    with pytest.raises(RuntimeError, match="model unavailable"):
        await desk.ask("Hi there")

    assert len(model.calls) == 1


@pytest.mark.asyncio
async def test_the_provider_can_veto_a_retry(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    model = scripted_model(
        [
            ModelStep.raise_error(
                RuntimeError("context too long"),
                retry_advice=ModelRetryAdvice(suggested=False, reason="request too large"),
            )
        ]
    )
    desk = open_desk(model)

    with pytest.raises(RuntimeError, match="context too long"):
        await desk.ask("Hi there")

    assert len(model.calls) == 1


@pytest.mark.asyncio
async def test_the_desk_gives_up_after_two_retries(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    # retry_after=0 asks for an immediate retry, so the test does not wait for backoff.
    advice = ModelRetryAdvice(suggested=True, retry_after=0, replay_safety="safe")
    model = scripted_model(
        [
            ModelStep.raise_error(RuntimeError(f"failure {n}"), retry_advice=advice)
            for n in (1, 2, 3)
        ]
    )
    desk = open_desk(model)

    with pytest.raises(RuntimeError, match="failure 3"):
        await desk.ask("Hi there")

    assert len(model.calls) == 3
