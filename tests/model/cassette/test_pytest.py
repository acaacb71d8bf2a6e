"""The ``model_cassette`` fixture and ``--agents-record-mode``, driven through throw-away tests."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from .._openai_server import OpenAIServer, message, tool_call

INI = """
[pytest]
asyncio_mode = strict
asyncio_default_fixture_loop_scope = function
"""

TEST = """
import pytest
from agents import Agent, RunConfig, Runner, function_tool
from agents.models.openai_responses import OpenAIResponsesModel
from openai import AsyncOpenAI


@function_tool
def weather(city: str) -> str:
    '''The weather in a city.'''
    return f"Sunny in {{city}}"


def real():
    client = AsyncOpenAI(api_key="sk-test-0123456789abcdef", base_url={base_url!r}, max_retries=0)
    return OpenAIResponsesModel("gpt-test", client)


@pytest.mark.asyncio
async def test_weather(model_cassette):
    agent = Agent(name="Weather", model=model_cassette.model(real), tools=[weather])
    result = await Runner.run(agent, "{question}", run_config=RunConfig(tracing_disabled=True))
    assert result.final_output == "Sunny in Paris."
"""


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    turns: list[Mapping[str, Any]] = [
        tool_call("weather", '{"city": "Paris"}', "call_1"),
        message("Sunny in Paris."),
    ]
    with OpenAIServer(turns * 2) as running:
        yield running


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.delenv("CI", raising=False)
    pytester.makeini(INI)
    return pytester


def _write(project: pytest.Pytester, server: OpenAIServer, question: str = "Weather?") -> None:
    project.makepyfile(test_weather=TEST.format(base_url=server.base_url, question=question))


def test_once_records_a_missing_cassette_then_none_replays_it_with_the_guard_on(
    project: pytest.Pytester, server: OpenAIServer
) -> None:
    _write(project, server)

    project.runpytest("--agents-record-mode=once").assert_outcomes(passed=1)

    cassette = project.path / "cassettes" / "test_weather" / "test_weather.json"
    assert len(json.loads(cassette.read_text())["calls"]) == 2
    assert len(server.requests) == 2

    project.runpytest("--agents-block-model-requests").assert_outcomes(passed=1)
    project.runpytest("--agents-record-mode=once").assert_outcomes(passed=1)
    assert len(server.requests) == 2


def test_none_without_a_cassette_fails_saying_how_to_record(
    project: pytest.Pytester, server: OpenAIServer
) -> None:
    _write(project, server)

    result = project.runpytest()

    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*CassetteNotFound*--agents-record-mode=once*"])
    assert server.requests == []


def test_ci_always_replays(
    project: pytest.Pytester, server: OpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(project, server)
    monkeypatch.setenv("CI", "true")

    project.runpytest("--agents-record-mode=all").assert_outcomes(failed=1)

    assert server.requests == []


def test_all_records_again_and_a_changed_prompt_fails_replay(
    project: pytest.Pytester, server: OpenAIServer
) -> None:
    _write(project, server)
    project.runpytest("--agents-record-mode=all").assert_outcomes(passed=1)
    project.runpytest("--agents-record-mode=all").assert_outcomes(passed=1)
    assert len(server.requests) == 4

    _write(project, server, question="Weather today?")
    result = project.runpytest()

    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*request.input[[]0[]].content: recorded 'Weather?', now 'Weather today?'*"]
    )


def test_new_episodes_replays_what_matches_and_records_the_rest(
    project: pytest.Pytester, server: OpenAIServer
) -> None:
    _write(project, server)
    project.runpytest("--agents-record-mode=once").assert_outcomes(passed=1)
    assert len(server.requests) == 2

    _write(project, server, question="Weather today?")
    project.runpytest("--agents-record-mode=new_episodes").assert_outcomes(passed=1)

    assert len(server.requests) == 4
    cassette = project.path / "cassettes" / "test_weather" / "test_weather.json"
    calls = json.loads(cassette.read_text())["calls"]
    assert calls[0]["request"]["input"][0]["content"] == "Weather today?"
    project.runpytest().assert_outcomes(passed=1)


def test_the_marker_sets_the_path_and_an_unknown_keyword_fails(
    project: pytest.Pytester, server: OpenAIServer
) -> None:
    source = TEST.format(base_url=server.base_url, question="Weather?")
    marked = source.replace(
        "@pytest.mark.asyncio\n",
        "@pytest.mark.asyncio\n@pytest.mark.agents_cassette(path='c/w.json')\n",
    )
    project.makepyfile(test_weather=marked)
    project.runpytest("--agents-record-mode=once").assert_outcomes(passed=1)
    assert (project.path / "c" / "w.json").is_file()

    project.makepyfile(
        test_weather=source.replace(
            "@pytest.mark.asyncio\n",
            "@pytest.mark.asyncio\n@pytest.mark.agents_cassette(colour=1)\n",
        )
    )
    project.runpytest().assert_outcomes(errors=1)


def test_rewrite_is_accepted_and_records_again(
    project: pytest.Pytester, server: OpenAIServer
) -> None:
    _write(project, server)
    project.runpytest("--agents-record-mode=once").assert_outcomes(passed=1)

    project.runpytest("--agents-record-mode=rewrite").assert_outcomes(passed=1)

    assert len(server.requests) == 4


def test_ci_overriding_an_explicit_mode_says_so_and_a_switch_records_there(
    project: pytest.Pytester, server: OpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(project, server)
    monkeypatch.setenv("CI", "true")

    ignored = project.runpytest("--agents-record-mode=all")

    ignored.assert_outcomes(failed=1)
    ignored.stdout.fnmatch_lines(
        [
            "agents-testing cassettes: record mode none (--agents-record-mode=all is ignored "
            "because the CI environment variable is set*",
            "*RecordModeIgnored: --agents-record-mode=all is ignored because the CI environment "
            "variable is set*add --agents-record-in-ci.",
        ]
    )
    assert server.requests == []

    recorded = project.runpytest("--agents-record-mode=all", "--agents-record-in-ci")

    recorded.assert_outcomes(passed=1)
    recorded.stdout.fnmatch_lines(["agents-testing cassettes: record mode all"])
    recorded.stdout.no_fnmatch_line("*RecordModeIgnored*")
    assert len(server.requests) == 2
    project.runpytest().assert_outcomes(passed=1)


GUARD_INI = INI + "agents_block_model_requests = true\n"


def test_recording_under_the_ini_guard_fails_naming_the_flag_that_lifts_it(
    project: pytest.Pytester, server: OpenAIServer
) -> None:
    project.makeini(GUARD_INI)
    _write(project, server)

    refused = project.runpytest("--agents-record-mode=once")

    refused.assert_outcomes(failed=1)
    refused.stdout.fnmatch_lines(
        [
            "*CassetteRecordingBlocked: test_weather.py::test_weather: recording "
            "*test_weather.json needs the real provider, but real model requests are blocked*"
            "--agents-allow-model-requests*",
        ]
    )
    assert server.requests == []

    project.runpytest("--agents-record-mode=once", "--agents-allow-model-requests").assert_outcomes(
        passed=1
    )
    assert len(server.requests) == 2
    project.runpytest().assert_outcomes(passed=1)  # the replay runs under the guard


INTERRUPTING = """
import json

