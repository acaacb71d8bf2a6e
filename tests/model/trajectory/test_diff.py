"""The step-by-step diff of a failed trajectory assertion, checked in full for each order mode."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from agents import Agent, function_tool
from agents.result import RunResult, RunResultStreaming
from agents.testing import (
    ModelScriptError,
    ScriptedModel,
    TrajectoryMismatch,
    assert_trajectory,
    assistant_message,
    function_call,
    handoff_to,
    tool_call,
)


@function_tool
def get_weather(city: str) -> str:
    """The weather of a city."""
    return f"Sunny in {city}"


@function_tool
def refund(amount: int) -> str:
    """Refund an amount."""
    return f"Refunded {amount}"


async def support_run(run: Any, streamed: bool) -> RunResult | RunResultStreaming:
    """Triage checks the weather and hands off to Billing, which refunds 30."""
    billing_model = ScriptedModel(
        [
            [function_call("refund", {"amount": 30}, call_id="call_3")],
            [assistant_message("Refunded.")],
        ]
    )
    billing = Agent(name="Billing", model=billing_model, tools=[refund])
    model = ScriptedModel(
        [
            [function_call("get_weather", {"city": "Tokyo"}, call_id="call_1")],
            [function_call("transfer_to_billing", "{}", call_id="call_2")],
        ]
    )
    triage = Agent(name="Triage", model=model, tools=[get_weather], handoffs=[billing])
    outcome = await run(triage, "Refund me", streamed=streamed)
    return outcome.result if streamed else outcome  # type: ignore[no-any-return]


ACTUAL = """\
Actual (3 steps):
  {m1} 1  tool_call('get_weather', {{'city': 'Tokyo'}}, output='Sunny in Tokyo'){n1}
  {m2} 2  handoff_to('Billing', source='Triage'){n2}
  {m3} 3  tool_call('refund', {{'amount': 30}}, output='Refunded 30'){n3}
