"""Scripted function calls checked against the offered tools, through the real Runner."""

from __future__ import annotations

import enum
import pickle
from typing import Any, Literal

import pytest
from agents import Agent, RunContextWrapper, function_tool, handoff, tool_namespace
from agents.items import TResponseStreamEvent
from agents.testing import (
    InvalidScriptedToolCall,
    ModelCall,
    ModelScriptError,
    ModelStep,
    ScriptedModel,
    assistant_message,
    function_call,
)
from agents.tool import FunctionTool, Tool, WebSearchTool
from openai.types.responses import (
    Response,
    ResponseCompletedEvent,
    ResponseFunctionWebSearch,
    ResponseOutputItemDoneEvent,
)
from openai.types.responses.response_function_web_search import ActionSearch
from pydantic import BaseModel

from agents_testing.model import InvalidModelArgument

from ..conftest import RunAgent

ON_PURPOSE = "; to script a wrong call on purpose, pass check_tool_calls=False."


@function_tool
def get_weather(city: str) -> str:
    """Return the weather for a city."""
    return f"{city}: sunny"


class Units(str, enum.Enum):
    METRIC = "metric"
    IMPERIAL = "imperial"


class Leg(BaseModel):
    city: str
    nights: int


@function_tool
def plan_trip(legs: list[Leg], units: Units, pace: Literal["slow", "fast"] = "slow") -> str:
    """Plan a trip through the given cities."""
    return " -> ".join(leg.city for leg in legs)


@function_tool(strict_mode=False)
def find_hotel(city: str, stars: int | None = None, tags: list[str] | None = None) -> str:
    """Find a hotel in a city."""
    return f"hotel in {city}"


def _weather_agent(model: ScriptedModel, **kwargs: Any) -> Agent[Any]:
    return Agent(name="Weather assistant", model=model, tools=[get_weather], **kwargs)


def _bad_call_model(*steps: Any, check: bool | None = True) -> ScriptedModel:
    return ScriptedModel([*steps, [assistant_message("Done.")]], check_tool_calls=check)


# -- valid calls run as before ------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_valid_call_runs_the_tool_with_the_check_on(run: RunAgent, streamed: bool) -> None:
    model = ScriptedModel(
        [
            [function_call("get_weather", {"city": "Tokyo"}, call_id="call_1")],
            [assistant_message("It is sunny in Tokyo.")],
        ],
        check_tool_calls=True,
    )

    result = await run(_weather_agent(model), "Weather in Tokyo?", streamed=streamed)

    assert result.final_output == "It is sunny in Tokyo."
    assert model.last_call is not None
    assert model.last_call.tool_output("call_1") == "Tokyo: sunny"
    model.assert_complete()


@pytest.mark.asyncio
async def test_nested_models_enums_literals_and_optionals_pass_when_they_fit(
    run: RunAgent, streamed: bool
) -> None:
    legs = [{"city": "Kyoto", "nights": 2}, {"city": "Osaka", "nights": 1.0}]
    model = ScriptedModel(
        [
            [
                function_call(
                    "plan_trip", {"legs": legs, "units": "metric", "pace": "fast"}, call_id="call_1"
                ),
                function_call("find_hotel", {"city": "Kyoto"}, call_id="call_2"),
                function_call(
                    "find_hotel",
                    {"city": "Osaka", "stars": None, "tags": ["spa"]},
                    call_id="call_3",
                ),
            ],
            [assistant_message("Planned.")],
        ],
        check_tool_calls=True,
    )
    agent = Agent(name="Planner", model=model, tools=[plan_trip, find_hotel])

    result = await run(agent, "Plan it", streamed=streamed)

    assert result.final_output == "Planned."
    assert model.last_call is not None
    assert model.last_call.tool_output("call_1") == "Kyoto -> Osaka"
    assert model.last_call.tool_output("call_3") == "hotel in Osaka"


# -- bad calls fail the run at that call --------------------------------------------------


