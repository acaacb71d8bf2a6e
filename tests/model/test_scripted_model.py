"""ScriptedModel through the real Runner: the seed's recipes, step consumption and errors."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from agents import (
    Agent,
    GuardrailFunctionOutput,
    InputGuardrailTripwireTriggered,
    MaxTurnsExceeded,
    ModelResponse,
    ModelRetryAdvice,
    ModelRetrySettings,
    ModelSettings,
    OutputGuardrailTripwireTriggered,
    RunConfig,
    RunContextWrapper,
    Runner,
    SQLiteSession,
    Usage,
    function_tool,
    input_guardrail,
    output_guardrail,
    retry_policies,
)
from agents.retry import ModelRetryAdviceRequest
from agents.stream_events import RawResponsesStreamEvent
from agents.testing import (
    ModelCall,
    ModelStep,
    ScriptedModel,
    UnconsumedModelSteps,
    UnexpectedModelCall,
    assistant_message,
    function_call,
)
from agents.usage import RequestUsage
from openai.types.responses.response_usage import OutputTokensDetails
from pydantic import BaseModel

from agents_testing.core import compat


@function_tool
def get_weather(city: str) -> str:
    """Return the weather for a city."""
    return f"{city}: sunny"


# -- the seed's recipes, with the same public calls ------------------------------------


@pytest.mark.asyncio
async def test_fixed_response() -> None:
    model = ScriptedModel([[assistant_message("Paris is the capital of France.")]])
    agent = Agent(name="Geography assistant", model=model)

    result = await Runner.run(
        agent,
        "What is the capital of France?",
        run_config=RunConfig(tracing_disabled=True),
    )

    assert result.final_output == "Paris is the capital of France."
    assert len(model.calls) == 1
    model.assert_complete()


@pytest.mark.skipif(
    not compat.has_tool_decorator(), reason="agents.decorators.tool exists from 0.19.0"
)
@pytest.mark.asyncio
async def test_tool_workflow_with_tool_decorator() -> None:
    from agents.decorators import tool

    @tool
    def get_weather(city: str) -> str:
        """Return the weather for a city."""
        return f"{city}: sunny"

    model = ScriptedModel(
        [
            [function_call("get_weather", {"city": "Tokyo"}, call_id="call_1")],
            [assistant_message("It is sunny in Tokyo.")],
        ]
    )
    agent = Agent(name="Weather assistant", model=model, tools=[get_weather])

    result = await Runner.run(
        agent,
        "What is the weather in Tokyo?",
        run_config=RunConfig(tracing_disabled=True),
    )

    assert result.final_output == "It is sunny in Tokyo."
    assert len(model.calls) == 2
    assert model.last_call is not None
    assert any(item.get("type") == "function_call_output" for item in model.last_call.input)  # type: ignore[union-attr]
    model.assert_complete()


@pytest.mark.asyncio
async def test_tool_workflow_runs_the_real_tool_between_calls(run: Any, streamed: bool) -> None:
    model = ScriptedModel(
        [
            [function_call("get_weather", {"city": "Tokyo"}, call_id="call_1")],
            [assistant_message("It is sunny in Tokyo.")],
        ]
    )
    agent = Agent(name="Weather assistant", model=model, tools=[get_weather])

    result = await run(agent, "What is the weather in Tokyo?", streamed=streamed)

    assert result.final_output == "It is sunny in Tokyo."
    assert [call.streamed for call in model.calls] == [streamed, streamed]
    assert model.last_call is not None
    outputs = [item for item in model.last_call.input if item.get("type") == "function_call_output"]  # type: ignore[union-attr]
    assert outputs == [
        {"call_id": "call_1", "output": "Tokyo: sunny", "type": "function_call_output"}
    ]
    model.assert_complete()


def respond(call: ModelCall) -> Any:
    assert call.streamed is False
    assert call.input == [{"content": "Summarize this", "role": "user"}]
    return {"output": [assistant_message("Handled the normalized request.")]}


@pytest.mark.asyncio
async def test_request_aware_response() -> None:
    model = ScriptedModel([ModelStep.respond(respond)])
    agent = Agent(name="Assistant", model=model)

    result = await Runner.run(
        agent,
        "Summarize this",
        run_config=RunConfig(tracing_disabled=True),
    )

    assert result.final_output == "Handled the normalized request."
    model.assert_complete()


@pytest.mark.asyncio
async def test_stream_step_used_by_a_non_streamed_run_returns_its_output() -> None:
    events: list[Any] = []
    step = ModelStep.stream(
        events,
        output=[assistant_message("The terminal output used by the runner.")],
    )
    model = ScriptedModel([step])

    result = await Runner.run(
        Agent(name="Assistant", model=model), "Hi", run_config=RunConfig(tracing_disabled=True)
    )

    assert result.final_output == "The terminal output used by the runner."
    model.assert_complete()


# -- strict FIFO, drift detection --------------------------------------------------------


@pytest.mark.asyncio
async def test_extra_model_request_raises_unexpected_model_call(run: Any, streamed: bool) -> None:
    model = ScriptedModel([[function_call("get_weather", {"city": "Oslo"}, call_id="call_1")]])
    agent = Agent(name="Weather assistant", model=model, tools=[get_weather])

    with pytest.raises(UnexpectedModelCall, match="no scripted steps remain") as raised:
        await run(agent, "Weather in Oslo?", streamed=streamed)

    assert raised.value.call_index == 1
    assert raised.value.call is model.calls[1]
    assert raised.value.call.streamed is streamed
    assert "call #2: " in str(raised.value)
    assert len(model.calls) == 2
    assert model.remaining_steps == 0


@pytest.mark.asyncio
async def test_early_stop_leaves_steps_for_assert_complete(run: Any, streamed: bool) -> None:
    model = ScriptedModel(
        [
            [assistant_message("Done already.")],
            [assistant_message("never used")],
            [assistant_message("never used either")],
        ]
    )

    result = await run(Agent(name="Assistant", model=model), "Hi", streamed=streamed)

    assert result.final_output == "Done already."
    assert model.remaining_steps == 2
    with pytest.raises(UnconsumedModelSteps) as raised:
        model.assert_complete()
    assert raised.value.remaining_steps == 2
    assert [step.output[0].content[0].text for step in raised.value.pending_steps] == [  # type: ignore[attr-defined]
        "never used",
        "never used either",
    ]
    assert "The first is step #2" in str(raised.value)


@pytest.mark.asyncio
async def test_enqueue_and_extend_add_steps_between_runs(run: Any, streamed: bool) -> None:
    model = ScriptedModel()
    agent = Agent(name="Assistant", model=model)
    assert model.first_call is None
    assert model.last_call is None

    model.enqueue([assistant_message("first")])
    first = await run(agent, "one", streamed=streamed)
    model.extend([[assistant_message("second")], {"output": [assistant_message("third")]}])
    second = await run(agent, "two", streamed=streamed)
    third = await run(agent, "three", streamed=streamed)

    assert [first.final_output, second.final_output, third.final_output] == [
        "first",
        "second",
        "third",
    ]
    assert len(model.calls) == 3
    assert model.first_call is model.calls[0]
    assert model.last_call is model.calls[2]
    model.assert_complete()


@pytest.mark.asyncio
async def test_concurrent_runs_consume_steps_in_call_order(run: Any, streamed: bool) -> None:
    model = ScriptedModel(
        [
            [function_call("get_weather", {"city": "A"}, call_id="a1")],
            [function_call("get_weather", {"city": "B"}, call_id="b1")],
            [assistant_message("answer 3")],
            [assistant_message("answer 4")],
        ]
    )
    agent = Agent(name="Weather assistant", model=model, tools=[get_weather])

    first, second = await asyncio.gather(
        run(agent, "first run", streamed=streamed),
        run(agent, "second run", streamed=streamed),
    )

    assert len(model.calls) == 4
    first_inputs = [call.input[0] for call in model.calls[:2]]
    assert first_inputs == [
        {"content": "first run", "role": "user"},
        {"content": "second run", "role": "user"},
    ]
    # Each run's second call carries its own tool result; the answers follow call order.
    by_run = {call.input[0]["content"]: call for call in model.calls[2:]}  # type: ignore[index,typeddict-item]
    assert by_run["first run"].input[-1]["output"] == "A: sunny"  # type: ignore[index,typeddict-item]
    assert by_run["second run"].input[-1]["output"] == "B: sunny"  # type: ignore[index,typeddict-item]
    answers = {"first run": first.final_output, "second run": second.final_output}
    assert answers[model.calls[2].input[0]["content"]] == "answer 3"  # type: ignore[index,typeddict-item]
    assert answers[model.calls[3].input[0]["content"]] == "answer 4"  # type: ignore[index,typeddict-item]
    model.assert_complete()


# -- orchestration the SDK owns, driven by the script -----------------------------------


@pytest.mark.asyncio
async def test_handoff_with_one_shared_model(run: Any, streamed: bool) -> None:
    model = ScriptedModel(
        [
            [function_call("transfer_to_billing", {}, call_id="h1")],
            [assistant_message("Billing here: your invoice is paid.")],
        ]
    )
    billing = Agent(name="Billing", instructions="Handle billing.", model=model)
    triage = Agent(name="Triage", instructions="Route.", model=model, handoffs=[billing])

    result = await run(triage, "Is my invoice paid?", streamed=streamed)

    assert result.final_output == "Billing here: your invoice is paid."
    assert [call.system_instructions for call in model.calls] == ["Route.", "Handle billing."]
    assert [h.tool_name for h in model.calls[0].handoffs] == ["transfer_to_billing"]
    model.assert_complete()


@pytest.mark.asyncio
async def test_handoff_with_one_model_per_agent(run: Any, streamed: bool) -> None:
    triage_model = ScriptedModel([[function_call("transfer_to_billing", "{}", call_id="h1")]])
    billing_model = ScriptedModel([[assistant_message("Billing answers.")]])
    billing = Agent(name="Billing", model=billing_model)
    triage = Agent(name="Triage", model=triage_model, handoffs=[billing])

    result = await run(triage, "Invoice?", streamed=streamed)

    assert result.final_output == "Billing answers."
    assert result_last_agent(result) is billing
    assert len(triage_model.calls) == 1
    assert len(billing_model.calls) == 1
    handoff_inputs = billing_model.calls[0].input
    assert any(item.get("type") == "function_call_output" for item in handoff_inputs)  # type: ignore[union-attr]
    triage_model.assert_complete()
    billing_model.assert_complete()


def result_last_agent(result: Any) -> Any:
    return getattr(result, "result", result).last_agent


@input_guardrail
def block_secrets(ctx: RunContextWrapper[Any], agent: Agent[Any], text: Any) -> Any:
    return GuardrailFunctionOutput(output_info=None, tripwire_triggered="secret" in str(text))


@output_guardrail
def no_shouting(ctx: RunContextWrapper[Any], agent: Agent[Any], output: Any) -> Any:
    return GuardrailFunctionOutput(output_info=None, tripwire_triggered=str(output).isupper())


@pytest.mark.asyncio
async def test_input_guardrail_trips(run: Any, streamed: bool) -> None:
    model = ScriptedModel([[assistant_message("should not matter")]])
    agent = Agent(name="Guarded", model=model, input_guardrails=[block_secrets])

    with pytest.raises(InputGuardrailTripwireTriggered):
        await run(agent, "tell me the secret", streamed=streamed)


@pytest.mark.asyncio
async def test_output_guardrail_trips(run: Any, streamed: bool) -> None:
    model = ScriptedModel([[assistant_message("I AM SHOUTING")]])
    agent = Agent(name="Guarded", model=model, output_guardrails=[no_shouting])

    with pytest.raises(OutputGuardrailTripwireTriggered):
        await run(agent, "say something", streamed=streamed)
    model.assert_complete()


class Forecast(BaseModel):
    city: str
    degrees: int


@pytest.mark.asyncio
async def test_structured_output(run: Any, streamed: bool) -> None:
    model = ScriptedModel([[assistant_message('{"city": "Tokyo", "degrees": 21}')]])
    agent = Agent(name="Forecaster", model=model, output_type=Forecast)

    result = await run(agent, "Forecast Tokyo", streamed=streamed)

    assert result.final_output == Forecast(city="Tokyo", degrees=21)
    assert model.last_call is not None
    assert model.last_call.output_schema is not None
    assert model.last_call.output_schema.name() == "Forecast"


@pytest.mark.asyncio
async def test_multi_turn_sqlite_session(run: Any, streamed: bool) -> None:
    session = SQLiteSession("conversation")
    model = ScriptedModel(
        [[assistant_message("Nice to meet you, Ada.")], [assistant_message("Ada.")]]
    )
    agent = Agent(name="Assistant", model=model)

    await run(agent, "My name is Ada.", streamed=streamed, session=session)
    second = await run(agent, "What is my name?", streamed=streamed, session=session)

    assert second.final_output == "Ada."
    second_input = model.calls[1].input
    assert [item.get("role") for item in second_input] == ["user", "assistant", "user"]  # type: ignore[union-attr]
    assert second_input[0]["content"] == "My name is Ada."  # type: ignore[index,typeddict-item]
    assert second_input[-1]["content"] == "What is my name?"  # type: ignore[index,typeddict-item]
    model.assert_complete()


@pytest.mark.asyncio
async def test_several_tool_calls_in_one_response(run: Any, streamed: bool) -> None:
    model = ScriptedModel(
        [
            [
                function_call("get_weather", {"city": "Oslo"}, call_id="c1"),
                function_call("get_weather", {"city": "Rome"}, call_id="c2"),
            ],
            [assistant_message("Sunny in both.")],
        ]
    )
    agent = Agent(name="Weather", model=model, tools=[get_weather])

    result = await run(agent, "Oslo and Rome?", streamed=streamed)

    assert result.final_output == "Sunny in both."
    outputs = {
        item["call_id"]: item["output"]  # type: ignore[index,typeddict-item]
        for item in model.calls[1].input
        if item.get("type") == "function_call_output"  # type: ignore[union-attr]
    }
    assert outputs == {"c1": "Oslo: sunny", "c2": "Rome: sunny"}


@pytest.mark.asyncio
async def test_max_turns_exceeded(run: Any, streamed: bool) -> None:
    model = ScriptedModel(
        [[function_call("get_weather", {"city": str(n)}, call_id=f"c{n}")] for n in range(3)]
    )
    agent = Agent(name="Looper", model=model, tools=[get_weather])

    with pytest.raises(MaxTurnsExceeded):
        await run(agent, "loop", streamed=streamed, max_turns=2)

    assert len(model.calls) == 2
    assert model.remaining_steps == 1


class TemporaryFailure(RuntimeError):
    pass


def _retrying_agent(model: ScriptedModel) -> Agent[Any]:
    return Agent(
        name="Retrying",
        model=model,
        model_settings=ModelSettings(
            retry=ModelRetrySettings(
                max_retries=2,
                backoff={"initial_delay": 0, "max_delay": 0},
                policy=retry_policies.provider_suggested(),
            )
        ),
    )


@pytest.mark.asyncio
async def test_scripted_error_with_retry_advice_is_retried_on_the_next_step(
    run: Any, streamed: bool
) -> None:
    advice = ModelRetryAdvice(suggested=True, replay_safety="safe")
    failure = TemporaryFailure("temporary failure")
    model = ScriptedModel(
        [
            ModelStep.raise_error(failure, retry_advice=advice),
            [assistant_message("Recovered.")],
        ]
    )

    result = await run(_retrying_agent(model), "Hi", streamed=streamed)

    assert result.final_output == "Recovered."
    assert len(model.calls) == 2
    assert [call.streamed for call in model.calls] == [streamed, streamed]
    assert model.calls[0].input == model.calls[1].input
    request = ModelRetryAdviceRequest(error=failure, attempt=1, stream=streamed)
    assert model.get_retry_advice(request) == advice
    other = ModelRetryAdviceRequest(error=TemporaryFailure("other"), attempt=1, stream=streamed)
    assert model.get_retry_advice(other) is None
    model.assert_complete()


@pytest.mark.asyncio
async def test_retry_advice_is_a_fresh_copy_each_time(run: Any, streamed: bool) -> None:
    """Shows MOD-9."""
    advice = ModelRetryAdvice(suggested=True, replay_safety="safe")
    failure = TemporaryFailure("temporary failure")
    model = ScriptedModel(
        [ModelStep.raise_error(failure, retry_advice=advice), [assistant_message("Recovered.")]]
    )
    await run(_retrying_agent(model), "Hi", streamed=streamed)
    request = ModelRetryAdviceRequest(error=failure, attempt=1, stream=streamed)

    first = model.get_retry_advice(request)
    assert first is not None
    first.suggested = False
    second = model.get_retry_advice(request)

    assert second is not None
    assert second.suggested is True
    assert second is not first
    assert second is not advice


@pytest.mark.asyncio
async def test_each_retry_consumes_a_step(run: Any, streamed: bool) -> None:
    advice = ModelRetryAdvice(suggested=True, replay_safety="safe")
    model = ScriptedModel(
        [
            ModelStep.raise_error(TemporaryFailure("first"), retry_advice=advice),
            ModelStep.raise_error(TemporaryFailure("second"), retry_advice=advice),
            [assistant_message("Third time lucky.")],
        ]
    )

    result = await run(_retrying_agent(model), "Hi", streamed=streamed)

    assert result.final_output == "Third time lucky."
    assert len(model.calls) == 3
    model.assert_complete()


@pytest.mark.asyncio
async def test_scripted_error_without_advice_is_not_retried_by_provider_policy(
    run: Any, streamed: bool
) -> None:
    model = ScriptedModel(
        [ModelStep.raise_error(TemporaryFailure("no advice")), [assistant_message("unused")]]
    )

    with pytest.raises(TemporaryFailure, match="no advice"):
        await run(_retrying_agent(model), "Hi", streamed=streamed)

    assert len(model.calls) == 1
    assert model.remaining_steps == 1


# -- usage and raw usage ---------------------------------------------------------------


def _exact_usage() -> Usage:
    zero_input_details = Usage().input_tokens_details  # explicit zeros, any openai release
    usage = Usage(
        requests=2,
        input_tokens=0,
        output_tokens=7,
        total_tokens=7,
        input_tokens_details=zero_input_details,
        output_tokens_details=OutputTokensDetails(reasoning_tokens=3),
    )
    if hasattr(usage, "request_usage_entries"):
        usage.request_usage_entries = [
            RequestUsage(
                input_tokens=0,
                output_tokens=7,
                total_tokens=7,
                input_tokens_details=zero_input_details,
                output_tokens_details=OutputTokensDetails(reasoning_tokens=3),
            )
        ]
    return usage


def _first_response(result: Any) -> ModelResponse:
    return getattr(result, "result", result).raw_responses[0]  # type: ignore[no-any-return]


@pytest.mark.asyncio
async def test_step_usage_is_preserved_exactly(run: Any, streamed: bool) -> None:
    model = ScriptedModel([{"output": [assistant_message("a")], "usage": _exact_usage()}])

    result = await run(Agent(name="Assistant", model=model), "Hi", streamed=streamed)

    usage = _first_response(result).usage
    if streamed and compat.streamed_usage_attributes()[0] is None:
        # This SDK rebuilds a streamed usage from the token counts as one request.
        assert (usage.input_tokens, usage.output_tokens, usage.total_tokens) == (0, 7, 7)
        assert usage.output_tokens_details.reasoning_tokens == 3
        return
    assert usage == _exact_usage()


@pytest.mark.skipif(
    not compat.model_response_has_raw_usage(),
    reason="ModelResponse.raw_usage exists only in newer SDK releases",
)
@pytest.mark.parametrize("preserve", [True, False, None])
@pytest.mark.asyncio
async def test_raw_usage_is_reported_only_when_the_run_asks_for_it(
    preserve: bool | None, run: Any, streamed: bool
) -> None:
    raw = {"input_tokens": 9, "details": {"cached": 0}}
    model = ScriptedModel([{"output": [assistant_message("raw")], "raw_usage": raw}])
    agent = Agent(
        name="Assistant", model=model, model_settings=ModelSettings(preserve_raw_usage=preserve)
    )

    result = await run(agent, "Hi", streamed=streamed)

    expected = raw if preserve is True else None
    assert _first_response(result).raw_usage == expected


@pytest.mark.skipif(
    compat.streamed_usage_attributes()[1] is None,
    reason="this SDK has no raw usage on streamed responses",
)
@pytest.mark.asyncio
async def test_a_stream_carries_raw_usage_only_on_its_completed_response(run: Any) -> None:
    """Shows MOD-1."""
    raw = {"input_tokens": 9}
    model = ScriptedModel([{"output": [assistant_message("raw")], "raw_usage": raw}])
    agent = Agent(
        name="Assistant", model=model, model_settings=ModelSettings(preserve_raw_usage=True)
    )

    result = await run(agent, "Hi", streamed=True)

    attribute = compat.streamed_usage_attributes()[1]
    carrying = [
        event.data.type
        for event in result.events
        if isinstance(event, RawResponsesStreamEvent)
        and getattr(getattr(event.data, "response", None), str(attribute), None) is not None
    ]
    assert carrying == ["response.completed"]


# -- retry advice ----------------------------------------------------------------------


@pytest.mark.asyncio
async def test_retry_advice_from_a_responder_step_applies_to_its_error(
    run: Any, streamed: bool
) -> None:
    advice = ModelRetryAdvice(suggested=True, replay_safety="safe")
    failure = TemporaryFailure("from the responder")
    model = ScriptedModel(
        [
            ModelStep.respond(lambda call: ModelStep.raise_error(failure, retry_advice=advice)),
            [assistant_message("Recovered.")],
        ]
    )

    result = await run(_retrying_agent(model), "Hi", streamed=streamed)

    assert result.final_output == "Recovered."
    assert model.get_retry_advice(ModelRetryAdviceRequest(failure, 1, streamed)) == advice


@pytest.mark.asyncio
async def test_retry_advice_is_cleared_when_a_later_responder_fails(
    run: Any, streamed: bool
) -> None:
    advice = ModelRetryAdvice(suggested=True, replay_safety="safe")
    failure = TemporaryFailure("scripted with advice")

    def fails_again(call: Any) -> Any:
        raise failure

    model = ScriptedModel(
        [
            ModelStep.raise_error(failure, retry_advice=advice),
            ModelStep.respond(fails_again),
            [assistant_message("unused")],
        ]
    )

    with pytest.raises(TemporaryFailure, match="scripted with advice"):
        await run(_retrying_agent(model), "Hi", streamed=streamed)

    assert len(model.calls) == 2
    assert model.get_retry_advice(ModelRetryAdviceRequest(failure, 1, streamed)) is None
    assert model.remaining_steps == 1


def test_get_retry_advice_is_none_for_errors_that_were_not_scripted() -> None:
    model = ScriptedModel([ModelStep.raise_error(TemporaryFailure("x"))])

    for error in (TemporaryFailure("x"), RuntimeError("other")):
        assert model.get_retry_advice(ModelRetryAdviceRequest(error, 1, False)) is None


@pytest.mark.asyncio
async def test_the_same_error_scripted_again_without_advice_gets_none(
    run: Any, streamed: bool
) -> None:
    advice = ModelRetryAdvice(suggested=True, replay_safety="safe")
    failure = TemporaryFailure("the same object twice")
    model = ScriptedModel(
        [
            ModelStep.raise_error(failure, retry_advice=advice),
            ModelStep.raise_error(failure),
            [assistant_message("unused")],
        ]
    )

    with pytest.raises(TemporaryFailure):
        await run(_retrying_agent(model), "Hi", streamed=streamed)

    assert len(model.calls) == 2
    assert model.get_retry_advice(ModelRetryAdviceRequest(failure, 1, streamed)) is None