import pytest
from agents import Agent, RunConfig, Runner, function_tool
from agents.models.openai_responses import OpenAIResponsesModel
from openai import AsyncOpenAI

ORIGINAL = json.JSONEncoder.iterencode


@function_tool
def weather(city: str) -> str:
    '''The weather in a city.'''
    return f"Sunny in {{city}}"


def interrupted_part_way(self, value, *args, **kwargs):
    for count, piece in enumerate(ORIGINAL(self, value, *args, **kwargs)):
        if count == 40:
            raise KeyboardInterrupt  # Ctrl-C while the cassette is being written
        yield piece


def real():
    client = AsyncOpenAI(api_key="test-key", base_url={base_url!r}, max_retries=0)
    return OpenAIResponsesModel("gpt-test", client)


@pytest.mark.asyncio
async def test_weather(monkeypatch, model_cassette):
    agent = Agent(name="Weather", model=model_cassette.model(real), tools=[weather])
    await Runner.run(agent, "Weather?", run_config=RunConfig(tracing_disabled=True))
    # From here on (the cassette is saved at teardown), the serializer stops half-way.
    monkeypatch.setattr(json.JSONEncoder, "iterencode", interrupted_part_way)
"""


def test_a_write_interrupted_half_way_leaves_the_previous_cassette_intact(
    project: pytest.Pytester, server: OpenAIServer
) -> None:
    _write(project, server)
    project.runpytest("--agents-record-mode=once").assert_outcomes(passed=1)
    folder = project.path / "cassettes" / "test_weather"
    before = (folder / "test_weather.json").read_bytes()
    project.makepyfile(test_weather=INTERRUPTING.format(base_url=server.base_url))

    result = project.runpytest_subprocess("--agents-record-mode=all")

    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(["*KeyboardInterrupt*"])
    assert len(server.requests) == 4  # it did record again, up to the write
    assert sorted(path.name for path in folder.iterdir()) == ["test_weather.json"]
    assert (folder / "test_weather.json").read_bytes() == before
