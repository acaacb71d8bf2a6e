"""The property-based smoke mode: argument sets drawn from the tools' schemas under @given."""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Iterator
from typing import Any, Literal

import pytest
from agents import Agent, RunConfig, Runner, function_tool
from hypothesis import HealthCheck, Phase, given, settings
from pydantic import BaseModel, Field

from agents_testing.core.json_schema import first_violation
from agents_testing.model import InvalidModelArgument, SmokeModel, smoke_arguments, tool_arguments

# Each example of a runner test is a whole run: a few suffice everyday, and
# HYPOTHESIS_PROFILE=thorough (tests/conftest.py) searches as wide as it says.
EXAMPLES = 6 if os.environ.get("HYPOTHESIS_PROFILE", "ci") == "ci" else settings().max_examples
FAST = settings(max_examples=EXAMPLES, database=None, suppress_health_check=[HealthCheck.too_slow])


class Leg(BaseModel):
    city: str = Field(min_length=1, max_length=12)
    nights: int = Field(ge=1, le=30)


class Tree(BaseModel):
    label: str
    children: list[Tree] = Field(default_factory=list)


@function_tool
def book(
    legs: list[Leg],
    cabin: Literal["economy", "business"],
    code: str = Field(pattern=r"^[A-Z]{3}\d$"),
) -> str:
    """Book a trip."""
    return f"{len(legs)} leg(s)"


@function_tool
def outline(tree: Tree, depth: int | None = None) -> str:
    """Outline a tree."""
    return tree.label


@function_tool
def nights_left(nights: int) -> str:
    """Nights left in a budget of ten: breaks past the budget."""
    if nights > 9:
        raise ValueError("over budget")
    return f"{10 - nights} left"


@pytest.fixture(scope="module")
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    """One event loop for every example of a module: a new loop per example costs more
    than the run itself."""
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


@FAST
@given(tool_arguments(book))
def test_drawn_arguments_fit_the_tools_schema(arguments: dict[str, Any]) -> None:
    assert first_violation(arguments, book.params_json_schema) is None
    assert isinstance(arguments["legs"], list)


@FAST
@given(tool_arguments(outline.params_json_schema))
def test_a_recursive_schema_is_drawn_from_too(arguments: dict[str, Any]) -> None:
    assert first_violation(arguments, outline.params_json_schema) is None


@FAST
@given(smoke_arguments([book], calls_per_tool=2))
def test_each_drawn_set_is_played_through_the_runner(
    loop: asyncio.AbstractEventLoop, arguments: dict[str, Any]
) -> None:
    smoke = SmokeModel(arguments=arguments, calls_per_tool=2)
    agent = Agent(name="Desk", model=smoke, tools=[book])

    loop.run_until_complete(Runner.run(agent, "Go", run_config=RunConfig(tracing_disabled=True)))

    assert [call.arguments for call in smoke.report["book"].calls] == arguments["book"]
    smoke.assert_tools_ok()


def test_the_property_mode_finds_the_argument_that_breaks_a_tool(
    loop: asyncio.AbstractEventLoop,
) -> None:
    agent = Agent(name="Budget", tools=[nights_left])

    # Found, not shrunk: shrinking would replay the run many times over.
    @settings(max_examples=50, database=None, phases=[Phase.generate])
    @given(smoke_arguments(agent))
    def property(arguments: dict[str, Any]) -> None:
        smoke = SmokeModel(arguments=arguments)
        run = Runner.run(
            agent.clone(model=smoke), "Go", run_config=RunConfig(tracing_disabled=True)
        )
        loop.run_until_complete(run)
        assert smoke.failed_tools == [], arguments

    with pytest.raises(AssertionError) as caught:
        property()

    found = re.search(r"\{'nights_left': \[\{'nights': (-?\d+)\}\]\}", str(caught.value))
    assert found is not None
    assert int(found.group(1)) > 9


def test_an_unknown_tool_name_is_refused_naming_the_agents_tools() -> None:
    agent = Agent(name="Desk", tools=[book, outline])

    with pytest.raises(InvalidModelArgument) as caught:
        smoke_arguments(agent, tools=["bok"])

    assert caught.value.argument == "smoke_arguments(tools)"
    assert "book, outline" in caught.value.expected


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda: smoke_arguments([book], calls_per_tool=0), "calls_per_tool"),
        (lambda: smoke_arguments("book"), "smoke_arguments(agent_or_tools)"),
        (lambda: tool_arguments("book"), "tool_arguments(tool)"),
    ],
)
def test_bad_arguments_are_refused(call: Any, argument: str) -> None:
    with pytest.raises(InvalidModelArgument) as caught:
        call()

    assert caught.value.argument == argument
