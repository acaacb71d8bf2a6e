"""A FaultSchedule injects failures at given calls of a scripted model or a cassette replay.

An injected fault is an extra call: recorded, but taking no step, so the SDK's retry
gets the step it stood in front of and the same script (or recording) runs with
failures added.
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import openai
import pytest
from agents import Agent, ModelSettings, RunConfig, Runner, function_tool
from agents.models.interface import ModelTracing
from agents.retry import ModelRetrySettings, retry_policies

from agents_testing.core import UnconsumedStepsError, VirtualClock
from agents_testing.model import (
    FaultSchedule,
    InvalidModelArgument,
    ModelCassette,
    ModelFault,
    ModelRequestMismatch,
    ModelStep,
    ScriptedModel,
    UnusedModelFaults,
    answer_after,
    assistant_message,
    connection_reset,
    function_call,
    rate_limit,
    server_error,
    stream_cut,
)

from ..conftest import run_agent
from .test_retries import DROPPED

_HAS_TIMEOUT = "timeout" in getattr(ModelSettings, "__dataclass_fields__", {})

RETRY = ModelSettings(
    retry=ModelRetrySettings(
        max_retries=2,
        backoff={"initial_delay": 2.0, "jitter": False},
        policy=retry_policies.any(
            retry_policies.provider_suggested(), retry_policies.network_error()
        ),
    )
)

searched: list[str] = []


@function_tool
def search_flights(city: str) -> str:
    """Find flights to a city."""
    searched.append(city)
    return f"TD101 to {city}"


@function_tool
def book_flight(flight: str) -> str:
    """Book a flight."""
    return f"Booked {flight}: BK0001"


def booking_script() -> list[Any]:
    return [
        [function_call("search_flights", {"city": "Tokyo"}, call_id="s1")],
        [function_call("book_flight", {"flight": "TD101"}, call_id="b1")],
        [function_call("search_flights", {"city": "Osaka"}, call_id="s2")],
        [assistant_message("Booked TD101 (BK0001); Osaka has flights too.")],
    ]


def booking_agent(model: Any) -> Agent[Any]:
    return Agent(
        name="Booking", model=model, model_settings=RETRY, tools=[search_flights, book_flight]
    )


@pytest.mark.asyncio
async def test_the_third_call_gets_a_429_and_the_fifth_a_cut_stream_and_the_run_still_books(
    streamed: bool, virtual_clock: VirtualClock
) -> None:
    searched.clear()
    model = ScriptedModel(booking_script())
    schedule = FaultSchedule({3: rate_limit(), 5: stream_cut(2)})
    assert schedule.attach(model) is model

    result = await run_agent(booking_agent(model), "Book TD101 to Tokyo.", streamed=streamed)

    assert result.final_output == "Booked TD101 (BK0001); Osaka has flights too."
    # Four steps answered four calls; the two injected calls took none.
    assert len(model.calls) == 6
    assert model.remaining_steps == 0
    assert [number for number, _ in schedule.injected] == [3, 5]
    assert schedule.pending == {}
    # Each retry sent the request the fault interrupted.
    assert model.calls[2].input == model.calls[3].input
    assert model.calls[4].input == model.calls[5].input
    assert searched == ["Tokyo", "Osaka"]  # no tool ran twice
    # Retry-After: 1 for the 429; the back-off's first delay for the dropped stream.
    assert virtual_clock.sleeps == [1.0, 2.0]
    model.assert_complete()


@pytest.mark.asyncio
async def test_a_recorded_run_replays_with_faults_injected(
    tmp_path: Path, streamed: bool, virtual_clock: VirtualClock
) -> None:
    path = tmp_path / "booking.json"
    recording = ModelCassette(path)
    searched.clear()
    await run_agent(
        booking_agent(recording.record(ScriptedModel(booking_script()))),
        "Book TD101 to Tokyo.",
        streamed=streamed,
    )
    recording.save()

    replay = ModelCassette(path).replay()
    FaultSchedule({1: server_error(503), 4: connection_reset()}).attach(replay)
    result = await run_agent(booking_agent(replay), "Book TD101 to Tokyo.", streamed=streamed)

    assert result.final_output == "Booked TD101 (BK0001); Osaka has flights too."
    assert replay.recorded_calls == 4
    assert len(replay.calls) == 6
    replay.assert_complete()  # every recorded call was replayed, every fault injected


@pytest.mark.asyncio
async def test_a_replay_with_faults_still_compares_each_request_with_the_recording(
    tmp_path: Path, virtual_clock: VirtualClock
) -> None:
    path = tmp_path / "greeting.json"
    recording = ModelCassette(path)
    await Runner.run(
        Agent(name="Desk", model=recording.record(ScriptedModel([[assistant_message("Hi!")]]))),
        "Hello",
        run_config=RunConfig(tracing_disabled=True),
    )
    recording.save()

    provider = ModelCassette(path).replay_provider()
    assert FaultSchedule({1: rate_limit()}).attach(provider) is provider
    agent = Agent(name="Desk", model_settings=RETRY)
    with pytest.raises(ModelRequestMismatch, match=r"request\.input"):
        await Runner.run(
            agent, "Hello?", run_config=RunConfig(model_provider=provider, tracing_disabled=True)
        )

    # The fault was injected first; the retry met the changed prompt.
    assert len(provider.model.calls) == 2


@pytest.mark.asyncio
async def test_a_scheduled_cut_streams_the_first_events_of_the_next_step_with_its_call_ids() -> (
    None
):
    model = ScriptedModel([[function_call("search_flights", {"city": "Tokyo"})]])
    FaultSchedule({1: stream_cut(3)}).attach(model)
    request: dict[str, Any] = {
        "system_instructions": None,
        "input": "Flights to Tokyo?",
        "model_settings": ModelSettings(),
        "tools": [],
        "output_schema": None,
        "handoffs": [],
        "tracing": ModelTracing.DISABLED,
    }

    cut_events: list[Any] = []

    async def consume() -> None:
        async for event in model.stream_response(**request):
            cut_events.append(event)

    with pytest.raises(DROPPED):
        await consume()
    full: list[Any] = [event async for event in model.stream_response(**request)]

    assert [event.type for event in cut_events] == [event.type for event in full[:3]]
    assert cut_events[2].item.call_id == "call_1"
    assert full[2].item.call_id == "call_1"
    assert full[-1].type == "response.completed"
    model.assert_complete()


@pytest.mark.asyncio
async def test_a_scheduled_slow_call_waits_then_takes_the_next_step(
    streamed: bool, virtual_clock: VirtualClock
) -> None:
    model = ScriptedModel([[assistant_message("Checking.")], [assistant_message("Done.")]])
    FaultSchedule({1: answer_after(5)}).attach(model)

    result = await run_agent(Agent(name="Desk", model=model), "Hi", streamed=streamed)

    assert result.final_output == "Checking."
    assert virtual_clock.delays == [5.0]
    assert len(model.calls) == 1
    assert model.remaining_steps == 1


@pytest.mark.skipif(
    not _HAS_TIMEOUT, reason="ModelSettings.timeout exists from openai-agents 0.21.1"
)
@pytest.mark.asyncio
async def test_a_scheduled_slow_call_past_the_timeout_leaves_its_step_to_the_retry(
    streamed: bool, virtual_clock: VirtualClock
) -> None:
    model = ScriptedModel([[assistant_message("Your flight is booked.")]])
    FaultSchedule({1: answer_after(30)}).attach(model)
    settings = ModelSettings(
        timeout=10,
        retry=ModelRetrySettings(
            max_retries=1,
            backoff={"initial_delay": 2.0, "jitter": False},
            policy=retry_policies.network_error(),
        ),
    )

    result = await run_agent(
        Agent(name="Desk", model=model, model_settings=settings), "Book it.", streamed=streamed
    )

    assert result.final_output == "Your flight is booked."
    assert len(model.calls) == 2
    assert virtual_clock.now == 12.0  # the 10 s timeout, then 2 s of back-off


@pytest.mark.parametrize(
    ("faults", "argument", "expected"),
    [
        ({0: rate_limit()}, "FaultSchedule(faults)[0]", "call numbers counted from 1"),
        ({-2: rate_limit()}, "FaultSchedule(faults)[-2]", "call numbers counted from 1"),
        ({"3": rate_limit()}, "FaultSchedule(faults)", "ints counted from 1"),
        ({True: rate_limit()}, "FaultSchedule(faults)", "ints counted from 1"),
        ({2: [assistant_message("Hi")]}, "FaultSchedule(faults)[2]", "a fault: rate_limit"),
        ({2: RuntimeError("down")}, "FaultSchedule(faults)[2]", "a fault: rate_limit"),
        (
            {2: answer_after(5, [assistant_message("Hi")])},
            "FaultSchedule(faults)[2]",
            "without a step",
        ),
        ([rate_limit()], "FaultSchedule(faults)", "a mapping of call numbers"),
    ],
    ids=["zero", "negative", "str", "bool", "items", "exception", "slow-with-step", "list"],
)
def test_a_bad_schedule_is_refused_when_built(faults: Any, argument: str, expected: str) -> None:
    with pytest.raises(InvalidModelArgument) as caught:
        FaultSchedule(faults)

    assert caught.value.argument == argument
    assert expected in caught.value.expected


def test_a_schedule_attaches_to_one_scripted_model_or_replay() -> None:
    from agents_testing.model import ModelCassette

    with pytest.raises(InvalidModelArgument, match="a ScriptedModel, a CassetteModel"):
        FaultSchedule({1: rate_limit()}).attach(object())  # type: ignore[type-var]
    recording = ModelCassette("unused.json").record(ScriptedModel())
    with pytest.raises(InvalidModelArgument, match="record the run first"):
        FaultSchedule({1: rate_limit()}).attach(recording)  # type: ignore[type-var]

    schedule = FaultSchedule({1: rate_limit()})
    first = schedule.attach(ScriptedModel())
    assert schedule.model is first
    with pytest.raises(InvalidModelArgument, match="already attached"):
        schedule.attach(ScriptedModel())
    with pytest.raises(InvalidModelArgument, match="has one already"):
        FaultSchedule({2: rate_limit()}).attach(first)


@pytest.mark.asyncio
async def test_faults_whose_calls_never_came_fail_assert_complete(streamed: bool) -> None:
    model = ScriptedModel([[assistant_message("Hi!")]])
    fault = rate_limit()
    schedule = FaultSchedule({2: fault, 5: stream_cut(1)})
    schedule.attach(model)

    await run_agent(Agent(name="Desk", model=model), "Hello", streamed=streamed)

    with pytest.raises(UnusedModelFaults) as caught:
        model.assert_complete()
    error = caught.value
    assert isinstance(error, UnconsumedStepsError)
    assert list(error.pending_faults) == [2, 5]
    assert error.pending_faults[2].kind == "rate_limit"
    assert (error.calls, error.remaining_steps) == (1, 2)
    assert str(error).startswith(
        "2 scheduled model fault(s) were never injected: call #2 (rate_limit()), "
        "call #5 (stream_cut(after=1)); the model got 1 call(s)."
    )
    copy = pickle.loads(pickle.dumps(error))
    assert (list(copy.pending_faults), copy.calls, str(copy)) == ([2, 5], 1, str(error))


@pytest.mark.asyncio
async def test_a_scheduled_cut_longer_than_the_next_step_fails_the_call_clearly(
    streamed: bool,
) -> None:
    model = ScriptedModel([[assistant_message("Hi!")]])
    FaultSchedule({1: stream_cut(40)}).attach(model)

    if not streamed:
        # A call that does not stream meets the cut as a body cut short, whatever its length.
        with pytest.raises(openai.APIConnectionError, match=r"^Connection error\.$"):
            await run_agent(Agent(name="Desk", model=model), "Hello", streamed=False)
        return
    with pytest.raises(InvalidModelArgument) as caught:
        await run_agent(Agent(name="Desk", model=model), "Hello", streamed=True)
    assert caught.value.argument == "FaultSchedule(faults)[1]: stream_cut(after)"
    assert "the 9 the next step streams" in caught.value.expected
    assert model.remaining_steps == 1


@pytest.mark.asyncio
async def test_a_scheduled_cut_needs_a_next_step_whose_events_are_known() -> None:
    model = ScriptedModel([ModelStep.respond(lambda call: [assistant_message("Hi!")])])
    FaultSchedule({1: stream_cut(2)}).attach(model)

    with pytest.raises(InvalidModelArgument, match="a responder, an error or a stream factory"):
        await run_agent(Agent(name="Desk", model=model), "Hello", streamed=True)


def test_the_schedule_shows_its_faults_by_call() -> None:
    schedule = FaultSchedule({5: stream_cut(2), 3: rate_limit(retry_after=2)})

    assert repr(schedule) == (
        "FaultSchedule({3: rate_limit(retry_after=2.0), 5: stream_cut(after=2)})"
    )
    assert list(schedule.pending) == [3, 5]
    assert all(isinstance(fault, ModelFault) for fault in schedule.pending.values())
    assert schedule.injected == ()
    assert schedule.model is None
