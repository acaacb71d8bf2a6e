"""SmokeModel through the real runner: every tool called from its schema, then a final output."""

from __future__ import annotations

import json
from typing import Any, Literal

import pytest
from agents import (
    Agent,
    GuardrailFunctionOutput,
    RunConfig,
    RunContextWrapper,
    Runner,
    function_tool,
    input_guardrail,
)
from agents.mcp import MCPServer
from pydantic import BaseModel, Field

from agents_testing.core.json_schema import first_violation
from agents_testing.mcp import ScriptedMCPServer, json_result, mcp_tool
from agents_testing.model import (
    InvalidModelArgument,
    SmokeGenerationError,
    SmokeModel,
    SmokeToolsFailed,
    Trajectory,
)

from ..conftest import RunAgent, StreamedRun


class Leg(BaseModel):
    city: str
    nights: int = Field(ge=1, le=14)


@function_tool
def book(leg: Leg, cabin: Literal["economy", "business"], note: str | None = None) -> str:
    """Book a stay."""
    return f"Booked {leg.nights} night(s) in {leg.city}."


@function_tool
def weather(city: str) -> str:
    """The weather in a city."""
    return f"{city}: sunny"


@function_tool
def broken(code: str) -> str:
    """A tool with a bug."""
    raise RuntimeError(f"unhandled code {code}")


def unwrapped(result: Any) -> Any:
    """The run result itself, for a streamed run too."""
    return result.result if isinstance(result, StreamedRun) else result


class Reply(BaseModel):
    message: str
    nights: int = Field(ge=1)


@pytest.mark.asyncio
async def test_every_tool_is_called_with_valid_arguments_then_a_typed_final_output(
    run: RunAgent, streamed: bool
) -> None:
    smoke = SmokeModel()
    agent = Agent(name="Desk", model=smoke, tools=[book, weather], output_type=Reply)

    result = await run(agent, "Plan my trip", streamed=streamed)

    assert isinstance(result.final_output, Reply)
    assert [call.tool for call in smoke.smoke_calls] == ["book", "weather"]
    for call, tool in zip(smoke.smoke_calls, (book, weather), strict=True):
        assert first_violation(call.arguments, tool.params_json_schema) is None
        assert call.outcome == "returned"
        assert call.agent == "Desk"
    assert smoke.report["weather"].calls[0].output.endswith(": sunny")
    assert smoke.failed_tools == []
    assert len(smoke.calls) == 2  # one round of calls, then the final output
    assert [call.streamed for call in smoke.calls] == [streamed, streamed]
    assert Trajectory.of(smoke).tool_names == ["book", "weather"]
    smoke.assert_tools_ok()


@pytest.mark.asyncio
async def test_a_tool_that_raises_on_valid_input_is_a_failed_tool(
    run: RunAgent, streamed: bool
) -> None:
    smoke = SmokeModel()
    agent = Agent(name="Desk", model=smoke, tools=[weather, broken])

    result = await run(agent, "Go", streamed=streamed)

    assert result.final_output == "Smoke run complete."
    assert smoke.failed_tools == ["broken"]
    assert smoke.report["broken"].outcome == "raised"
    assert smoke.report["weather"].returned
    with pytest.raises(SmokeToolsFailed) as caught:
        smoke.assert_tools_ok()
    assert caught.value.failed_tools == ["broken"]
    assert "> 2  broken (Desk)" in str(caught.value)


@pytest.mark.asyncio
async def test_a_tools_own_failure_message_counts_as_raised_and_its_refusals_as_returned(
    run: RunAgent,
) -> None:
    def explain(ctx: RunContextWrapper[Any], error: Exception) -> str:
        if isinstance(error, LookupError):
            return f"Refused: {error}"
        return "The system is down, sorry."

    @function_tool(failure_error_function=explain)
    def lookup(reference: str) -> str:
        """Look a booking up."""
        raise LookupError(f"no booking {reference}")

    @function_tool(failure_error_function=explain)
    def crash(reference: str) -> str:
        """A bug."""
        raise ZeroDivisionError

    smoke = SmokeModel()
    await run(Agent(name="Desk", model=smoke, tools=[lookup, crash]), "Go", streamed=False)

    assert smoke.report["lookup"].outcome == "returned"
    assert smoke.failed_tools == ["crash"]


@pytest.mark.asyncio
async def test_the_seed_decides_the_arguments_and_repeats_them(run: RunAgent) -> None:
    async def arguments(seed: int) -> list[dict[str, Any]]:
        smoke = SmokeModel(seed=seed, calls_per_tool=2)
        await run(Agent(name="Desk", model=smoke, tools=[book]), "Go", streamed=False)
        return [call.arguments for call in smoke.smoke_calls]

    first = await arguments(1)

    assert await arguments(1) == first
    assert await arguments(2) != first
    assert first[0] != first[1]  # each round draws its own


