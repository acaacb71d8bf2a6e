"""Usage budgets over real runs: totals, per agent, cost, streamed runs and resumed runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from agents import Agent, RunConfig, Usage, function_tool

from agents_testing.model import (
    InvalidModelArgument,
    ModelCassette,
    ModelPrice,
    ModelStep,
    ScriptedModel,
    UnpricedModel,
    UsageBudgetExceeded,
    UsageReport,
    approve,
    assert_usage,
    assistant_message,
    function_call,
    handoff_call,
    run_with_approvals,
    usage_report,
)

from ..conftest import RunAgent, StreamedRun

PRICES = {
    "gpt-4.1": ModelPrice(input=2.0, output=8.0, cached_input=0.5),
    "gpt-4.1-mini": {"input": 0.4, "output": 1.6},
}


def usage(input_tokens: int, output_tokens: int, cached: int = 0, reasoning: int = 0) -> Usage:
    return Usage(
        requests=1,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        total_tokens=input_tokens + output_tokens,
        # Details made from the defaults, so they fit the installed openai's fields.
        input_tokens_details=Usage().input_tokens_details.model_copy(
            update={"cached_tokens": cached}
        ),
        output_tokens_details=Usage().output_tokens_details.model_copy(
            update={"reasoning_tokens": reasoning}
        ),
    )


@function_tool
def search(city: str) -> str:
    """Search flights."""
    return f"TD101 to {city}"


def two_agents() -> Agent[Any]:
    """Triage (one request) hands off to Booking (two requests), each with its model name."""
    booking = Agent(
        name="Booking",
        model=ScriptedModel(
            [
                ModelStep(
                    output=[function_call("search", {"city": "Tokyo"}, call_id="c1")],
                    usage=usage(1000, 200, cached=400, reasoning=50),
                ),
                ModelStep(output=[assistant_message("Booked.")], usage=usage(1500, 100)),
            ]
        ),
        tools=[search],
    )
    triage = Agent(
        name="Triage",
        model=ScriptedModel([ModelStep(output=[handoff_call(booking)], usage=usage(300, 20))]),
        handoffs=[booking],
    )
    return triage


def result_of(run: Any) -> Any:
    return run.result if isinstance(run, StreamedRun) else run


@pytest.mark.asyncio
async def test_the_report_adds_up_each_request_per_agent_and_in_total(
    run: RunAgent, streamed: bool
) -> None:
    result = result_of(await run(two_agents(), "Book Tokyo", streamed=streamed))

    report = assert_usage(result, max_requests=3, max_total_tokens=3120)

    assert (report.total.requests, report.total.input_tokens, report.total.output_tokens) == (
        3,
        2800,
        320,
    )
    assert (report.total.cached_tokens, report.total.reasoning_tokens) == (400, 50)
    assert list(report.by_agent) == ["Triage", "Booking"]
    assert report.by_agent["Booking"].total_tokens == 2800
    assert [(r.agent, r.usage.total_tokens) for r in report.requests] == [
        ("Triage", 320),
        ("Booking", 1200),
        ("Booking", 1600),
    ]
    assert report.total.cost is None


@pytest.mark.asyncio
async def test_a_run_over_budget_fails_with_a_readable_breakdown(
    run: RunAgent, streamed: bool
) -> None:
    result = result_of(await run(two_agents(), "Book Tokyo", streamed=streamed))

    with pytest.raises(UsageBudgetExceeded) as caught:
        assert_usage(result, max_requests=2, max_output_tokens=300, max_input_tokens=5000)

    error = caught.value
    assert error.exceeded == {"max_requests": (2, 3), "max_output_tokens": (300, 320)}
    text = str(error)
    assert text.startswith(
        "The run is over budget: 3 requests > max_requests=2; 320 output tokens > "
        "max_output_tokens=300."
    )
    assert "agent Booking" in text
    assert "  #3 Booking" in text
    assert isinstance(error, AssertionError)


@pytest.mark.asyncio
async def test_the_cost_comes_from_the_price_table_per_model(run: RunAgent) -> None:
    result = await run(two_agents(), "Book Tokyo", streamed=False)

    report = usage_report(
        result, prices=PRICES, model={"Triage": "gpt-4.1-mini", "Booking": "gpt-4.1"}
    )

    # Triage: 300 in, 20 out at mini prices; Booking: 2500 in (400 cached), 300 out.
    triage = (300 * 0.4 + 20 * 1.6) / 1e6
    booking = (2100 * 2.0 + 400 * 0.5 + 300 * 8.0) / 1e6
    assert report.by_agent["Triage"].cost == pytest.approx(triage)
    assert report.by_agent["Booking"].cost == pytest.approx(booking)
    assert report.total.cost == pytest.approx(triage + booking)
    assert [r.model for r in report.requests] == ["gpt-4.1-mini", "gpt-4.1", "gpt-4.1"]
    with pytest.raises(UsageBudgetExceeded, match=r"cost 0\.00\d+ > max_cost=0\.001"):
        assert_usage(result, max_cost=0.001, prices=PRICES, model="gpt-4.1")
    assert "cost" in str(report).splitlines()[0]


@pytest.mark.asyncio
async def test_an_agent_naming_its_model_is_priced_without_help(run: RunAgent) -> None:
    agent = Agent(
        name="Chat",
        model=ScriptedModel([ModelStep(output=[assistant_message("Hi")], usage=usage(10, 5))]),
    )
    result = await run(agent, "Hi", streamed=False)
    result.last_agent.model = "gpt-4.1-mini"  # what the agent said, read from the run's agent

    report = usage_report(result, prices=PRICES)

    assert report.requests[0].model == "gpt-4.1-mini"
    assert report.total.cost == pytest.approx((10 * 0.4 + 5 * 1.6) / 1e6)


@pytest.mark.asyncio
async def test_a_budget_on_one_agent_counts_only_its_requests(run: RunAgent) -> None:
    result = await run(two_agents(), "Book Tokyo", streamed=False)

    assert_usage(result, agent="Triage", max_total_tokens=320, max_requests=1)
    with pytest.raises(UsageBudgetExceeded, match="Agent 'Booking' is over budget"):
        assert_usage(result, agent="Booking", max_total_tokens=2000)


@pytest.mark.asyncio
async def test_a_run_resumed_after_approvals_counts_every_leg_once() -> None:
    @function_tool(needs_approval=True)
    def book(flight: str) -> str:
        """Book."""
        return "Booked."

    model = ScriptedModel(
        [
            ModelStep(
                output=[function_call("book", {"flight": "TD101"}, call_id="c1")],
                usage=usage(100, 10),
            ),
            ModelStep(output=[assistant_message("Done.")], usage=usage(200, 20)),
        ]
    )
    approvals = await run_with_approvals(
        Agent(name="Desk", model=model, tools=[book]),
        "Book",
        decide=approve("book"),
        round_trip=True,
        run_config=RunConfig(tracing_disabled=True),
    )

    report = assert_usage(approvals, max_requests=2, max_total_tokens=330)

    assert report.total.total_tokens == 330


# -- bad input --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("budgets", "argument"),
    [
        ({"max_total_tokens": -1}, "max_total_tokens"),
        ({"max_requests": 1.5}, "max_requests"),
        ({"max_input_tokens": True}, "max_input_tokens"),
        ({"max_cost": float("nan"), "prices": PRICES}, "max_cost"),
        ({"max_cost": 1.0}, "prices"),
        ({"prices": {"gpt-4.1": {"input": 1}}}, "prices['gpt-4.1']"),
        ({"prices": {"gpt-4.1": ModelPrice(input=-1, output=1)}}, "prices['gpt-4.1'].input"),
        ({"model": 4}, "model"),
        ({"agent": "Nobody"}, "agent"),
    ],
)
@pytest.mark.asyncio
async def test_a_bad_budget_is_refused_naming_it(
    run: RunAgent, budgets: dict[str, Any], argument: str
) -> None:
    result = await run(two_agents(), "Book Tokyo", streamed=False)

    with pytest.raises(InvalidModelArgument) as caught:
        assert_usage(result, **budgets)

    assert caught.value.argument == argument


@pytest.mark.asyncio
async def test_a_model_missing_from_the_price_table_is_named_with_the_table(run: RunAgent) -> None:
    result = await run(two_agents(), "Book Tokyo", streamed=False)

    with pytest.raises(UnpricedModel) as caught:
        usage_report(result, prices=PRICES, model="o3")
    assert (caught.value.model, caught.value.agent) == ("o3", "Triage")
    assert caught.value.known_models == ("gpt-4.1", "gpt-4.1-mini")
    assert "prices={'o3': ModelPrice(input=..., output=...)}" in str(caught.value)

    with pytest.raises(UnpricedModel, match="Pass model="):
        usage_report(result, prices=PRICES)  # the scripted models have no name


@pytest.mark.asyncio
async def test_an_unfinished_streamed_run_or_other_value_is_refused() -> None:
    from agents import Runner

    streaming = Runner.run_streamed(two_agents(), "Hi", run_config=RunConfig(tracing_disabled=True))

    with pytest.raises(InvalidModelArgument, match="finished run"):
        assert_usage(streaming, max_requests=1)
    async for _ in streaming.stream_events():
        pass
    with pytest.raises(InvalidModelArgument, match="RunResult"):
        assert_usage("a run", max_requests=1)
    assert isinstance(assert_usage(streaming), UsageReport)


@pytest.mark.asyncio
async def test_a_cassette_replay_is_held_to_the_usage_it_recorded(
    tmp_path: Path, run: RunAgent, streamed: bool
) -> None:
    path = tmp_path / "booking.json"
    recording = ModelCassette(path)
    real = ScriptedModel(
        [
            ModelStep(
                output=[function_call("search", {"city": "Oslo"}, call_id="c1")],
                usage=usage(900, 60),
            ),
            ModelStep(output=[assistant_message("TD101 it is.")], usage=usage(1200, 40)),
        ]
    )
    await run(
        Agent(name="Booking", model=recording.record(real), tools=[search]),
        "Oslo",
        streamed=streamed,
    )
    recording.save()

    replay = ModelCassette(path).replay()
    result = result_of(
        await run(Agent(name="Booking", model=replay, tools=[search]), "Oslo", streamed=streamed)
    )

    report = assert_usage(
        result, max_requests=2, max_total_tokens=2200, max_cost=0.01, prices=PRICES, model="gpt-4.1"
    )
    assert report.total.total_tokens == 2200
    with pytest.raises(UsageBudgetExceeded, match="2200 total tokens > max_total_tokens=2000"):
        assert_usage(result, max_total_tokens=2000)
    replay.assert_complete()


@pytest.mark.asyncio
async def test_the_model_responses_alone_are_reported_without_agents(run: RunAgent) -> None:
    result = await run(two_agents(), "Book Tokyo", streamed=False)

    report = usage_report(result.raw_responses, prices=PRICES, model="gpt-4.1")

    assert report.total.total_tokens == 3120
    assert list(report.by_agent) == ["?"]
    assert [request.agent for request in report.requests] == [None, None, None]
