"""The SDK's own retry policy meets scripted faults as it meets a real provider's failures.

Through ``Runner.run`` and ``Runner.run_streamed``, on the virtual clock: a run that
retries twice and succeeds (the back-off and ``Retry-After`` waits asserted), a run
whose retries run out (the provider's error reaches the caller), a stream cut mid-way
(what the runner surfaces), and the advice and timeouts that decide.

Retry settings, retry policies and retry advice exist on every supported SDK release
(they arrived in openai-agents 0.12); ``ModelSettings.timeout`` arrived in 0.21.1.
"""

from __future__ import annotations

import importlib
import time
from typing import Any

import openai
import pytest
from agents import Agent, ModelSettings, RunConfig, Runner
from agents.retry import ModelRetrySettings, RetryPolicy, retry_policies

from agents_testing.core import VirtualClock
from agents_testing.model import (
    ModelStep,
    ScriptedModel,
    answer_after,
    assistant_message,
    connection_reset,
    rate_limit,
    request_timeout,
    server_error,
    stream_cut,
)

from ..conftest import StreamedRun, run_agent

_HAS_TIMEOUT = "timeout" in getattr(ModelSettings, "__dataclass_fields__", {})
needs_model_timeout = pytest.mark.skipif(
    not _HAS_TIMEOUT, reason="ModelSettings.timeout exists from openai-agents 0.21.1"
)

BOOKED = [assistant_message("Your flight is booked.")]


def _http_library() -> Any:
    """The HTTP library the installed openai client runs on (httpx, or httpx2)."""
    roots = [base.__module__.partition(".")[0] for base in openai.DefaultAsyncHttpxClient.__mro__]
    return importlib.import_module(next(root for root in roots if root.startswith("httpx")))


# What a dropped connection raises: openai 3 wraps it, openai 2 lets the library's out.
DROPPED = (openai.APIConnectionError, _http_library().RemoteProtocolError)


def retrying(
    policy: RetryPolicy | None = None, *, max_retries: int = 3, **settings: Any
) -> ModelSettings:
    """Retries as the desk configures them: exponential back-off without jitter."""
    return ModelSettings(
        retry=ModelRetrySettings(
            max_retries=max_retries,
            backoff={"initial_delay": 2.0, "multiplier": 2.0, "max_delay": 10.0, "jitter": False},
            policy=policy or retry_policies.provider_suggested(),
        ),
        **settings,
    )


def desk(model: ScriptedModel, settings: ModelSettings) -> Agent[Any]:
    return Agent(name="Booking", model=model, model_settings=settings)


@pytest.mark.asyncio
async def test_a_run_retries_a_rate_limit_and_an_overload_then_succeeds_on_virtual_time(
    streamed: bool, virtual_clock: VirtualClock
) -> None:
    model = ScriptedModel([rate_limit(retry_after=3), server_error(503), BOOKED])

    started = time.perf_counter()
    result = await run_agent(desk(model, retrying()), "Book me a flight.", streamed=streamed)
    wall = time.perf_counter() - started

    assert result.final_output == "Your flight is booked."
    # The 429's Retry-After (3 s), then the policy's back-off for the second attempt
    # (2 s * 2); seven seconds pass on the clock, none on the wall.
    assert virtual_clock.sleeps == [3.0, 4.0]
    assert virtual_clock.now == 7.0
    assert wall < 5.0  # far less than the 7 s that passed on the clock, even on a busy machine
    first, second, third = model.calls
    assert first.input == second.input == third.input
    run = result.result if isinstance(result, StreamedRun) else result
    assert run.context_wrapper.usage.requests == 3  # the failed attempts count too
    model.assert_complete()


@pytest.mark.asyncio
async def test_a_run_whose_retries_run_out_raises_the_providers_last_error(
    streamed: bool, virtual_clock: VirtualClock
) -> None:
    model = ScriptedModel([rate_limit(message=f"Limit hit, attempt {n}.") for n in (1, 2, 3)])

    with pytest.raises(openai.RateLimitError, match="attempt 3") as caught:
        await run_agent(desk(model, retrying(max_retries=2)), "Book it.", streamed=streamed)

    assert caught.value.status_code == 429
    assert len(model.calls) == 3
    assert virtual_clock.sleeps == [1.0, 1.0]  # Retry-After: 1, the default
    model.assert_complete()


@pytest.mark.asyncio
async def test_a_stream_cut_mid_answer_is_not_retried_and_reaches_the_consumer(
    virtual_clock: VirtualClock,
) -> None:
    model = ScriptedModel([stream_cut(5, [assistant_message("Your flight is booked.")]), BOOKED])
    policy = retry_policies.any(retry_policies.provider_suggested(), retry_policies.network_error())
    result = Runner.run_streamed(
        desk(model, retrying(policy)), "Book it.", run_config=RunConfig(tracing_disabled=True)
    )
    seen: list[str] = []

    async def consume() -> None:
        async for event in result.stream_events():
            if event.type == "raw_response_event":
                seen.append(event.data.type)

    # What a dropped connection raises (openai 3: APIConnectionError; openai 2: the HTTP
    # library's RemoteProtocolError); output had begun, so the SDK does not replay it.
    with pytest.raises(DROPPED, match=r"^Connection error\.$|^peer closed connection"):
        await consume()
    assert len(model.calls) == 1
    assert model.remaining_steps == 1
    assert virtual_clock.sleeps == []
    cut_stream = [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.content_part.added",
        "response.output_text.delta",
    ]
    assert seen == cut_stream[: len(seen)]


