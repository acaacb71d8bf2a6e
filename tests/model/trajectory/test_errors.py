"""Bad trajectory expectations and sources get a structured ``InvalidModelArgument``."""

from __future__ import annotations

from typing import Any

import pytest
from agents import Agent
from agents.testing import (
    NOT_CHECKED,
    InvalidModelArgument,
    ScriptedModel,
    Trajectory,
    assert_trajectory,
    assistant_message,
    handoff_to,
    tool_call,
)


async def finished_run(run: Any, streamed: bool) -> Any:
    model = ScriptedModel([[assistant_message("Hello.")]])
    outcome = await run(Agent(name="Greeter", model=model), "Hi", streamed=streamed)
    return outcome.result if streamed else outcome


@pytest.mark.asyncio
async def test_an_unknown_order_mode_is_refused(run: Any, streamed: bool) -> None:
    result = await finished_run(run, streamed)

    with pytest.raises(InvalidModelArgument) as caught:
        assert_trajectory(result, [], order="random")  # type: ignore[arg-type]

    assert str(caught.value) == (
        "Invalid argument order: expected one of 'strict', 'unordered', 'subset', "
        "'superset', got 'random'."
    )
    assert (caught.value.argument, caught.value.got) == ("order", "'random'")


@pytest.mark.asyncio
async def test_an_unknown_argument_mode_is_refused(run: Any, streamed: bool) -> None:
    result = await finished_run(run, streamed)

    with pytest.raises(InvalidModelArgument) as caught:
        assert_trajectory(result, [], arguments="fuzzy")  # type: ignore[arg-type]

    assert str(caught.value) == (
        "Invalid argument arguments: expected one of 'exact', 'subset', 'ignore', got 'fuzzy'."
    )


@pytest.mark.asyncio
async def test_an_expectation_that_is_not_a_step_is_refused(run: Any, streamed: bool) -> None:
    result = await finished_run(run, streamed)

    with pytest.raises(InvalidModelArgument) as caught:
        assert_trajectory(result, [tool_call("greet"), {"name": "greet"}])  # type: ignore[list-item]

    assert str(caught.value) == (
        "Invalid argument expected[1]: expected a step made by tool_call() or handoff_to(), "
        "got dict {'name': 'greet'}."
    )
    assert caught.value.argument == "expected[1]"


@pytest.mark.asyncio
async def test_a_single_step_instead_of_a_list_is_refused(run: Any, streamed: bool) -> None:
    result = await finished_run(run, streamed)

    with pytest.raises(InvalidModelArgument) as caught:
        assert_trajectory(result, "greet")  # type: ignore[arg-type]

    assert str(caught.value) == (
        "Invalid argument expected: expected a sequence of steps made by tool_call() and "
        "handoff_to(), got str 'greet'."
    )


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ({"when": object()}, "arguments['when'] holds object <object object at"),
        ({"tags": {"a", "b"}}, "arguments['tags'] holds set {"),
        ({"nested": [{"raw": b"x"}]}, "arguments['nested'][0]['raw'] holds bytes b'x'"),
        ({1: "one"}, "arguments has a non-str key 1"),
    ],
)
def test_arguments_that_are_not_json_or_matchers_are_refused(arguments: Any, problem: str) -> None:
    with pytest.raises(InvalidModelArgument) as caught:
        tool_call("lookup", arguments)

    assert caught.value.argument == "tool_call(arguments)"
    assert caught.value.expected == (
        "a mapping of JSON data (values may be matchers), a matcher or a JSON str"
    )
    assert caught.value.got.startswith(problem)
    assert str(caught.value).startswith(
        "Invalid argument tool_call(arguments): expected a mapping of JSON data (values may "
        "be matchers), a matcher or a JSON str, got " + problem
    )


def test_json_string_arguments_are_decoded_and_other_text_is_kept() -> None:
    assert tool_call("lookup", '{"city": "Tokyo"}').arguments == {"city": "Tokyo"}
    assert tool_call("patch", "*** Begin Patch").arguments == "*** Begin Patch"
    assert tool_call("lookup").arguments is NOT_CHECKED


@pytest.mark.parametrize(
    ("build", "argument", "got"),
    [
        (lambda: tool_call(""), "tool_call(name)", "str ''"),
        (
            lambda: tool_call(None),  # type: ignore[arg-type]
            "tool_call(name)",
            "NoneType None",
        ),
        (lambda: tool_call("x", agent=3), "tool_call(agent)", "int 3"),
        (lambda: handoff_to(None), "handoff_to(target)", "NoneType None"),
        (lambda: handoff_to(""), "handoff_to(target)", "str ''"),
        (lambda: handoff_to("Billing", source=["Triage"]), "handoff_to(source)", "list ['Triage']"),
    ],
)
def test_bad_builder_arguments_are_refused(build: Any, argument: str, got: str) -> None:
    with pytest.raises(InvalidModelArgument) as caught:
        build()

    assert (caught.value.argument, caught.value.got) == (argument, got)


def test_an_unsupported_source_is_refused() -> None:
    with pytest.raises(InvalidModelArgument) as caught:
        Trajectory.of({"new_items": []})

    assert str(caught.value) == (
        "Invalid argument Trajectory.of(source): expected a RunResult, a finished "
        "RunResultStreaming, a ScriptedModel, a sequence of its ModelCall records or a "
        "sequence of run items, got dict {'new_items': []}."
    )


@pytest.mark.asyncio
async def test_a_mixed_sequence_source_is_refused(run: Any, streamed: bool) -> None:
    model = ScriptedModel([[assistant_message("Hello.")]])
    outcome = await run(Agent(name="Greeter", model=model), "Hi", streamed=streamed)
    result = outcome.result if streamed else outcome

    with pytest.raises(InvalidModelArgument):
        Trajectory.of([*model.calls, *result.new_items])
    assert Trajectory.of(result.new_items) == Trajectory.of(model.calls) == Trajectory([])


def test_a_trajectory_built_by_hand_takes_only_steps() -> None:
    assert Trajectory([handoff_to("Billing")]).handoffs == (handoff_to("Billing"),)

    with pytest.raises(InvalidModelArgument) as caught:
        Trajectory([handoff_to("Billing"), "refund"])  # type: ignore[list-item]

    assert str(caught.value) == (
        "Invalid argument Trajectory(steps)[1]: expected a step made by tool_call() or "
        "handoff_to(), got str 'refund'."
    )