@pytest.mark.asyncio
async def test_options_select_tools_repeat_calls_and_give_arguments_and_text(
    run: RunAgent, streamed: bool
) -> None:
    smoke = SmokeModel(
        tools=["book", "weather"],
        calls_per_tool=3,
        arguments={
            "weather": {"city": "Oslo"},
            "book": [
                {"leg": {"city": "Rome", "nights": 1}, "cabin": "economy", "note": None},
                {"leg": {"city": "Nice", "nights": 2}, "cabin": "business", "note": "window"},
            ],
        },
        final_output="All done.",
    )
    agent = Agent(name="Desk", model=smoke, tools=[book, weather, broken])

    result = await run(agent, "Go", streamed=streamed)

    assert result.final_output == "All done."
    assert [call.arguments["city"] for call in smoke.report["weather"].calls] == ["Oslo"] * 3
    assert [call.output for call in smoke.report["book"].calls] == [
        "Booked 1 night(s) in Rome.",
        "Booked 2 night(s) in Nice.",
        "Booked 1 night(s) in Rome.",
    ]
    assert "broken" not in smoke.report
    assert len(smoke.calls) == 4


@pytest.mark.asyncio
async def test_a_final_output_value_is_given_as_the_agents_output_type(run: RunAgent) -> None:
    smoke = SmokeModel(final_output=Reply(message="Booked.", nights=2))

    result = await run(
        Agent(name="Desk", model=smoke, tools=[weather], output_type=Reply), "Go", streamed=False
    )

    assert result.final_output == Reply(message="Booked.", nights=2)


@pytest.mark.asyncio
async def test_handoffs_walk_to_the_next_agent_through_its_guardrail_and_tools(
    run: RunAgent, streamed: bool
) -> None:
    checked: list[str] = []

    @input_guardrail
    def polite(
        ctx: RunContextWrapper[Any], agent: Agent[Any], text: Any
    ) -> GuardrailFunctionOutput:
        checked.append(agent.name)
        return GuardrailFunctionOutput(output_info=None, tripwire_triggered=False)

    smoke = SmokeModel(handoffs=True)
    booking = Agent(name="Booking", model=smoke, tools=[book], output_type=Reply)
    support = Agent(name="Support", model=smoke, tools=[broken])
    triage = Agent(
        name="Triage",
        model=smoke,
        tools=[weather],
        handoffs=[booking, support],
        input_guardrails=[polite],
    )

    result = unwrapped(await run(triage, "Trip to Rome", streamed=streamed))

    assert result.last_agent.name == "Booking"
    assert isinstance(result.final_output, Reply)
    assert [(call.agent, call.tool) for call in smoke.smoke_calls] == [
        ("Triage", "weather"),
        ("Booking", "book"),
    ]
    assert Trajectory.of(result).handoffs[0].target == "Booking"
    assert checked == ["Triage"]


@pytest.mark.asyncio
async def test_handoffs_by_name_choose_the_agent_to_go_to(run: RunAgent) -> None:
    smoke = SmokeModel(handoffs=["Support"])
    booking = Agent(name="Booking", model=smoke, tools=[book])
    support = Agent(name="Support", model=smoke, tools=[broken])
    triage = Agent(name="Triage", model=smoke, handoffs=[booking, support])

    result = await run(triage, "Cancel", streamed=False)

    assert result.last_agent.name == "Support"
    assert smoke.failed_tools == ["broken"]


@pytest.mark.asyncio
async def test_tools_listed_from_an_mcp_server_are_smoked_too(
    run: RunAgent, streamed: bool
) -> None:
    convert = mcp_tool(
        "convert",
        input_schema={
            "type": "object",
            "properties": {
                "amount": {"type": "number", "minimum": 0},
                "currency": {"type": "string", "enum": ["EUR", "JPY"]},
            },
            "required": ["amount", "currency"],
        },
    )
    server = ScriptedMCPServer(
        [{"tool": "convert", "responder": lambda call: json_result({"ok": True})}],
        tools=[convert],
        name="rates",
    )
    smoke = SmokeModel()
    servers: list[MCPServer] = [server]
    agent = Agent(name="Desk", model=smoke, tools=[weather], mcp_servers=servers)

    async with server:
        await run(agent, "Go", streamed=streamed)

    assert sorted(call.tool for call in smoke.smoke_calls) == ["convert", "weather"]
    assert [call.tool for call in server.calls] == ["convert"]
    assert server.calls[0].arguments == smoke.report["convert"].calls[0].arguments
    assert smoke.failed_tools == []
    server.assert_complete()


