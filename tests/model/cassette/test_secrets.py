"""Secrets never reach a model cassette: client values, headers, URLs and content."""

from __future__ import annotations

from pathlib import Path

import pytest
from agents import Agent, ModelSettings, RunConfig, Runner
from agents.models.openai_responses import OpenAIResponsesModel
from openai import AsyncOpenAI

from agents_testing.core import CassetteSecretError
from agents_testing.model import ModelCassette

from .._openai_server import OpenAIServer, message

KEY = "sk-live-" + "Zq9" * 8


async def _record(cassette: ModelCassette, text: str, key: str = KEY, **settings: object) -> str:
    with OpenAIServer([message("Done.")]) as server:
        base_url = server.base_url.replace("http://", "http://desk:hunter2secret@")
        client = AsyncOpenAI(api_key=key, base_url=base_url, max_retries=0, project="proj_hidden42")
        model = cassette.record(OpenAIResponsesModel("gpt-test", client))
        agent = Agent(name="Desk", model=model, model_settings=ModelSettings(**settings))  # type: ignore[arg-type]
        await Runner.run(agent, text, run_config=RunConfig(tracing_disabled=True))
        headers = server.requests[0][2]
    return " ".join(headers.values())


@pytest.mark.asyncio
async def test_client_key_headers_and_url_credentials_never_reach_the_file(tmp_path: Path) -> None:
    cassette = ModelCassette(tmp_path / "c.json")
    sent = await _record(
        cassette,
        "Hello.",
        extra_headers={"Authorization": f"Bearer {KEY}", "X-Desk": "token-abcdef123456"},
    )
    cassette.save()

    text = (tmp_path / "c.json").read_text()
    assert "token-abcdef123456" in sent  # the header did go to the provider
    for secret in (KEY, "hunter2secret", "proj_hidden42", "token-abcdef123456", "127.0.0.1"):
        assert secret not in text
    assert '"X-Desk": "<redacted>"' in text


@pytest.mark.asyncio
async def test_a_key_in_content_fails_writing_and_names_the_place(tmp_path: Path) -> None:
    cassette = ModelCassette(tmp_path / "c.json")
    await _record(cassette, f"My key is {KEY}, keep it safe.")

    with pytest.raises(CassetteSecretError) as caught:
        cassette.save()

    assert [finding.location for finding in caught.value.findings] == [
        "calls[0].request.input[0].content"
    ]
    assert KEY not in str(caught.value)
    assert not (tmp_path / "c.json").exists()


@pytest.mark.asyncio
async def test_the_live_key_is_refused_even_without_a_known_shape(tmp_path: Path) -> None:
    cassette = ModelCassette(tmp_path / "c.json")
    await _record(cassette, "Reference live-desk-key-0042 please.", key="live-desk-key-0042")

    with pytest.raises(CassetteSecretError) as caught:
        cassette.save()

    assert caught.value.findings[0].kind == "the live API key or client secret"


@pytest.mark.asyncio
async def test_a_scrubbed_cassette_is_written_and_replays_against_the_unscrubbed_run(
    tmp_path: Path,
) -> None:
    path = tmp_path / "c.json"
    cassette = ModelCassette(path, scrubbers=[r"sk-live-\w+"])
    await _record(cassette, f"My key is {KEY}.")
    cassette.save()
    assert "My key is <scrubbed>." in path.read_text()

    model = ModelCassette(path, scrubbers=[r"sk-live-\w+"]).replay()
    result = await Runner.run(
        Agent(name="Desk", model=model),
        f"My key is {KEY}.",
        run_config=RunConfig(tracing_disabled=True),
    )
    assert result.final_output == "Done."


@pytest.mark.asyncio
async def test_allow_secrets_writes_anyway(tmp_path: Path) -> None:
    cassette = ModelCassette(tmp_path / "c.json", allow_secrets=True)
    await _record(cassette, f"My key is {KEY}.")
    cassette.save()
    assert KEY in (tmp_path / "c.json").read_text()
