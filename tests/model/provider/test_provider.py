"""``ScriptedModelProvider``: scripts chosen by agent or model name, through the real runner."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from agents import Agent, ModelRetryAdvice, RunConfig, function_tool
from agents.items import TResponseOutputItem
from agents.models.multi_provider import MultiProvider
from agents.testing import (
    InvalidModelStep,
    ModelStep,
    ScriptedModel,
    ScriptedModelProvider,
    UnconsumedProviderSteps,
    UnscriptedModelCall,
    assistant_message,
    function_call,
)

from agents_testing.core import UnconsumedStepsError, UnexpectedCallError
from agents_testing.model import InvalidModelArgument, ModelScriptError


@function_tool
def refund(order_id: str) -> str:
    """Refund an order."""
    return f"refunded {order_id}"


def support_app() -> Agent[Any]:
    """The app under test: triage hands billing questions over; both name their model."""
    billing = Agent(name="Billing", model="gpt-4.1-mini", tools=[refund])
    return Agent(name="Triage", model="gpt-4.1", handoffs=[billing])


# Typed as what a script holds, so that one dict can mix scripts of differing items.
TRIAGE_SCRIPT: list[list[TResponseOutputItem]] = [
    [function_call("transfer_to_billing", {}, call_id="call_h")]
]
BILLING_SCRIPT: list[list[TResponseOutputItem]] = [
    [function_call("refund", {"order_id": "A1"}, call_id="call_r")],
    [assistant_message("Order A1 is refunded.")],
]


@pytest.mark.asyncio
async def test_each_agent_of_a_handoff_app_answers_from_its_own_script(
    run: Any, streamed: bool
) -> None:
    provider = ScriptedModelProvider(by_agent={"Triage": TRIAGE_SCRIPT, "Billing": BILLING_SCRIPT})

    result = await run(
        support_app(),
        "Refund order A1",
        streamed=streamed,
        run_config=RunConfig(model_provider=provider, tracing_disabled=True),
    )

    assert result.final_output == "Order A1 is refunded."
    assert [(c.script, c.agent_name, c.model_name) for c in provider.calls] == [
        ("agent 'Triage'", "Triage", "gpt-4.1"),
        ("agent 'Billing'", "Billing", "gpt-4.1-mini"),
        ("agent 'Billing'", "Billing", "gpt-4.1-mini"),
    ]
    triage, billing = provider.by_agent["Triage"], provider.by_agent["Billing"]
    assert len(triage.calls) == 1
    assert len(billing.calls) == 2
    assert [call.streamed for call in billing.calls] == [streamed, streamed]
    assert [tool.name for tool in billing.calls[0].tools] == ["refund"]
    assert [handoff.agent_name for handoff in triage.calls[0].handoffs] == ["Billing"]
    assert provider.calls[1].call is billing.calls[0]
    provider.assert_complete()


@pytest.mark.asyncio
async def test_model_names_choose_the_script_when_no_agent_has_one(
    run: Any, streamed: bool
) -> None:
    provider = ScriptedModelProvider(
        by_model={"gpt-4.1": TRIAGE_SCRIPT, "gpt-4.1-mini": BILLING_SCRIPT}
    )

    result = await run(
        support_app(),
        "Refund order A1",
        streamed=streamed,
        run_config=RunConfig(model_provider=provider, tracing_disabled=True),
    )

    assert result.final_output == "Order A1 is refunded."
    assert [c.script for c in provider.calls] == [
        "model 'gpt-4.1'",
        "model 'gpt-4.1-mini'",
        "model 'gpt-4.1-mini'",
    ]
    assert len(provider.by_model["gpt-4.1-mini"].calls) == 2
    provider.assert_complete()


@pytest.mark.asyncio
async def test_agent_name_wins_over_model_name_and_the_default_takes_the_rest(
    run: Any, streamed: bool
) -> None:
    clerk = Agent(name="Clerk", model="gpt-4o")
    billing = Agent(name="Billing", model="gpt-4.1", handoffs=[clerk])
    triage = Agent(name="Triage", model="gpt-4.1", handoffs=[billing])
    provider = ScriptedModelProvider(
        by_agent=[(billing, [[function_call("transfer_to_clerk", {}, call_id="call_c")]])],
        by_model={"gpt-4.1": TRIAGE_SCRIPT},
        default=[[assistant_message("Filed.")]],
    )

    result = await run(
        triage,
        "File it",
        streamed=streamed,
        run_config=RunConfig(model_provider=provider, tracing_disabled=True),
    )

    assert result.final_output == "Filed."
    assert [(c.script, c.agent_name, c.model_name) for c in provider.calls] == [
        ("model 'gpt-4.1'", "Triage", "gpt-4.1"),
        ("agent 'Billing'", "Billing", "gpt-4.1"),
        ("default", "Clerk", "gpt-4o"),
    ]
    assert provider.default is not None
    assert len(provider.default.calls) == 1
    provider.assert_complete()


@pytest.mark.asyncio
async def test_a_used_up_script_fails_the_call_instead_of_falling_back_to_the_default(
    run: Any, streamed: bool
) -> None:
    agent = Agent(name="Assistant", model="gpt-4.1")
    provider = ScriptedModelProvider(
        by_agent={"Assistant": []}, default=[[assistant_message("never used")]]
    )

    with pytest.raises(UnexpectedCallError) as raised:
        await run(
            agent,
            "Hi",
            streamed=streamed,
            run_config=RunConfig(model_provider=provider, tracing_disabled=True),
        )

    assert "model call #1: no scripted steps remain" in str(raised.value)
    assert provider.default is not None
    assert provider.default.calls == ()


@pytest.mark.asyncio
async def test_a_run_config_model_name_is_the_model_name_asked_for(
    run: Any, streamed: bool
) -> None:
    provider = ScriptedModelProvider(by_model={"o3": [[assistant_message("From o3.")]]})

    result = await run(
        Agent(name="Assistant", model="gpt-4.1"),
        "Hi",
        streamed=streamed,
        run_config=RunConfig(model="o3", model_provider=provider, tracing_disabled=True),
    )

    assert result.final_output == "From o3."
    assert provider.calls[0].model_name == "o3"


@pytest.mark.asyncio
async def test_an_agent_without_a_model_name_asks_for_the_sdk_default_model(
    run: Any, streamed: bool
) -> None:
    from agents.models import get_default_model

    provider = ScriptedModelProvider(by_model={get_default_model(): [[assistant_message("Hi.")]]})

    result = await run(
        Agent(name="Assistant"),
        "Hi",
        streamed=streamed,
        run_config=RunConfig(model_provider=provider, tracing_disabled=True),
    )

    assert result.final_output == "Hi."
    assert provider.calls[0].model_name is None


@pytest.mark.asyncio
async def test_agents_given_a_model_instance_never_reach_the_provider(
    run: Any, streamed: bool
) -> None:
    own = ScriptedModel([[function_call("transfer_to_billing", {}, call_id="call_h")]])
    billing = Agent(name="Billing", model="gpt-4.1")
    triage = Agent(name="Triage", model=own, handoffs=[billing])
    provider = ScriptedModelProvider(
        by_agent={"Triage": [[assistant_message("never used")]]},
        by_model={"gpt-4.1": [[assistant_message("Billing here.")]]},
    )

    result = await run(
        triage,
        "Bill me",
        streamed=streamed,
        run_config=RunConfig(model_provider=provider, tracing_disabled=True),
    )

    assert result.final_output == "Billing here."
    assert len(own.calls) == 1
    assert [c.script for c in provider.calls] == ["model 'gpt-4.1'"]
    assert provider.by_agent["Triage"].remaining_steps == 1


@pytest.mark.asyncio
async def test_as_default_scripts_runs_whose_config_names_no_provider(
    run: Any, streamed: bool
) -> None:
    provider = ScriptedModelProvider(by_agent={"Triage": TRIAGE_SCRIPT, "Billing": BILLING_SCRIPT})
    original = MultiProvider.get_model

    with provider.as_default() as installed:
        result = await run(support_app(), "Refund order A1", streamed=streamed)

    assert installed is provider
    assert MultiProvider.get_model is original
    assert result.final_output == "Order A1 is refunded."
    assert len(provider.calls) == 3
    provider.assert_complete()


@pytest.mark.asyncio
async def test_as_default_leaves_a_run_config_provider_in_charge(run: Any, streamed: bool) -> None:
    default = ScriptedModelProvider(default=[[assistant_message("never used")]])
    chosen = ScriptedModelProvider(default=[[assistant_message("From the chosen one.")]])

    with default.as_default():
        result = await run(
            Agent(name="Assistant", model="gpt-4.1"),
            "Hi",
            streamed=streamed,
            run_config=RunConfig(model_provider=chosen, tracing_disabled=True),
        )

    assert result.final_output == "From the chosen one."
    assert default.calls == ()


def test_as_default_restores_the_sdk_provider_when_the_block_raises() -> None:
    provider = ScriptedModelProvider(default=[])
    original = vars(MultiProvider)["get_model"]

    def fail_inside() -> None:
        with provider.as_default():
            assert MultiProvider().get_model("gpt-4.1") is provider.get_model("gpt-4.1")
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        fail_inside()

    assert vars(MultiProvider)["get_model"] is original


@pytest.mark.asyncio
async def test_an_unscripted_agent_fails_with_the_known_names_and_what_to_do(
    run: Any, streamed: bool
) -> None:
    provider = ScriptedModelProvider(
        by_agent={"Triage": TRIAGE_SCRIPT}, by_model={"gpt-4o": [[assistant_message("no")]]}
    )

    with pytest.raises(UnscriptedModelCall) as raised:
        await run(
            support_app(),
            "Refund order A1",
            streamed=streamed,
            run_config=RunConfig(model_provider=provider, tracing_disabled=True),
        )

    error = raised.value
    assert str(error) == (
        "No script for the model call of agent 'Billing' (model 'gpt-4.1-mini'): the "
        "ScriptedModelProvider has scripts for agents ['Triage'] and models ['gpt-4o'] "
        "and no default. Add a script for the agent (by_agent={'Billing': [...]}) or for "
        "the model (by_model={'gpt-4.1-mini': [...]}) or a default script (default=[...]), "
        "or find out why this agent made a model call."
    )
    assert (error.agent_name, error.model_name) == ("Billing", "gpt-4.1-mini")
    assert (error.known_agents, error.known_models) == (("Triage",), ("gpt-4o",))
    assert isinstance(error, ModelScriptError)
    assert isinstance(error, UnexpectedCallError)
    assert [c.script for c in provider.calls] == ["agent 'Triage'"]
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), str(copy)) == (UnscriptedModelCall, str(error))


@pytest.mark.asyncio
async def test_a_call_outside_any_run_is_routed_by_model_name_only() -> None:
    from agents.model_settings import ModelSettings
    from agents.models.interface import ModelTracing

    provider = ScriptedModelProvider(by_agent={"Triage": []})
    model = provider.get_model("gpt-4.1")

    with pytest.raises(UnscriptedModelCall) as raised:
        await model.get_response(
            None,
            "Hi",
            ModelSettings(),
            [],
            None,
            [],
            ModelTracing.DISABLED,
            previous_response_id=None,
            conversation_id=None,
            prompt=None,
        )

    assert str(raised.value) == (
        "No script for the model call of an unknown agent (model 'gpt-4.1'): the "
        "ScriptedModelProvider has scripts for agents ['Triage'] and models [none] and no "
        "default. Add a script for the model (by_model={'gpt-4.1': [...]}) or a default "
        "script (default=[...]), or find out why this agent made a model call."
    )
    assert model is provider.get_model("gpt-4.1")


@pytest.mark.asyncio
async def test_assert_complete_names_every_script_with_steps_left(run: Any, streamed: bool) -> None:
    shared = ScriptedModel([[assistant_message("one")], [assistant_message("two")]])
    hello: list[list[TResponseOutputItem]] = [[assistant_message("hi")]]
    provider = ScriptedModelProvider(
        by_agent={"Triage": hello, "Billing": BILLING_SCRIPT},
        by_model={"gpt-4o": shared, "gpt-4o-mini": shared},
        default=[[assistant_message("unused")]],
    )
    await run(
        Agent(name="Triage", model="gpt-4o"),
        "Hi",
        streamed=streamed,
        run_config=RunConfig(model_provider=provider, tracing_disabled=True),
    )
    await run(
        Agent(name="Other", model="gpt-4o-mini"),
        "Hi",
        streamed=streamed,
        run_config=RunConfig(model_provider=provider, tracing_disabled=True),
    )

    with pytest.raises(UnconsumedProviderSteps) as raised:
        provider.assert_complete()

    error = raised.value
    assert str(error) == (
        "Scripted model steps were not consumed in 3 of 4 script(s) of the "
        "ScriptedModelProvider:\n"
        "- agent 'Billing': 2 steps left (the first is step #1; it answered 0 model call(s))\n"
        "- model 'gpt-4o': 1 step left (the first is step #2; it answered 1 model call(s))\n"
        "- default: 1 step left (the first is step #1; it answered 0 model call(s))\n"
        "Check why the workflow ended early, or remove the extra steps."
    )
    assert list(error.scripts) == ["agent 'Billing'", "model 'gpt-4o'", "default"]
    assert error.remaining_steps == 4
    assert len(error.pending_steps) == 4
    assert isinstance(error, UnconsumedStepsError)
    assert [c.script for c in provider.calls] == ["agent 'Triage'", "model 'gpt-4o-mini'"]
    copy = pickle.loads(pickle.dumps(error))
    assert str(copy) == str(error)


@pytest.mark.asyncio
async def test_scripted_retry_advice_reaches_the_runner_through_the_provider(
    run: Any, streamed: bool
) -> None:
    from agents import ModelRetrySettings, retry_policies

    provider = ScriptedModelProvider(
        by_agent={
            "Assistant": ScriptedModel(
                [
                    ModelStep.raise_error(
                        RuntimeError("temporary"),
                        retry_advice=ModelRetryAdvice(suggested=True, replay_safety="safe"),
                    ),
                    [assistant_message("Second try.")],
                ]
            )
        }
    )
    agent = Agent(name="Assistant", model="gpt-4.1")
    settings = ModelRetrySettings(max_retries=1, policy=retry_policies.provider_suggested())
    agent.model_settings.retry = settings

    result = await run(
        agent,
        "Hi",
        streamed=streamed,
        run_config=RunConfig(model_provider=provider, tracing_disabled=True),
    )

    assert result.final_output == "Second try."
    assert len(provider.by_agent["Assistant"].calls) == 2


def test_the_provider_names_are_served_from_agents_testing() -> None:
    import agents.testing

    import agents_testing.model

    for name in ("ScriptedModelProvider", "UnscriptedModelCall", "UnconsumedProviderSteps"):
        assert getattr(agents.testing, name) is getattr(agents_testing.model, name)


def test_a_bad_step_is_reported_with_the_script_it_belongs_to() -> None:
    bogus: Any = {"bogus": 1}

    with pytest.raises(InvalidModelStep) as raised:
        ScriptedModelProvider(by_model={"gpt-4.1": [[assistant_message("ok")], bogus]})

    error = raised.value
    assert (error.reason, error.input_index) == ("unsupported_field", 1)
    assert str(error).startswith("Scripted model step #2 is invalid: ")
    assert str(error).endswith(" (in the script for model 'gpt-4.1')")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {},
            "Invalid argument ScriptedModelProvider(): expected at least one script "
            "(by_agent=..., by_model=... or default=...), got none.",
        ),
        (
            {"by_agent": [("Triage", []), (Agent(name="Triage"), [])]},
            "Invalid argument ScriptedModelProvider(by_agent): expected each name once (an "
            "Agent key stands for its name), got 'Triage' more than once.",
        ),
        (
            {"by_model": {1: []}},
            "Invalid argument ScriptedModelProvider(by_model): expected each key a model "
            "name, got int 1.",
        ),
        (
            {"by_agent": ["Triage"]},
            "Invalid argument ScriptedModelProvider(by_agent): expected a mapping, a sequence "
            "of (key, script) pairs, or None, got an item str 'Triage'.",
        ),
        (
            {"by_model": 3},
            "Invalid argument ScriptedModelProvider(by_model): expected a mapping, a sequence "
            "of (key, script) pairs, or None, got int 3.",
        ),
        (
            {"default": assistant_message("An output item, not a list of steps.")},
            "Invalid argument ScriptedModelProvider(default): expected a ScriptedModel or a "
            "sequence of steps (put a single step in a list), got ResponseOutputMessage ",
        ),
        (
            {"by_agent": {"Triage": "Hello"}},
            "Invalid argument ScriptedModelProvider(by_agent['Triage']): expected a "
            "ScriptedModel or a sequence of steps (put a single step in a list), got str "
            "'Hello'.",
        ),
    ],
    ids=["empty", "duplicate", "key", "pair", "mapping", "single-item", "string-script"],
)
def test_bad_constructor_arguments_are_structured_errors(
    kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(InvalidModelArgument) as raised:
        ScriptedModelProvider(**kwargs)

    text = str(raised.value)
    assert text == message or (message.endswith(" ") and text.startswith(message))


@pytest.mark.asyncio
async def test_agents_are_told_apart_without_turn_spans_too(run: Any, streamed: bool) -> None:
    # Without turn spans the agent span is the current one during a model call.
    provider = ScriptedModelProvider(by_agent={"Triage": TRIAGE_SCRIPT, "Billing": BILLING_SCRIPT})
    config = RunConfig(
        model_provider=provider,
        tracing_disabled=True,
        tracing={"include_task_and_turn_spans": False},
    )

    result = await run(support_app(), "Refund order A1", streamed=streamed, run_config=config)

    assert result.final_output == "Order A1 is refunded."
    assert [c.agent_name for c in provider.calls] == ["Triage", "Billing", "Billing"]


@pytest.mark.asyncio
async def test_agents_run_as_tools_in_parallel_are_told_apart(run: Any, streamed: bool) -> None:
    french = Agent(name="French", model="gpt-4.1")
    german = Agent(name="German", model="gpt-4.1")
    orchestrator = Agent(
        name="Orchestrator",
        model="gpt-4.1",
        tools=[
            french.as_tool(tool_name="to_french", tool_description="Translate to French."),
            german.as_tool(tool_name="to_german", tool_description="Translate to German."),
        ],
    )
    both: list[TResponseOutputItem] = [
        function_call("to_french", {"input": "Hello"}, call_id="call_fr"),
        function_call("to_german", {"input": "Hello"}, call_id="call_de"),
    ]
    provider = ScriptedModelProvider(
        by_agent={
            "Orchestrator": [both, [assistant_message("Bonjour / Hallo")]],
            "French": [[assistant_message("Bonjour")]],
            "German": [[assistant_message("Hallo")]],
        }
    )

    result = await run(
        orchestrator,
        "Say hello in French and German",
        streamed=streamed,
        run_config=RunConfig(model_provider=provider, tracing_disabled=True),
    )

    assert result.final_output == "Bonjour / Hallo"
    last = provider.by_agent["Orchestrator"].last_call
    assert last is not None
    assert last.tool_outputs() == {"call_fr": "Bonjour", "call_de": "Hallo"}
    provider.assert_complete()
