"""Replay compares everything that changes the answer: model name, every setting, long text.

Recorded through the SDK's real ``OpenAIResponsesModel`` on a local server, replayed
through ``Runner.run`` with one thing changed at a time.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from agents import (
    Agent,
    ModelRetrySettings,
    ModelSettings,
    RunConfig,
    Runner,
    retry_policies,
)
from agents.models.openai_provider import OpenAIProvider
from agents.models.openai_responses import OpenAIResponsesModel
from agents.retry import RetryPolicy
from openai import AsyncOpenAI

from agents_testing.model import ModelCassette, ModelRequestMismatch

from .._openai_server import OpenAIServer, message

KEY = "sk-test-" + "k3y" * 8
INSTRUCTIONS = "You are the support desk of a travel agency. " * 8 + "Answer in English."


def _settings(policy: RetryPolicy | None, **extra: Any) -> ModelSettings:
    retry = ModelRetrySettings(max_retries=2, policy=policy)
    return ModelSettings(retry=retry, **extra)


def _agent(model: Any, settings: ModelSettings, instructions: str = INSTRUCTIONS) -> Agent[Any]:
    return Agent(name="Support", instructions=instructions, model=model, model_settings=settings)


async def _run(agent: Agent[Any], **config: Any) -> str:
    result = await Runner.run(
        agent, "Where is my booking?", run_config=RunConfig(tracing_disabled=True, **config)
    )
    return str(result.final_output)


async def _record(
    path: Path, settings: ModelSettings, name: str = "gpt-test"
) -> OpenAIResponsesModel:
    with OpenAIServer([message("It is confirmed.")]) as server:
        real = OpenAIResponsesModel(
            name, AsyncOpenAI(api_key=KEY, base_url=server.base_url, max_retries=0)
        )
        cassette = ModelCassette(path)
        await _run(_agent(cassette.record(real), settings))
        cassette.save()
    return real


POLICY = retry_policies.any(retry_policies.provider_suggested(), retry_policies.http_status([503]))


@pytest.mark.asyncio
async def test_the_retry_policy_is_recorded_and_replays_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    await _record(path, _settings(POLICY))

    recorded = json.loads(path.read_text())["calls"][0]["request"]["model_settings"]["retry"]
    assert recorded["policy"]["callable"] == "agents.retry._RetryPolicies.any.<locals>.policy"
    assert recorded["policy"]["captures"]["policies"][1]["captures"] == {"allowed": [503]}
    same = retry_policies.any(
        retry_policies.provider_suggested(), retry_policies.http_status([503])
    )
    assert await _run(_agent(ModelCassette(path).replay(), _settings(same))) == "It is confirmed."


@pytest.mark.parametrize(
    ("policy", "changed"),
    [
        (
            retry_policies.any(
                retry_policies.provider_suggested(), retry_policies.http_status([429])
            ),
            "request.model_settings.retry.policy.captures.policies[1].captures.allowed[0]: "
            "recorded 503, now 429",
        ),
        (
            retry_policies.network_error(),
            "request.model_settings.retry.policy.callable: recorded "
            "'agents.retry._RetryPolicies.any.<locals>.policy', now "
            "'agents.retry._RetryPolicies.network_error.<locals>.policy'",
        ),
        (None, "request.model_settings.retry.policy: recorded {"),
    ],
    ids=["argument", "policy", "removed"],
)
@pytest.mark.asyncio
async def test_a_changed_retry_policy_fails_replay_naming_it(
    tmp_path: Path, policy: RetryPolicy | None, changed: str
) -> None:
    path = tmp_path / "c.json"
    await _record(path, _settings(POLICY))

    with pytest.raises(ModelRequestMismatch) as caught:
        await _run(_agent(ModelCassette(path).replay(), _settings(policy)))

    assert caught.value.differences[0].startswith(changed)


@pytest.mark.asyncio
async def test_a_policy_added_since_recording_fails_replay(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    await _record(path, _settings(None))

    with pytest.raises(ModelRequestMismatch) as caught:
        await _run(_agent(ModelCassette(path).replay(), _settings(POLICY)))

    assert caught.value.differences[0].startswith(
        "request.model_settings.retry.policy: recorded None, now {"
    )


@pytest.mark.asyncio
async def test_a_cassette_recorded_before_policies_were_kept_still_replays(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    await _record(path, _settings(POLICY))
    document = json.loads(path.read_text())
    del document["calls"][0]["request"]["model_settings"]["retry"]["policy"]
    path.write_text(json.dumps(document))

    assert await _run(_agent(ModelCassette(path).replay(), _settings(POLICY))) == "It is confirmed."


@pytest.mark.asyncio
async def test_any_other_changed_setting_fails_replay(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    await _record(path, _settings(POLICY, temperature=0.2, extra_body={"seed": 7}))

    replay = ModelCassette(path).replay()
    changed = _agent(replay, _settings(POLICY, temperature=0.2, extra_body={"seed": 8}))
    with pytest.raises(ModelRequestMismatch) as caught:
        await _run(changed)

    assert caught.value.differences == (
        "request.model_settings.extra_body.seed: recorded 7, now 8",
    )


@pytest.mark.asyncio
async def test_a_model_object_with_another_name_fails_replay(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    await _record(path, _settings(None), name="gpt-4.1")
    assert json.loads(path.read_text())["calls"][0]["model"] == "gpt-4.1"

    replay = ModelCassette(path).replay(model_name="gpt-4.1-mini")
    with pytest.raises(ModelRequestMismatch) as caught:
        await _run(_agent(replay, _settings(None)))

    assert caught.value.differences == ("model: recorded 'gpt-4.1', now 'gpt-4.1-mini'",)
    assert await _run(_agent(ModelCassette(path).replay(model_name="gpt-4.1"), _settings(None)))


@pytest.mark.asyncio
async def test_an_agent_asking_a_replayed_provider_for_another_model_fails(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    with OpenAIServer([message("It is confirmed.")]) as server:
        cassette = ModelCassette(path)
        # A client of its own: the provider's shared one may belong to a closed event loop.
        client = AsyncOpenAI(api_key=KEY, base_url=server.base_url, max_retries=0)
        provider = cassette.record_provider(
            lambda: OpenAIProvider(openai_client=client, use_responses=True)
        )
        await _run(_agent("gpt-4.1", _settings(None)), model_provider=provider)
        cassette.save()

    replay = ModelCassette(path).replay_provider()
    with pytest.raises(ModelRequestMismatch) as caught:
        await _run(_agent("gpt-4o", _settings(None)), model_provider=replay)

    assert caught.value.differences == ("model: recorded 'gpt-4.1', now 'gpt-4o'",)
    replay = ModelCassette(path).replay_provider()
    assert await _run(_agent("gpt-4.1", _settings(None)), model_provider=replay)
    ignoring = ModelCassette(path, ignore={"model"}).replay_provider()
    assert await _run(_agent("gpt-4o", _settings(None)), model_provider=ignoring)


@pytest.mark.asyncio
async def test_a_long_instruction_changed_at_its_end_shows_the_change(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    await _record(path, _settings(None))
    changed = INSTRUCTIONS.replace("Answer in English.", "Answer in French.")

    with pytest.raises(ModelRequestMismatch) as caught:
        await _run(_agent(ModelCassette(path).replay(), _settings(None), changed))

    assert caught.value.differences == (
        f"request.system_instructions: differs from character {len(INSTRUCTIONS) - 7} (line 1): "
        "recorded ...'of a travel agency. Answer in English.', "
        "now ...'of a travel agency. Answer in French.'",
    )