@pytest.mark.asyncio
async def test_a_call_the_run_never_executes_is_reported_not_run(run: RunAgent) -> None:
    @function_tool(needs_approval=True)
    def cancel(reference: str) -> str:
        """Cancel a booking."""
        return "Cancelled."

    smoke = SmokeModel()
    result = await run(Agent(name="Desk", model=smoke, tools=[cancel]), "Go", streamed=False)

    assert len(result.interruptions) == 1
    assert smoke.not_run_tools == ["cancel"]
    assert smoke.report["cancel"].ran is False
    with pytest.raises(SmokeToolsFailed, match="cancel"):
        smoke.assert_tools_ok()


# -- bad input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "argument"),
    [
        ({"calls_per_tool": 0}, "calls_per_tool"),
        ({"calls_per_tool": True}, "calls_per_tool"),
        ({"seed": "1"}, "seed"),
        ({"tools": "book"}, "tools"),
        ({"arguments": [{"city": "Oslo"}]}, "arguments"),
        ({"arguments": {"weather": []}}, "arguments['weather']"),
        ({"arguments": {"weather": {"when": object()}}}, "arguments['weather']"),
    ],
)
def test_a_bad_option_is_refused_when_the_model_is_made(
    options: dict[str, Any], argument: str
) -> None:
    with pytest.raises(InvalidModelArgument) as caught:
        SmokeModel(**options)

    assert caught.value.argument == argument


@pytest.mark.parametrize("option", ["tools", "arguments"])
@pytest.mark.asyncio
async def test_a_tool_name_no_agent_offers_fails_the_run_naming_the_offered_ones(
    run: RunAgent, option: str
) -> None:
    value: Any = ["wheather"] if option == "tools" else {"wheather": {"city": "Oslo"}}
    smoke = SmokeModel(**{option: value})

    with pytest.raises(InvalidModelArgument) as caught:
        await run(Agent(name="Desk", model=smoke, tools=[weather]), "Go", streamed=False)

    assert caught.value.argument == option
    assert "'wheather'" in caught.value.got
    assert "weather" in caught.value.expected


@pytest.mark.asyncio
async def test_arguments_it_cannot_generate_fail_the_run_saying_how_to_give_them(
    run: RunAgent,
) -> None:
    @function_tool
    def transfer(iban: str = Field(pattern=r"^GB\d{2}[A-Z]{4}\d{14}$")) -> str:
        """Send money."""
        return "sent"

    with pytest.raises(SmokeGenerationError) as caught:
        await run(Agent(name="Bank", model=SmokeModel(), tools=[transfer]), "Go", streamed=False)

    assert (caught.value.target, caught.value.path) == ("transfer", "$.iban")
    assert "SmokeModel(arguments={'transfer'" in str(caught.value)


@pytest.mark.asyncio
async def test_a_final_output_that_does_not_fit_the_agent_is_refused(run: RunAgent) -> None:
    smoke = SmokeModel(final_output=Reply(message="x", nights=1))

    with pytest.raises(InvalidModelArgument) as caught:
        await run(Agent(name="Chat", model=smoke), "Hi", streamed=False)

    assert caught.value.argument == "final_output"


def test_a_smoke_model_takes_no_scripted_steps() -> None:
    smoke = SmokeModel()

    with pytest.raises(InvalidModelArgument, match="makes every answer itself"):
        smoke.enqueue([])
    with pytest.raises(InvalidModelArgument, match="makes every answer itself"):
        smoke.extend([])
    assert smoke.remaining_steps == 0


def test_the_report_is_json_data_the_test_can_change_freely() -> None:
    smoke = SmokeModel()

    assert smoke.smoke_calls == ()
    assert smoke.report == {}
    assert json.dumps(smoke.failed_tools) == "[]"
    assert smoke.remaining_steps == 0
    smoke.assert_complete()  # no script: nothing is ever left over


@pytest.mark.asyncio
async def test_a_recorded_call_is_a_model_call_like_any_scripted_one(run: RunAgent) -> None:
    smoke = SmokeModel()
    await Runner.run(
        Agent(name="Desk", model=smoke, tools=[weather], instructions="Be brief."),
        "Hi",
        run_config=RunConfig(tracing_disabled=True),
    )

    assert smoke.first_call is not None
    assert smoke.first_call.system_instructions == "Be brief."
    assert smoke.last_call is not None
    assert smoke.last_call.tool_output("smoke_1") == smoke.smoke_calls[0].output