@pytest.mark.asyncio
async def test_a_stream_cut_before_any_output_is_retried_as_a_network_error(
    streamed: bool, virtual_clock: VirtualClock
) -> None:
    # Only response.created and response.in_progress came: nothing was shown yet, and a
    # non-streamed call met the cut as a body cut short. Either way a network error.
    model = ScriptedModel([stream_cut(2, BOOKED), BOOKED])

    result = await run_agent(
        desk(model, retrying(retry_policies.network_error())), "Book it.", streamed=streamed
    )

    assert result.final_output == "Your flight is booked."
    assert len(model.calls) == 2
    assert virtual_clock.sleeps == [2.0]


@pytest.mark.asyncio
async def test_a_reset_connection_and_a_request_timeout_are_retried_as_network_errors(
    streamed: bool, virtual_clock: VirtualClock
) -> None:
    model = ScriptedModel([connection_reset(), request_timeout(delay=600), BOOKED])

    result = await run_agent(
        desk(model, retrying(retry_policies.network_error())), "Book it.", streamed=streamed
    )

    assert result.final_output == "Your flight is booked."
    # The timed-out request ran for the client's 600 s before it failed.
    assert virtual_clock.sleeps == [2.0, 4.0]
    assert virtual_clock.delays == [600.0]
    assert virtual_clock.now == 606.0


@pytest.mark.asyncio
async def test_the_provider_can_forbid_a_retry_with_x_should_retry(
    streamed: bool, virtual_clock: VirtualClock
) -> None:
    model = ScriptedModel([server_error(503, headers={"x-should-retry": "false"}), BOOKED])

    with pytest.raises(openai.InternalServerError):
        await run_agent(desk(model, retrying()), "Book it.", streamed=streamed)

    assert len(model.calls) == 1
    assert model.remaining_steps == 1


@pytest.mark.asyncio
async def test_a_request_chained_to_a_previous_response_is_retried_only_on_the_providers_word(
    streamed: bool, virtual_clock: VirtualClock
) -> None:
    # The SDK replays a request that continues a stored response only when the provider
    # calls the replay safe, as OpenAI's advice does for a 429; without advice it refuses.
    advised = ScriptedModel([rate_limit(retry_after=2), BOOKED])
    result = await run_agent(
        desk(advised, retrying()), "Book it.", streamed=streamed, previous_response_id="resp_1"
    )
    assert result.final_output == "Your flight is booked."
    assert [call.previous_response_id for call in advised.calls] == ["resp_1", "resp_1"]

    unadvised = ScriptedModel([rate_limit(retry_after=2, retry_advice=None), BOOKED])
    with pytest.raises(openai.RateLimitError):
        await run_agent(
            desk(unadvised, retrying(retry_policies.retry_after())),
            "Book it.",
            streamed=streamed,
            previous_response_id="resp_1",
        )
    assert len(unadvised.calls) == 1


@pytest.mark.asyncio
async def test_a_slow_answer_takes_its_time_on_the_clock(
    streamed: bool, virtual_clock: VirtualClock
) -> None:
    model = ScriptedModel([answer_after(30, BOOKED)])

    result = await run_agent(Agent(name="Booking", model=model), "Book it.", streamed=streamed)

    assert result.final_output == "Your flight is booked."
    assert virtual_clock.delays == [30.0]
    assert virtual_clock.sleeps == []
    assert virtual_clock.now == 30.0


@needs_model_timeout
@pytest.mark.asyncio
async def test_a_slow_answer_past_the_model_timeout_fails_the_call_and_the_retry_answers(
    streamed: bool, virtual_clock: VirtualClock
) -> None:
    from agents.exceptions import ModelTimeoutError

    late = ScriptedModel([answer_after(30, BOOKED)])
    with pytest.raises(ModelTimeoutError):
        await run_agent(
            Agent(name="Booking", model=late, model_settings=ModelSettings(timeout=10)),
            "Book it.",
            streamed=streamed,
        )
    assert virtual_clock.now == 10.0

    retried = ScriptedModel([answer_after(30, [assistant_message("Too late.")]), BOOKED])
    settings = retrying(retry_policies.network_error(), timeout=10)
    result = await run_agent(desk(retried, settings), "Book it.", streamed=streamed)

    # The scripted slow step answered the call that timed out; the retry took the next one
    # after the back-off: 10 s to the timeout, 2 s of back-off.
    assert result.final_output == "Your flight is booked."
    assert len(retried.calls) == 2
    assert virtual_clock.now == 10.0 + 12.0


@pytest.mark.asyncio
async def test_a_scripted_fault_is_one_step_of_the_script(streamed: bool) -> None:
    """Without a retry policy the fault's error ends the run, as a provider's would."""
    model = ScriptedModel([server_error(500), BOOKED])

    with pytest.raises(openai.InternalServerError, match="500"):
        await run_agent(Agent(name="Booking", model=model), "Book it.", streamed=streamed)

    assert model.remaining_steps == 1
    assert isinstance(model.pending_steps[0], ModelStep)
