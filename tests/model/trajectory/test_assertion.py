"""Trajectory assertions over real runs: sources, order modes, argument modes and matchers."""

from __future__ import annotations

import json
from typing import Any
from unittest.mock import ANY

import pytest
from agents import Agent, RunConfig, Runner, function_tool
from agents.result import RunResult, RunResultStreaming
from agents.testing import (
    HandoffStep,
    ScriptedModel,
    ToolCallStep,
    Trajectory,
    TrajectoryMismatch,
    assert_trajectory,
    assistant_message,
    function_call,
    handoff_to,
    tool_call,
)
from pydantic import BaseModel


class Stay(BaseModel):
    city: str
    nights: int


@function_tool
def get_weather(city: str) -> str:
    """The weather of a city."""
    return f"Sunny in {city}"


@function_tool
def book_hotel(stay: Stay, guests: int) -> str:
    """Book a hotel stay."""
    return f"Booked {stay.nights} nights in {stay.city} for {guests}"


@function_tool
def refund(amount: int) -> str:
    """Refund an amount."""
    return f"Refunded {amount}"


class StartsWith:
    """A small matcher: equal to any str with the prefix; remembers what it was compared to."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.seen: list[object] = []

    def __eq__(self, other: object) -> bool:
        self.seen.append(other)
        return isinstance(other, str) and other.startswith(self.prefix)

    def __hash__(self) -> int:
        return hash(self.prefix)

    def __repr__(self) -> str:
        return f"StartsWith({self.prefix!r})"


def travel_desk() -> tuple[Agent[Any], ScriptedModel, ScriptedModel]:
    """Triage checks the weather twice (one turn), books a hotel, hands off to Billing,
    which refunds; the trajectory has five steps."""
    billing_model = ScriptedModel(
        [
            [function_call("refund", {"amount": 30}, call_id="call_r1")],
            [assistant_message("Refunded.")],
        ]
    )
    billing = Agent(name="Billing", model=billing_model, tools=[refund])
    triage_model = ScriptedModel(
        [
            [
                function_call("get_weather", {"city": "Tokyo"}, call_id="call_w1"),
                function_call("get_weather", {"city": "Osaka"}, call_id="call_w2"),
            ],
            [
                function_call(
                    "book_hotel",
                    {"stay": {"city": "Tokyo", "nights": 2}, "guests": 1},
                    call_id="call_b1",
                )
            ],
            [function_call("transfer_to_billing", "{}", call_id="call_h1")],
        ]
    )
    triage = Agent(
        name="Triage", model=triage_model, tools=[get_weather, book_hotel], handoffs=[billing]
    )
    return triage, triage_model, billing_model


async def run_desk(run: Any, streamed: bool) -> RunResult | RunResultStreaming:
    triage, _, _ = travel_desk()
    outcome = await run(triage, "Plan my trip", streamed=streamed)
    return outcome.result if streamed else outcome  # type: ignore[no-any-return]


FULL = [
    tool_call("get_weather", {"city": "Tokyo"}, output="Sunny in Tokyo"),
    tool_call("get_weather", {"city": "Osaka"}, output="Sunny in Osaka"),
    tool_call("book_hotel", {"stay": {"city": "Tokyo", "nights": 2}, "guests": 1}),
    handoff_to("Billing", source="Triage"),
    tool_call("refund", {"amount": 30}, output="Refunded 30"),
]


@pytest.mark.asyncio
async def test_strict_order_matches_every_call_and_handoff_of_the_run(
    run: Any, streamed: bool
) -> None:
    result = await run_desk(run, streamed)

    trajectory = assert_trajectory(result, FULL)

    assert trajectory.tool_names == ["get_weather", "get_weather", "book_hotel", "refund"]
    assert trajectory.handoffs == (
        HandoffStep(target="Billing", source="Triage", call_id="call_h1"),
    )
    assert trajectory.tool_calls[3] == ToolCallStep(
        name="refund",
        arguments={"amount": 30},
        output="Refunded 30",
        kind="function_call",
        agent="Billing",
        call_id="call_r1",
    )


@pytest.mark.asyncio
async def test_strict_order_fails_when_two_calls_are_swapped(run: Any, streamed: bool) -> None:
    result = await run_desk(run, streamed)
    swapped = [FULL[1], FULL[0], *FULL[2:]]

    with pytest.raises(TrajectoryMismatch) as caught:
        assert_trajectory(result, swapped)

    assert caught.value.order == "strict"
    assert (caught.value.expected_index, caught.value.actual_index) == (0, 0)
    assert caught.value.reason == (
        "step 1 differs: arguments['city']: expected 'Osaka', got 'Tokyo'."
    )
    assert caught.value.expected == tuple(swapped)
    assert caught.value.actual == Trajectory.of(result).steps


@pytest.mark.asyncio
async def test_strict_order_fails_when_the_run_took_an_extra_step(run: Any, streamed: bool) -> None:
    result = await run_desk(run, streamed)

    with pytest.raises(TrajectoryMismatch) as caught:
        assert_trajectory(result, FULL[:4])

    assert (caught.value.expected_index, caught.value.actual_index) == (None, 4)
    assert caught.value.reason == (
        "expected 4 step(s), got 5: actual step 5 tool_call('refund', {'amount': 30}, "
        "output='Refunded 30') was not expected."
    )


@pytest.mark.asyncio
async def test_unordered_accepts_the_same_steps_in_any_order(run: Any, streamed: bool) -> None:
    result = await run_desk(run, streamed)

    assert_trajectory(result, list(reversed(FULL)), order="unordered")

    with pytest.raises(TrajectoryMismatch) as caught:
        assert_trajectory(result, list(reversed(FULL[1:])), order="unordered")
    assert caught.value.reason == (
        "actual step 1 tool_call('get_weather', {'city': 'Tokyo'}, output='Sunny in Tokyo') "
        "was not expected."
    )


@pytest.mark.asyncio
async def test_unordered_counts_repeated_steps(run: Any, streamed: bool) -> None:
    result = await run_desk(run, streamed)
    twice_tokyo = [tool_call("get_weather", {"city": "Tokyo"})] * 2 + FULL[2:]

    with pytest.raises(TrajectoryMismatch) as caught:
        assert_trajectory(result, twice_tokyo, order="unordered")

    assert caught.value.expected_index == 1
    assert caught.value.actual_index == 1


@pytest.mark.asyncio
async def test_subset_finds_expected_steps_among_others_in_their_relative_order(
    run: Any, streamed: bool
) -> None:
    result = await run_desk(run, streamed)

    assert_trajectory(result, [tool_call("book_hotel"), handoff_to("Billing")], order="subset")

    with pytest.raises(TrajectoryMismatch) as caught:
        assert_trajectory(result, [handoff_to("Billing"), tool_call("book_hotel")], order="subset")
    assert caught.value.expected_index == 1
    assert caught.value.reason == (
        "expected step 2 tool_call('book_hotel') did not happen after actual step 4."
    )


@pytest.mark.asyncio
async def test_superset_accepts_a_run_that_took_only_allowed_steps(
    run: Any, streamed: bool
) -> None:
    result = await run_desk(run, streamed)
    allowed = [*FULL[:2], tool_call("get_weather"), *FULL[2:], tool_call("refund")]

    assert_trajectory(result, allowed, order="superset")

    with pytest.raises(TrajectoryMismatch) as caught:
        assert_trajectory(result, [*FULL[:3], *FULL[4:]], order="superset")
    assert (caught.value.expected_index, caught.value.actual_index) == (None, 3)
    assert caught.value.reason == (
        "actual step 4 handoff_to('Billing', source='Triage') is not among the expected "
        "steps after expected step 3."
    )


@pytest.mark.asyncio
async def test_exact_arguments_reject_a_missing_or_an_extra_key(run: Any, streamed: bool) -> None:
    result = await run_desk(run, streamed)
    partial = tool_call("book_hotel", {"stay": {"city": "Tokyo"}, "guests": 1})
    extra = tool_call("book_hotel", {"stay": {"city": "Tokyo", "nights": 2}})

    for expected, reason in (
        (partial, "arguments['stay']: unexpected key 'nights' (value 2)"),
        (extra, "arguments: unexpected key 'guests' (value 1)"),
    ):
        with pytest.raises(TrajectoryMismatch) as caught:
            assert_trajectory(result, [expected], order="subset")
        assert caught.value.reason.endswith(f"(nearest: actual step 3, {reason}).")


@pytest.mark.asyncio
async def test_subset_arguments_allow_extra_keys_at_any_depth(run: Any, streamed: bool) -> None:
    result = await run_desk(run, streamed)

    assert_trajectory(
        result,
        [tool_call("book_hotel", {"stay": {"city": "Tokyo"}})],
        order="subset",
        arguments="subset",
    )
    with pytest.raises(TrajectoryMismatch) as caught:
        assert_trajectory(
            result,
            [tool_call("book_hotel", {"stay": {"country": "Japan"}})],
            order="subset",
            arguments="subset",
        )
    assert caught.value.reason.endswith(
        "(nearest: actual step 3, arguments['stay']: missing key 'country')."
    )


@pytest.mark.asyncio
async def test_ignored_arguments_compare_names_and_outputs_only(run: Any, streamed: bool) -> None:
    result = await run_desk(run, streamed)
    wrong_arguments = [
        tool_call("get_weather", {"city": "Paris"}, output="Sunny in Tokyo"),
        tool_call("get_weather", {"city": "Rome"}),
        tool_call("book_hotel", {}),
        handoff_to("Billing"),
        tool_call("refund", {"amount": 1}),
    ]

    assert_trajectory(result, wrong_arguments, arguments="ignore")
    with pytest.raises(TrajectoryMismatch):
        assert_trajectory(result, wrong_arguments)


@pytest.mark.asyncio
async def test_omitted_arguments_and_output_are_not_checked(run: Any, streamed: bool) -> None:
    result = await run_desk(run, streamed)

    assert_trajectory(
        result,
        [
            tool_call("get_weather"),
            tool_call("get_weather"),
            tool_call("book_hotel"),
            handoff_to("Billing"),
            tool_call("refund"),
        ],
    )


@pytest.mark.asyncio
async def test_matchers_work_at_any_depth_and_for_whole_arguments(run: Any, streamed: bool) -> None:
    result = await run_desk(run, streamed)
    city = StartsWith("Tok")

    assert_trajectory(
        result,
        [
            tool_call("get_weather", {"city": city}, output=StartsWith("Sunny")),
            tool_call("get_weather", ANY, output=ANY),
            tool_call("book_hotel", {"stay": {"city": city, "nights": ANY}, "guests": ANY}),
            handoff_to("Billing"),
            tool_call("refund", {"amount": ANY}),
        ],
    )

    # The expected side is on the left: the matcher's __eq__ saw the actual values.
    assert city.seen == ["Tokyo", "Tokyo"]


@pytest.mark.asyncio
async def test_a_failing_matcher_is_shown_in_the_reason(run: Any, streamed: bool) -> None:
    result = await run_desk(run, streamed)

    with pytest.raises(TrajectoryMismatch) as caught:
        assert_trajectory(
            result, [tool_call("get_weather", {"city": StartsWith("Kyo")})], order="subset"
        )

    assert caught.value.reason == (
        "expected step 1 tool_call('get_weather', {'city': StartsWith('Kyo')}) did not happen "
        "(nearest: actual step 1, arguments['city']: expected StartsWith('Kyo'), got 'Tokyo')."
    )


@pytest.mark.asyncio
async def test_expected_output_is_compared_with_what_the_tool_returned(
    run: Any, streamed: bool
) -> None:
    result = await run_desk(run, streamed)

    with pytest.raises(TrajectoryMismatch) as caught:
        assert_trajectory(
            result, [tool_call("get_weather", output="Rain in Tokyo")], order="subset"
        )

    assert caught.value.reason.endswith(
        "(nearest: actual step 1, output: expected 'Rain in Tokyo', got 'Sunny in Tokyo')."
    )


@pytest.mark.asyncio
async def test_handoff_and_tool_call_can_name_the_agent(run: Any, streamed: bool) -> None:
    triage, _, _ = travel_desk()
    outcome = await run(triage, "Plan my trip", streamed=streamed)
    result = outcome.result if streamed else outcome
    billing = triage.handoffs[0]

    assert_trajectory(
        result,
        [handoff_to(billing, source=triage), tool_call("refund", agent="Billing")],
        order="subset",
    )
    with pytest.raises(TrajectoryMismatch) as caught:
        assert_trajectory(result, [tool_call("refund", agent=triage)], order="subset")
    assert caught.value.reason.endswith(
        "(nearest: actual step 5, expected the call from agent 'Triage', got it from 'Billing')."
    )
    with pytest.raises(TrajectoryMismatch) as caught:
        assert_trajectory(result, [handoff_to("Billing", source="Sales")], order="subset")
    assert caught.value.reason.endswith(
        "(nearest: actual step 4, expected the handoff from 'Sales', got it from 'Triage')."
    )


@pytest.mark.asyncio
async def test_a_model_trajectory_is_what_that_model_answered(run: Any, streamed: bool) -> None:
    triage, triage_model, billing_model = travel_desk()
    await run(triage, "Plan my trip", streamed=streamed)

    # The model does not know which agent asked, and the outputs are the text it was sent.
    assert Trajectory.of(triage_model).steps == (
        ToolCallStep(
            "get_weather", {"city": "Tokyo"}, "Sunny in Tokyo", "function_call", None, "call_w1"
        ),
        ToolCallStep(
            "get_weather", {"city": "Osaka"}, "Sunny in Osaka", "function_call", None, "call_w2"
        ),
        ToolCallStep(
            "book_hotel",
            {"stay": {"city": "Tokyo", "nights": 2}, "guests": 1},
            "Booked 2 nights in Tokyo for 1",
            "function_call",
            None,
            "call_b1",
        ),
        HandoffStep("Billing", None, "call_h1"),
    )
    assert_trajectory(
        billing_model.calls, [tool_call("refund", {"amount": 30}, output="Refunded 30")]
    )
    assert_trajectory(triage_model, [*FULL[:3], handoff_to("Billing")])
    with pytest.raises(TrajectoryMismatch) as caught:
        assert_trajectory(triage_model, FULL[:4])
    assert caught.value.reason == (
        "step 4 differs: expected the handoff from 'Triage', but which agent handed off is "
        "not known (a model's calls do not record it)."
    )
    assert Trajectory.of(triage_model.calls[:1]).tool_names == ["get_weather", "get_weather"]


@pytest.mark.asyncio
async def test_a_model_trajectory_from_explicit_stream_events(run: Any, streamed: bool) -> None:
    from agents.testing import ModelStep
    from openai.types.responses import ResponseCompletedEvent

    async def events(call: Any) -> Any:
        response = _completed_response(
            [function_call("get_weather", {"city": "Nara"}, call_id="c")]
        )
        yield ResponseCompletedEvent(
            type="response.completed", response=response, sequence_number=0
        )

    model = ScriptedModel(
        [
            ModelStep.stream(
                events, output=[function_call("get_weather", {"city": "Nara"}, call_id="c")]
            ),
            [assistant_message("Done.")],
        ]
    )
    await run(Agent(name="Guide", model=model, tools=[get_weather]), "Nara?", streamed=streamed)

    assert_trajectory(model, [tool_call("get_weather", {"city": "Nara"}, output="Sunny in Nara")])


def _completed_response(output: list[Any]) -> Any:
    from openai.types.responses import Response

    return Response(
        id="resp_1",
        created_at=0,
        model="scripted",
        object="response",
        output=output,
        parallel_tool_calls=True,
        tool_choice="auto",
        tools=[],
    )


@pytest.mark.asyncio
async def test_hosted_tool_calls_are_named_by_their_item_type() -> None:
    from openai.types.responses import ResponseFunctionWebSearch
    from openai.types.responses.response_function_web_search import ActionSearch

    search = ResponseFunctionWebSearch(
        id="ws_1",
        type="web_search_call",
        status="completed",
        action=ActionSearch(type="search", query="Tokyo weather"),
    )
    model = ScriptedModel([[search, assistant_message("It is sunny.")]])
    result = await Runner.run(
        Agent(name="Searcher", model=model), "Weather?", run_config=RunConfig(tracing_disabled=True)
    )

    trajectory = assert_trajectory(
        result,
        [tool_call("web_search_call", {"action": {"query": "Tokyo weather"}})],
        arguments="subset",
    )
    step = trajectory[0]
    assert isinstance(step, ToolCallStep)
    assert (step.name, step.kind, step.call_id) == ("web_search_call", "web_search_call", "ws_1")
    assert_trajectory(model, [tool_call("web_search_call", ANY)])


@pytest.mark.asyncio
async def test_an_unfinished_streamed_run_asks_for_its_events_first() -> None:
    from agents.testing import InvalidModelArgument

    triage, _, _ = travel_desk()
    result = Runner.run_streamed(triage, "Plan", run_config=RunConfig(tracing_disabled=True))

    with pytest.raises(InvalidModelArgument) as caught:
        assert_trajectory(result, FULL)

    assert str(caught.value) == (
        "Invalid argument Trajectory.of(source): expected a finished run (iterate "
        "result.stream_events() to the end first), got a RunResultStreaming that is still "
        "running."
    )
    assert caught.value.argument == "Trajectory.of(source)"
    async for _ in result.stream_events():
        pass
    assert_trajectory(result, FULL)


@pytest.mark.asyncio
async def test_the_snapshot_is_plain_json_data_the_same_for_both_runners(run: Any) -> None:
    snapshots = []
    for streamed in (False, True):
        result = await run_desk(run, streamed)
        snapshots.append(Trajectory.of(result).__agents_testing_snapshot__())

    assert snapshots[0] == snapshots[1]
    assert json.loads(json.dumps(snapshots[0])) == [
        {
            "tool": "get_weather",
            "kind": "function_call",
            "agent": "Triage",
            "arguments": {"city": "Tokyo"},
            "output": "Sunny in Tokyo",
        },
        {
            "tool": "get_weather",
            "kind": "function_call",
            "agent": "Triage",
            "arguments": {"city": "Osaka"},
            "output": "Sunny in Osaka",
        },
        {
            "tool": "book_hotel",
            "kind": "function_call",
            "agent": "Triage",
            "arguments": {"stay": {"city": "Tokyo", "nights": 2}, "guests": 1},
            "output": "Booked 2 nights in Tokyo for 1",
        },
        {"handoff": "Billing", "source": "Triage"},
        {
            "tool": "refund",
            "kind": "function_call",
            "agent": "Billing",
            "arguments": {"amount": 30},
            "output": "Refunded 30",
        },
    ]


@pytest.mark.asyncio
async def test_a_trajectory_compares_with_another_run(run: Any) -> None:
    first = Trajectory.of(await run_desk(run, False))
    second = await run_desk(run, True)

    assert_trajectory(second, first)
    assert Trajectory.of(second) == first


@pytest.mark.asyncio
async def test_the_model_trajectory_survives_mutation_of_the_run_result() -> None:
    model = ScriptedModel(
        [[function_call("get_weather", {"city": "Kobe"}, call_id="c1")], [assistant_message("ok")]]
    )
    result = await Runner.run(
        Agent(name="Guide", model=model, tools=[get_weather]),
        "Kobe?",
        run_config=RunConfig(tracing_disabled=True),
    )

    result.raw_responses[0].output[0].arguments = '{"city": "Nara"}'  # type: ignore[union-attr]

    assert_trajectory(model, [tool_call("get_weather", {"city": "Kobe"})])


@pytest.mark.asyncio
async def test_an_mcp_call_keeps_its_tool_name_arguments_and_output() -> None:
    from openai.types.responses.response_output_item import McpCall

    mcp = McpCall(
        id="mcp_1",
        type="mcp_call",
        name="search_docs",
        server_label="docs",
        arguments='{"query": "refunds"}',
        output="3 results",
    )
    model = ScriptedModel([[mcp, assistant_message("Found three.")]])
    result = await Runner.run(
        Agent(name="Librarian", model=model),
        "Refunds?",
        run_config=RunConfig(tracing_disabled=True),
    )

    expected = [tool_call("search_docs", {"query": "refunds"}, output="3 results")]
    assert_trajectory(result, expected)
    assert_trajectory(model, expected)
    assert_trajectory(result, [tool_call("mcp_call")], arguments="ignore")