@pytest.mark.asyncio
async def test_a_missing_argument_fails_the_run_at_that_call(run: RunAgent, streamed: bool) -> None:
    model = ScriptedModel(
        [
            [function_call("get_weather", {"city": "Tokyo"}, call_id="call_1")],
            [function_call("get_weather", {}, call_id="call_2")],
            [assistant_message("Never used.")],
        ],
        check_tool_calls=True,
    )

    with pytest.raises(InvalidScriptedToolCall) as raised:
        await run(_weather_agent(model), "Weather twice?", streamed=streamed)

    assert str(raised.value) == (
        "Scripted call #2 calls 'get_weather' with invalid arguments: at $.city: 'city' is "
        "required (schema rule: required). Script arguments that fit the tool's parameter "
        "schema" + ON_PURPOSE
    )
    error = raised.value
    assert isinstance(error, ModelScriptError)
    assert (error.reason, error.call_index, error.output_index) == ("invalid_arguments", 1, 0)
    assert (error.tool_name, error.known_tools) == ("get_weather", ("get_weather",))
    assert (error.path, error.rule, error.value) == ("$.city", "required", {})
    assert len(model.calls) == 2
    assert model.remaining_steps == 1


@pytest.mark.asyncio
async def test_a_misspelt_argument_is_reported_instead_of_the_sdk_error_text(
    run: RunAgent, streamed: bool
) -> None:
    model = _bad_call_model([function_call("get_weather", {"town": "Tokyo"}, call_id="call_1")])

    with pytest.raises(InvalidScriptedToolCall) as raised:
        await run(_weather_agent(model), "Weather?", streamed=streamed)

    assert str(raised.value) == (
        "Scripted call #1 calls 'get_weather' with invalid arguments: at $.town: 'town' is "
        "not an allowed property (allowed: city) (schema rule: additionalProperties). Script "
        "arguments that fit the tool's parameter schema" + ON_PURPOSE
    )
    assert (raised.value.path, raised.value.value) == ("$.town", "Tokyo")


@pytest.mark.asyncio
async def test_without_the_check_the_sdk_turns_the_bad_call_into_a_tool_error(
    run: RunAgent, streamed: bool
) -> None:
    for check in (None, False):
        model = _bad_call_model(
            [function_call("get_weather", {"town": "Tokyo"}, call_id="call_1")], check=check
        )

        result = await run(_weather_agent(model), "Weather?", streamed=streamed)

        assert result.final_output == "Done."
        assert model.last_call is not None
        output = model.last_call.tool_output("call_1")
        assert isinstance(output, str)
        assert output.startswith("An error occurred while running the tool.")


@pytest.mark.asyncio
async def test_an_unknown_tool_name_lists_the_offered_tools_and_handoffs(
    run: RunAgent, streamed: bool
) -> None:
    billing = Agent(name="Billing", model=ScriptedModel())
    model = _bad_call_model([function_call("get_wether", {"city": "Tokyo"}, call_id="call_1")])
    agent = _weather_agent(model, handoffs=[billing])

    with pytest.raises(InvalidScriptedToolCall) as raised:
        await run(agent, "Weather?", streamed=streamed)

    assert str(raised.value) == (
        "Scripted call #1 calls 'get_wether', which is not among the tools this call offered "
        "(function tools and handoffs: 'get_weather', 'transfer_to_billing'). Script one of "
        "those names or give the agent that tool" + ON_PURPOSE
    )
    error = raised.value
    assert (error.reason, error.path, error.rule, error.value) == ("unknown_tool", None, None, None)
    assert error.known_tools == ("get_weather", "transfer_to_billing")


