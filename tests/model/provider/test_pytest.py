"""The ``scripted_model_provider`` fixture: an unchanged app's string model names, scripted.

The first tests use the fixture directly, as a user does; the rest drive throw-away
test files to show teardown, restoration and the company of the request guard and
``model_cassette``.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from agents import Agent, Runner, function_tool
from agents.models.multi_provider import MultiProvider
from agents.voice import (
    AudioInput,
    SingleAgentVoiceWorkflow,
    TTSModelSettings,
    VoicePipeline,
    VoicePipelineConfig,
)

from agents_testing.model import (
    InvalidScriptedToolCall,
    ScriptedModelProvider,
    ScriptedModelProviderFactory,
    UnscriptedModelCall,
    assistant_message,
    function_call,
)
from agents_testing.voice import (
    ScriptedSTTModelFactory,
    ScriptedTTSModelFactory,
    TTSResult,
    pcm16_samples,
)

from .._openai_server import OpenAIServer, message


@function_tool
def refund(order_id: str) -> str:
    """Refund an order."""
    return f"refunded {order_id}"


def support_app() -> Agent[Any]:
    """An app as written for production: string model names, no model objects."""
    billing = Agent(name="Billing", model="gpt-4.1-mini", tools=[refund])
    return Agent(name="Triage", model="gpt-4.1", handoffs=[billing])


async def run_without_config(agent: Agent[Any], text: str, *, streamed: bool) -> Any:
    """The app's own call: ``Runner.run`` / ``Runner.run_streamed`` with no ``RunConfig``."""
    if not streamed:
        return (await Runner.run(agent, text)).final_output
    result = Runner.run_streamed(agent, text)
    async for _ in result.stream_events():
        pass
    return result.final_output


@pytest.mark.asyncio
async def test_the_fixture_scripts_an_app_run_without_a_run_config(
    scripted_model_provider: ScriptedModelProviderFactory, streamed: bool
) -> None:
    provider = scripted_model_provider(
        by_agent={
            "Triage": [[function_call("transfer_to_billing", {}, call_id="call_h")]],
            "Billing": [
                [function_call("refund", {"order_id": "A1"}, call_id="call_r")],
                [assistant_message("Order A1 is refunded.")],
            ],
        }
    )

    output = await run_without_config(support_app(), "Refund order A1", streamed=streamed)

    assert output == "Order A1 is refunded."
    assert [(c.agent_name, c.model_name) for c in provider.calls] == [
        ("Triage", "gpt-4.1"),
        ("Billing", "gpt-4.1-mini"),
        ("Billing", "gpt-4.1-mini"),
    ]
    assert provider.by_agent["Billing"].last_call is not None
    assert provider.by_agent["Billing"].last_call.streamed is streamed


@pytest.mark.asyncio
async def test_the_fixture_checks_scripted_tool_calls_against_the_agent_tools(
    scripted_model_provider: ScriptedModelProviderFactory, streamed: bool
) -> None:
    provider = scripted_model_provider(
        by_agent={
            "Triage": [[function_call("transfer_to_billing", {}, call_id="call_h")]],
            "Billing": [[function_call("refund", {"order": "A1"}, call_id="call_r")]],
        }
    )

    with pytest.raises(InvalidScriptedToolCall) as raised:
        await run_without_config(support_app(), "Refund order A1", streamed=streamed)

    assert (raised.value.tool_name, raised.value.path, raised.value.rule) == (
        "refund",
        "$.order",
        "additionalProperties",
    )
    assert len(provider.by_agent["Billing"].calls) == 1


@pytest.mark.asyncio
@pytest.mark.agents_testing(check_tool_calls=False, assert_complete=False)
async def test_the_marker_turns_the_provider_tool_call_check_off(
    scripted_model_provider: ScriptedModelProviderFactory,
) -> None:
    scripted_model_provider(
        by_agent={
            "Triage": [[function_call("transfer_to_billing", {}, call_id="call_h")]],
            "Billing": [
                [function_call("refund", {"order": "A1"}, call_id="call_r")],
                [assistant_message("Sorry, that failed.")],
            ],
        }
    )

    output = await run_without_config(support_app(), "Refund order A1", streamed=False)

    assert output == "Sorry, that failed."


@pytest.mark.asyncio
async def test_the_fixture_reports_an_unscripted_agent_of_the_app(
    scripted_model_provider: ScriptedModelProviderFactory, streamed: bool
) -> None:
    scripted_model_provider(
        by_agent={"Triage": [[function_call("transfer_to_billing", {}, call_id="call_h")]]}
    )

    with pytest.raises(UnscriptedModelCall) as raised:
        await run_without_config(support_app(), "Refund order A1", streamed=streamed)

    assert (raised.value.agent_name, raised.value.model_name) == ("Billing", "gpt-4.1-mini")


@pytest.mark.asyncio
async def test_the_fixture_scripts_the_agent_behind_a_voice_pipeline(
    scripted_model_provider: ScriptedModelProviderFactory,
    scripted_stt: ScriptedSTTModelFactory,
    scripted_tts: ScriptedTTSModelFactory,
) -> None:
    provider = scripted_model_provider(by_agent={"Voice": [[assistant_message("Hello there.")]]})
    tts = scripted_tts([TTSResult([pcm16_samples([0, 100, -100, 0])])])
    pipeline = VoicePipeline(
        workflow=SingleAgentVoiceWorkflow(Agent(name="Voice", model="gpt-4.1")),
        stt_model=scripted_stt("hello"),
        tts_model=tts,
        config=VoicePipelineConfig(tts_settings=TTSModelSettings(buffer_size=1)),
    )

    result = await pipeline.run(AudioInput(np.zeros(2, dtype=np.int16)))
    [event async for event in result.stream()]

    assert [call.text for call in tts.calls] == ["Hello there."]
    assert [(c.agent_name, c.model_name, c.call.streamed) for c in provider.calls] == [
        ("Voice", "gpt-4.1", True)
    ]