(> marks the first divergence; steps count from 1.)"""


def actual(marked: int | None = None, matched: dict[int, int] | None = None) -> str:
    fields: dict[str, str] = {}
    for number in (1, 2, 3):
        fields[f"m{number}"] = ">" if number == marked else " "
        partner = (matched or {}).get(number)
        fields[f"n{number}"] = "" if partner is None else f"  = expected {partner}"
    return ACTUAL.format(**fields)


@pytest.mark.asyncio
async def test_strict_diff_marks_the_first_differing_step_on_both_sides(
    run: Any, streamed: bool
) -> None:
    result = await support_run(run, streamed)

    with pytest.raises(TrajectoryMismatch) as caught:
        assert_trajectory(
            result,
            [
                tool_call("get_weather", {"city": "Osaka"}),
                handoff_to("Billing"),
                tool_call("refund", {"amount": 30}),
            ],
        )

    assert str(caught.value) == (
        "Trajectory does not match (order='strict', arguments='exact'): step 1 differs: "
        "arguments['city']: expected 'Osaka', got 'Tokyo'.\n"
        "Expected (3 steps):\n"
        "  > 1  tool_call('get_weather', {'city': 'Osaka'})\n"
        "    2  handoff_to('Billing')\n"
        "    3  tool_call('refund', {'amount': 30})\n" + actual(marked=1)
    )
    assert (caught.value.expected_index, caught.value.actual_index) == (0, 0)


@pytest.mark.asyncio
async def test_strict_diff_marks_an_extra_actual_step(run: Any, streamed: bool) -> None:
    result = await support_run(run, streamed)

    with pytest.raises(TrajectoryMismatch) as caught:
        assert_trajectory(
            result, [tool_call("get_weather", {"city": "Tokyo"}), handoff_to("Billing")]
        )

    assert str(caught.value) == (
        "Trajectory does not match (order='strict', arguments='exact'): expected 2 step(s), "
        "got 3: actual step 3 tool_call('refund', {'amount': 30}, output='Refunded 30') was "
        "not expected.\n"
        "Expected (2 steps):\n"
        "    1  tool_call('get_weather', {'city': 'Tokyo'})\n"
        "    2  handoff_to('Billing')\n" + actual(marked=3)
    )
    assert (caught.value.expected_index, caught.value.actual_index) == (None, 2)


@pytest.mark.asyncio
async def test_strict_diff_marks_a_missing_expected_step(run: Any, streamed: bool) -> None:
    result = await support_run(run, streamed)

    with pytest.raises(TrajectoryMismatch) as caught:
        assert_trajectory(
            result,
            [
                tool_call("get_weather"),
                handoff_to("Billing"),
                tool_call("refund"),
                tool_call("refund"),
            ],
        )

    assert str(caught.value) == (
        "Trajectory does not match (order='strict', arguments='exact'): expected 4 step(s), "
        "got 3: expected step 4 tool_call('refund') did not happen.\n"
        "Expected (4 steps):\n"
        "    1  tool_call('get_weather')\n"
        "    2  handoff_to('Billing')\n"
        "    3  tool_call('refund')\n"
        "  > 4  tool_call('refund')\n" + actual()
    )
    assert (caught.value.expected_index, caught.value.actual_index) == (3, None)


@pytest.mark.asyncio
async def test_subset_diff_names_the_missing_step_and_its_nearest_candidate(
    run: Any, streamed: bool
) -> None:
    result = await support_run(run, streamed)

    with pytest.raises(TrajectoryMismatch) as caught:
        assert_trajectory(
            result,
            [handoff_to("Billing"), tool_call("refund", {"amount": 40})],
            order="subset",
        )

    assert str(caught.value) == (
        "Trajectory does not match (order='subset', arguments='exact'): expected step 2 "
        "tool_call('refund', {'amount': 40}) did not happen after actual step 2 (nearest: "
        "actual step 3, arguments['amount']: expected 40, got 30).\n"
        "Expected (2 steps):\n"
        "    1  handoff_to('Billing')\n"
        "  > 2  tool_call('refund', {'amount': 40})\n" + actual(matched={2: 1})
    )
    assert (caught.value.expected_index, caught.value.actual_index) == (1, None)


@pytest.mark.asyncio
async def test_superset_diff_marks_the_step_nobody_expected(run: Any, streamed: bool) -> None:
    result = await support_run(run, streamed)

    with pytest.raises(TrajectoryMismatch) as caught:
        assert_trajectory(result, [handoff_to("Billing"), tool_call("refund")], order="superset")

    assert str(caught.value) == (
        "Trajectory does not match (order='superset', arguments='exact'): actual step 1 "
        "tool_call('get_weather', {'city': 'Tokyo'}, output='Sunny in Tokyo') is not among "
        "the expected steps.\n"
        "Expected (2 steps):\n"
        "    1  handoff_to('Billing')\n"
        "    2  tool_call('refund')\n" + actual(marked=1)
    )
    assert (caught.value.expected_index, caught.value.actual_index) == (None, 0)


@pytest.mark.asyncio
async def test_unordered_diff_shows_which_steps_paired_up(run: Any, streamed: bool) -> None:
    result = await support_run(run, streamed)

    with pytest.raises(TrajectoryMismatch) as caught:
        assert_trajectory(
            result,
            [tool_call("refund", {"amount": 40}), handoff_to("Billing"), tool_call("get_weather")],
            order="unordered",
            arguments="subset",
        )

    assert str(caught.value) == (
        "Trajectory does not match (order='unordered', arguments='subset'): expected step 1 "
        "tool_call('refund', {'amount': 40}) did not happen (nearest: actual step 3, "
        "arguments['amount']: expected 40, got 30).\n"
        "Expected (3 steps):\n"
        "  > 1  tool_call('refund', {'amount': 40})\n"
        "    2  handoff_to('Billing')\n"
        "    3  tool_call('get_weather')\n" + actual(marked=3, matched={1: 3, 2: 2})
    )
    assert (caught.value.expected_index, caught.value.actual_index) == (0, 2)


@pytest.mark.asyncio
async def test_a_model_that_was_never_called_has_an_empty_trajectory() -> None:
    with pytest.raises(TrajectoryMismatch) as caught:
        assert_trajectory(ScriptedModel(), [handoff_to("Billing")])

    assert str(caught.value) == (
        "Trajectory does not match (order='strict', arguments='exact'): expected 1 step(s), "
        "got 0: expected step 1 handoff_to('Billing') did not happen.\n"
        "Expected (1 step):\n"
        "  > 1  handoff_to('Billing')\n"
        "Actual (0 steps):\n"
        "     (none)\n"
        "(> marks the first divergence; steps count from 1.)"
    )


@pytest.mark.asyncio
async def test_the_mismatch_is_an_assertion_error_that_pickles_with_its_fields(
    run: Any, streamed: bool
) -> None:
    result = await support_run(run, streamed)

    with pytest.raises(AssertionError) as caught:
        assert_trajectory(result, [tool_call("refund")], order="superset")

    error = caught.value
    assert isinstance(error, TrajectoryMismatch)
    assert isinstance(error, ModelScriptError)
    copy = pickle.loads(pickle.dumps(error))
    assert str(copy) == str(error)
    assert (copy.expected, copy.actual, copy.order, copy.arguments) == (
        error.expected,
        error.actual,
        "superset",
        "exact",
    )
    assert (copy.reason, copy.expected_index, copy.actual_index) == (error.reason, None, 0)