@pytest.mark.asyncio
async def test_arguments_that_are_not_json_are_reported(run: RunAgent, streamed: bool) -> None:
    model = _bad_call_model([function_call("get_weather", "city=Tokyo", call_id="call_1")])

    with pytest.raises(InvalidScriptedToolCall) as raised:
        await run(_weather_agent(model), "Weather?", streamed=streamed)

    assert str(raised.value) == (
        "Scripted call #1 calls 'get_weather' with arguments that are not JSON: 'city=Tokyo' "
        "(Expecting value: line 1 column 1 (char 0)). Give the arguments as a mapping or a "
        "JSON object string" + ON_PURPOSE
    )
    assert (raised.value.reason, raised.value.value) == ("invalid_json", "city=Tokyo")


@pytest.mark.asyncio
async def test_arguments_that_are_not_an_object_are_reported(run: RunAgent, streamed: bool) -> None:
    model = _bad_call_model([function_call("get_weather", '["Tokyo"]', call_id="call_1")])

    with pytest.raises(InvalidScriptedToolCall) as raised:
        await run(_weather_agent(model), "Weather?", streamed=streamed)

    assert str(raised.value) == (
        "Scripted call #1 calls 'get_weather' with invalid arguments: at $: expected an object "
        "of arguments, got array ['Tokyo'] (schema rule: type). Script arguments that fit the "
        "tool's parameter schema" + ON_PURPOSE
    )


@pytest.mark.asyncio
async def test_empty_arguments_mean_an_empty_object_as_in_the_runner(
    run: RunAgent, streamed: bool
) -> None:
    @function_tool
    def now() -> str:
        """The current time."""
        return "noon"

    model = ScriptedModel(
        [[function_call("now", "", call_id="call_1")], [assistant_message("Noon.")]],
        check_tool_calls=True,
    )

    result = await run(Agent(name="Clock", model=model, tools=[now]), "Time?", streamed=streamed)

    assert result.final_output == "Noon."


@pytest.mark.asyncio
async def test_deep_errors_name_the_path_inside_nested_models_and_lists(
    run: RunAgent, streamed: bool
) -> None:
    legs = [{"city": "Kyoto", "nights": 2}, {"city": "Osaka", "nights": "one"}]
    model = _bad_call_model(
        [
            function_call("find_hotel", {"city": "Kyoto"}, call_id="call_1"),
            function_call("plan_trip", {"legs": legs, "units": "metric"}, call_id="call_2"),
        ]
    )
    agent = Agent(name="Planner", model=model, tools=[plan_trip, find_hotel])

    with pytest.raises(InvalidScriptedToolCall) as raised:
        await run(agent, "Plan it", streamed=streamed)

    # Strict schemas require every property, optional or not; the first problem is reported.
    assert str(raised.value) == (
        "Scripted call #1 calls 'plan_trip' with invalid arguments: at $.pace: 'pace' is "
        "required (schema rule: required). Script arguments that fit the tool's parameter "
        "schema" + ON_PURPOSE
    )
    assert raised.value.output_index == 1

    args = {"legs": legs, "units": "metric", "pace": "slow"}
    model = _bad_call_model([function_call("plan_trip", args, call_id="call_1")])
    with pytest.raises(InvalidScriptedToolCall) as raised:
        await run(Agent(name="Planner", model=model, tools=[plan_trip]), "Go", streamed=streamed)
    assert (raised.value.path, raised.value.rule) == ("$.legs[1].nights", "type")
    assert raised.value.detail == "expected integer, got string 'one'"

    args = {"legs": [], "units": "kelvin", "pace": "slow"}
    model = _bad_call_model([function_call("plan_trip", args, call_id="call_1")])
    with pytest.raises(InvalidScriptedToolCall) as raised:
        await run(Agent(name="Planner", model=model, tools=[plan_trip]), "Go", streamed=streamed)
    assert (raised.value.path, raised.value.rule) == ("$.units", "enum")
    assert raised.value.detail == "'kelvin' is not one of 'metric', 'imperial'"