def test_the_fixture_takes_the_constructor_arguments(
    scripted_model_provider: ScriptedModelProviderFactory,
) -> None:
    made = inspect.signature(scripted_model_provider).parameters
    constructor = inspect.signature(ScriptedModelProvider).parameters
    assert list(made) == list(constructor)
    # The differences, as with scripted_model: the fixture streams every item, and its
    # extra checks follow the test's marker (on unless it says otherwise).
    assert (made["stream_all_items"].default, constructor["stream_all_items"].default) == (
        True,
        False,
    )
    assert (made["extra_checks"].default, constructor["extra_checks"].default) == (None, False)
    differing = ("stream_all_items", "extra_checks")
    assert {n: p for n, p in made.items() if n not in differing} == {
        n: p for n, p in constructor.items() if n not in differing
    }
    provider = scripted_model_provider(by_model={"gpt-4.1": []})

    assert isinstance(provider, ScriptedModelProvider)
    assert MultiProvider().get_model("gpt-4.1") is provider.get_model("gpt-4.1")


INI = """
[pytest]
asyncio_mode = strict
asyncio_default_fixture_loop_scope = function
"""

APP = """
import pytest
from agents import Agent, Runner
from agents.models.multi_provider import MultiProvider
from agents_testing.model import assistant_message

ORIGINAL = MultiProvider.get_model


def app():
    return Agent(name="Assistant", model="gpt-4.1")
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeini(INI)
    return pytester


def test_unconsumed_steps_fail_the_test_at_teardown(project: pytest.Pytester) -> None:
    project.makepyfile(
        test_app=APP
        + """
@pytest.mark.asyncio
async def test_left_over(scripted_model_provider):
    scripted_model_provider(
        by_agent={"Assistant": [[assistant_message("Hi.")], [assistant_message("Again.")]]},
        default=[[assistant_message("Never.")]],
    )
    assert (await Runner.run(app(), "Hi")).final_output == "Hi."
"""
    )

    result = project.runpytest()

    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*UnconsumedProviderSteps: Scripted model steps were not consumed in 2 of 2 "
            "script(s) of the ScriptedModelProvider:",
            "*- agent 'Assistant': 1 step left (the first is step #2; it answered 1 model call(s))",
            "*- default: 1 step left (the first is step #1; it answered 0 model call(s))",
        ]
    )


def test_the_sdk_provider_is_back_after_the_test_and_the_guard_still_blocks_real_requests(
    project: pytest.Pytester,
) -> None:
    project.makepyfile(
        test_app=APP
        + """
@pytest.mark.asyncio
async def test_1_scripted(scripted_model_provider):
    scripted_model_provider(by_model={"gpt-4.1": [[assistant_message("Scripted.")]]})
    assert MultiProvider.get_model is not ORIGINAL
    assert (await Runner.run(app(), "Hi")).final_output == "Scripted."


@pytest.mark.asyncio
async def test_2_real_again():
    assert MultiProvider.get_model is ORIGINAL
    await Runner.run(app(), "Hi")
"""
    )

    result = project.runpytest("--agents-block-model-requests")

    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        ["*test_2_real_again*", "*ModelRequestBlocked*OpenAIResponsesModel.get_response()*"]
    )


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    with OpenAIServer([message("Recorded answer.")]) as running:
        yield running


def test_a_cassette_model_and_scripted_model_names_share_one_test(
    project: pytest.Pytester, server: OpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    project.makepyfile(
        test_app=APP
        + f"""
from agents.models.openai_responses import OpenAIResponsesModel
from openai import AsyncOpenAI


def real():
    client = AsyncOpenAI(api_key="sk-test-0123456789abcdef", base_url={server.base_url!r})
    return OpenAIResponsesModel("gpt-test", client)


@pytest.mark.asyncio
async def test_both(model_cassette, scripted_model_provider):
    provider = scripted_model_provider(by_model={{"gpt-4.1": [[assistant_message("Scripted.")]]}})
    recorded = Agent(name="Recorded", model=model_cassette.model(real))

    assert (await Runner.run(recorded, "Hi")).final_output == "Recorded answer."
    assert (await Runner.run(app(), "Hi")).final_output == "Scripted."
    assert [call.agent_name for call in provider.calls] == ["Assistant"]
"""
    )

    project.runpytest("--agents-record-mode=once").assert_outcomes(passed=1)
    assert len(server.requests) == 1

    project.runpytest("--agents-block-model-requests").assert_outcomes(passed=1)
    assert len(server.requests) == 1


def test_the_readme_example_passes(project: pytest.Pytester) -> None:
    import re
    from pathlib import Path

    readme = Path(__file__).resolve().parents[3] / "packages" / "testing-model" / "README.md"
    blocks = re.findall(r"```python\n(.*?)```", readme.read_text(encoding="utf-8"), re.S)
    examples = [block for block in blocks if "ScriptedModelProvider(" in block]
    assert len(examples) == 1
    project.makepyfile(test_readme_provider=examples[0])

    result = project.runpytest("--agents-block-model-requests", "--strict-markers")

    result.assert_outcomes(passed=1)
