"""Through the runner: every known secret format stops ``model_cassette`` from writing."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from ..._secret_samples import SAMPLES
from .._openai_server import OpenAIServer, message

INI = """
[pytest]
asyncio_mode = strict
asyncio_default_fixture_loop_scope = function
"""

TEST = """
import pytest
from agents import Agent, RunConfig, Runner
from agents.models.openai_responses import OpenAIResponsesModel
from openai import AsyncOpenAI


def real():
    client = AsyncOpenAI(api_key="test-key", base_url={base_url!r}, max_retries=0)
    return OpenAIResponsesModel("gpt-test", client)


@pytest.mark.asyncio
@pytest.mark.parametrize("fmt", {ids!r})
{marker}async def test_support(model_cassette, fmt):
    agent = Agent(name="Support", model=model_cassette.model(real))
    result = await Runner.run(agent, "Help?", run_config=RunConfig(tracing_disabled=True))
    assert result.final_output
"""


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.delenv("CI", raising=False)
    pytester.makeini(INI)
    return pytester


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    # The support bot's answer quotes a secret, a different format in each test.
    with OpenAIServer([message(f"Use this: {sample.text}") for sample in SAMPLES]) as running:
        yield running


def test_every_secret_format_in_a_recorded_answer_stops_the_write(
    project: pytest.Pytester, server: OpenAIServer
) -> None:
    ids = [sample.id for sample in SAMPLES]
    project.makepyfile(test_support=TEST.format(base_url=server.base_url, ids=ids, marker=""))

    result = project.runpytest("--agents-record-mode=once", "-p", "no:randomly")

    result.assert_outcomes(passed=len(SAMPLES), errors=len(SAMPLES))
    assert len(server.requests) == len(SAMPLES)
    output = result.stdout.str() + result.stderr.str()
    for sample in SAMPLES:
        result.stdout.fnmatch_lines(
            [
                f"*ERROR at teardown of test_support[[]{sample.id}[]]*",
                "*CassetteSecretError: Refusing to write the cassette *test_support"
                f"[[]{sample.id}[]].json: it would contain secret-shaped strings at",
                f"*calls[[]0[]].response.output[[]0[]].content[[]0[]].text: {sample.kind}",
            ]
        )
        assert sample.secret not in output, sample.id
    assert not (project.path / "cassettes").exists()


def test_a_known_harmless_value_is_let_through_by_the_allow_list(
    project: pytest.Pytester, server: OpenAIServer
) -> None:
    [example] = [sample for sample in SAMPLES if sample.id == "openai"]
    marker = f"@pytest.mark.agents_cassette(allowed_secrets=[{example.secret!r}])\n"
    project.makepyfile(
        test_support=TEST.format(base_url=server.base_url, ids=["openai"], marker=marker)
    )

    project.runpytest("--agents-record-mode=once").assert_outcomes(passed=1)

    cassette = project.path / "cassettes" / "test_support" / "test_support[openai].json"
    assert example.secret in json.dumps(json.loads(cassette.read_text()))


def test_an_allow_list_pattern_must_match_the_whole_value(
    project: pytest.Pytester, server: OpenAIServer
) -> None:
    marker = '@pytest.mark.agents_cassette(allowed_secrets=[__import__("re").compile("sk-proj")])\n'
    project.makepyfile(
        test_support=TEST.format(base_url=server.base_url, ids=["openai"], marker=marker)
    )

    result = project.runpytest("--agents-record-mode=once")

    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*an OpenAI-style API key (sk-...)*"])