@pytest.mark.asyncio
async def test_non_strict_schemas_leave_defaults_optional_but_check_types(
    run: RunAgent, streamed: bool
) -> None:
    model = _bad_call_model(
        [function_call("find_hotel", {"city": "Kyoto", "stars": "five"}, call_id="call_1")]
    )

    with pytest.raises(InvalidScriptedToolCall) as raised:
        await run(Agent(name="Hotels", model=model, tools=[find_hotel]), "Go", streamed=streamed)

    assert (raised.value.path, raised.value.rule) == ("$.stars", "anyOf")
    assert raised.value.detail == (
        "string 'five' matches none of the alternatives (integer | null)"
    )


@pytest.mark.asyncio
async def test_a_raw_function_tool_schema_is_checked(run: RunAgent, streamed: bool) -> None:
    async def invoke(context: Any, arguments: str) -> str:
        return arguments

    booking = FunctionTool(
        name="book",
        description="Book seats.",
        params_json_schema={
            "type": "object",
            "properties": {
                "seats": {"type": "integer", "minimum": 1, "maximum": 9},
                "code": {"type": "string", "pattern": "^[A-Z]{3}$"},
            },
            "required": ["seats"],
        },
        on_invoke_tool=invoke,
        strict_json_schema=False,
    )
    good = function_call("book", {"seats": 2, "code": "NRT"}, call_id="call_1")
    bad = function_call("book", {"seats": 2, "code": "nrt"}, call_id="call_2")
    model = ScriptedModel([[good], [bad], [assistant_message("Unused.")]], check_tool_calls=True)

    with pytest.raises(InvalidScriptedToolCall) as raised:
        await run(Agent(name="Booker", model=model, tools=[booking]), "Book", streamed=streamed)

    assert raised.value.call_index == 1
    assert (raised.value.path, raised.value.rule) == ("$.code", "pattern")
    assert raised.value.detail == "'nrt' does not match the pattern '^[A-Z]{3}$'"


# -- handoffs, namespaces and items routed elsewhere ---------------------------------------


class Escalation(BaseModel):
    reason: str


@pytest.mark.asyncio
async def test_a_handoff_call_is_checked_against_its_input_schema(
    run: RunAgent, streamed: bool
) -> None:
    reasons: list[str] = []

    async def on_escalation(context: RunContextWrapper[Any], data: Escalation) -> None:
        reasons.append(data.reason)

    billing = Agent(
        name="Billing",
        model=ScriptedModel([[assistant_message("Billing here.")]], check_tool_calls=True),
    )
    escalate = handoff(billing, input_type=Escalation, on_handoff=on_escalation)
    model = ScriptedModel(
        [[function_call("transfer_to_billing", {"reason": "refund"}, call_id="call_1")]],
        check_tool_calls=True,
    )

    result = await run(_weather_agent(model, handoffs=[escalate]), "Refund", streamed=streamed)

    assert result.final_output == "Billing here."
    assert reasons == ["refund"]

    model = ScriptedModel(
        [[function_call("transfer_to_billing", {"why": "refund"}, call_id="call_1")]],
        check_tool_calls=True,
    )
    with pytest.raises(InvalidScriptedToolCall) as raised:
        await run(_weather_agent(model, handoffs=[escalate]), "Refund", streamed=streamed)
    assert (raised.value.tool_name, raised.value.path) == ("transfer_to_billing", "$.why")
    assert raised.value.rule == "additionalProperties"


@pytest.mark.asyncio
async def test_a_namespaced_tool_is_found_only_with_its_namespace(
    run: RunAgent, streamed: bool
) -> None:
    tools: list[Tool] = [
        *tool_namespace(name="weather", description="Weather tools", tools=[get_weather])
    ]
    call = function_call("get_weather", {"city": "Oslo"}, call_id="call_1", namespace="weather")
    model = ScriptedModel([[call], [assistant_message("Rain.")]], check_tool_calls=True)

    result = await run(Agent(name="W", model=model, tools=tools), "Oslo?", streamed=streamed)

    assert result.final_output == "Rain."

    model = _bad_call_model([function_call("get_weather", {"city": "Oslo"}, call_id="call_1")])
    with pytest.raises(InvalidScriptedToolCall) as raised:
        await run(Agent(name="W", model=model, tools=tools), "Oslo?", streamed=streamed)
    assert (raised.value.tool_name, raised.value.known_tools) == (
        "get_weather",
        ("weather.get_weather",),
    )


@pytest.mark.asyncio
async def test_hosted_tool_calls_are_not_checked(run: RunAgent) -> None:
    search = ResponseFunctionWebSearch(
        id="ws_1",
        type="web_search_call",
        status="completed",
        action=ActionSearch(type="search", query="Tokyo weather"),
    )
    model = ScriptedModel(
        [[search, assistant_message("Sunny, says the web.")]], check_tool_calls=True
    )
    agent = Agent(name="Searcher", model=model, tools=[WebSearchTool()])

    result = await run(agent, "Weather?", streamed=False)

    assert result.final_output == "Sunny, says the web."


# -- every way a step can answer is checked -----------------------------------------------


@pytest.mark.asyncio
async def test_a_responder_answer_is_checked(run: RunAgent, streamed: bool) -> None:
    def respond(call: ModelCall) -> list[Any]:
        return [function_call("get_weather", {"city": len(call.messages)}, call_id="call_1")]

    model = _bad_call_model(ModelStep.respond(respond))

    with pytest.raises(InvalidScriptedToolCall) as raised:
        await run(_weather_agent(model), "Weather?", streamed=streamed)

    assert (raised.value.path, raised.value.rule, raised.value.value) == ("$.city", "type", 1)


@pytest.mark.asyncio
async def test_a_strict_stream_and_its_output_are_checked(run: RunAgent, streamed: bool) -> None:
    bad = function_call("get_weather", {"city": 7}, call_id="call_1", item_id="fc_1")
    completed = Response(
        id="resp_1",
        created_at=0,
        model="scripted",
        object="response",
        output=[bad],
        parallel_tool_calls=True,
        tool_choice="auto",
        tools=[],
    )
    events: list[TResponseStreamEvent] = [
        ResponseOutputItemDoneEvent(
            type="response.output_item.done", item=bad, output_index=0, sequence_number=0
        ),
        ResponseCompletedEvent(type="response.completed", response=completed, sequence_number=1),
    ]
    model = _bad_call_model(ModelStep.stream(events, output=[bad]))

    with pytest.raises(InvalidScriptedToolCall) as raised:
        await run(_weather_agent(model), "Weather?", streamed=streamed)

    assert (raised.value.call_index, raised.value.path) == (0, "$.city")
    assert raised.value.detail == "expected string, got integer 7"


# -- the switch and the error itself ------------------------------------------------------


def test_check_tool_calls_must_be_a_bool_or_none() -> None:
    with pytest.raises(InvalidModelArgument) as raised:
        ScriptedModel(check_tool_calls="yes")  # type: ignore[arg-type]

    assert str(raised.value) == (
        "Invalid argument check_tool_calls: expected a bool or None, got str 'yes'."
    )


def test_the_error_keeps_its_fields_through_pickling() -> None:
    error = InvalidScriptedToolCall(
        "Scripted call #2 calls 'get_weather' with invalid arguments.",
        reason="invalid_arguments",
        call_index=1,
        output_index=0,
        tool_name="get_weather",
        known_tools=("get_weather",),
        path="$.city",
        rule="required",
        value={},
        detail="'city' is required",
    )

    copy = pickle.loads(pickle.dumps(error))

    assert str(copy) == str(error)
    assert (copy.reason, copy.call_index, copy.output_index, copy.tool_name) == (
        "invalid_arguments",
        1,
        0,
        "get_weather",
    )
    assert (copy.known_tools, copy.path, copy.rule, copy.value) == (
        ("get_weather",),
        "$.city",
        "required",
        {},
    )
