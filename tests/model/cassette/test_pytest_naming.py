"""Cassette files of ``model_cassette``: one per test, by class and parameters, never shared."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .._openai_server import OpenAIServer, message

INI = """
[pytest]
asyncio_mode = strict
asyncio_default_fixture_loop_scope = function
"""

HEADER = """
import pytest
from agents import Agent, RunConfig, Runner
from agents.models.openai_responses import OpenAIResponsesModel
from openai import AsyncOpenAI


def real():
    client = AsyncOpenAI(api_key="test-key", base_url={base_url!r}, max_retries=0)
    return OpenAIResponsesModel("gpt-test", client)


async def ask(model_cassette, text="Hello?"):
    agent = Agent(name="Greeter", model=model_cassette.model(real))
    result = await Runner.run(agent, text, run_config=RunConfig(tracing_disabled=True))
    return result.final_output
"""

SAME_NAMES = """
class TestA:
    @pytest.mark.asyncio
    async def test_greeting(self, model_cassette):
        assert await ask(model_cassette, "Hello from A") == "Hi."


class TestB:
    @pytest.mark.asyncio
    async def test_greeting(self, model_cassette):
        assert await ask(model_cassette, "Hello from B") == "Hi."


class TestOuter:
    class TestInner:
        @pytest.mark.asyncio
        async def test_greeting(self, model_cassette):
            assert await ask(model_cassette, "Hello from inside") == "Hi."


@pytest.mark.asyncio
@pytest.mark.parametrize("city", ["Paris", "Rome"])
async def test_weather(model_cassette, city):
    assert await ask(model_cassette, f"Weather in {city}?") == "Hi."
"""


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    with OpenAIServer([message("Hi.")] * 20) as running:
        yield running


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.delenv("CI", raising=False)
    pytester.makeini(INI)
    return pytester


def _write(project: pytest.Pytester, server: OpenAIServer, body: str) -> None:
    project.makepyfile(test_desk=HEADER.format(base_url=server.base_url) + body)


def test_same_named_tests_of_two_classes_and_each_parameter_get_their_own_file(
    project: pytest.Pytester, server: OpenAIServer
) -> None:
    _write(project, server, SAME_NAMES)

    project.runpytest("--agents-record-mode=once").assert_outcomes(passed=5)

    folder = project.path / "cassettes" / "test_desk"
    assert sorted(path.name for path in folder.iterdir()) == [
        "TestA.test_greeting.json",
        "TestB.test_greeting.json",
        "TestOuter.TestInner.test_greeting.json",
        "test_weather[Paris].json",
        "test_weather[Rome].json",
    ]
    assert "Hello from B" in (folder / "TestB.test_greeting.json").read_text()
    assert "Hello from A" in (folder / "TestA.test_greeting.json").read_text()
    project.runpytest("--agents-block-model-requests").assert_outcomes(passed=5)
    assert len(server.requests) == 5


def test_two_tests_given_one_cassette_both_fail_naming_each_other(
    project: pytest.Pytester, server: OpenAIServer
) -> None:
    _write(
        project,
        server,
        """
@pytest.mark.asyncio
@pytest.mark.agents_cassette(path="cassettes/shared.json")
async def test_first(model_cassette):
    await ask(model_cassette)


@pytest.mark.asyncio
@pytest.mark.agents_cassette(path="cassettes/shared.json")
async def test_second(model_cassette):
    await ask(model_cassette)


@pytest.mark.asyncio
async def test_alone(model_cassette):
    await ask(model_cassette)
""",
    )

    result = project.runpytest("--agents-record-mode=once")

    result.assert_outcomes(passed=1, errors=2)
    result.stdout.fnmatch_lines(
        [
            "*test_desk.py::test_first and test_desk.py::test_second both use the cassette "
            "*shared.json; a cassette belongs to one test.*",
            "*test_desk.py::test_second and test_desk.py::test_first both use the cassette*",
        ]
    )
    assert not (project.path / "cassettes" / "shared.json").exists()
    assert len(server.requests) == 1


def test_parameters_that_name_one_file_are_a_collision_too(
    project: pytest.Pytester, server: OpenAIServer
) -> None:
    _write(
        project,
        server,
        """
@pytest.mark.asyncio
@pytest.mark.parametrize("route", ["LHR/NRT", "LHR:NRT"])
async def test_route(model_cassette, route):
    await ask(model_cassette, route)
""",
    )

    result = project.runpytest("--agents-record-mode=once", "-k", "test_route")

    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(["*both use the cassette *test_route[[]LHR-NRT[]].json*"])


def test_a_cassette_left_at_its_earlier_place_is_pointed_out(
    project: pytest.Pytester, server: OpenAIServer
) -> None:
    _write(
        project,
        server,
        """
class TestDesk:
    @pytest.mark.asyncio
    async def test_greeting(self, model_cassette):
        assert await ask(model_cassette) == "Hi."
""",
    )
    project.runpytest("--agents-record-mode=once").assert_outcomes(passed=1)
    folder = project.path / "cassettes" / "test_desk"
    (folder / "TestDesk.test_greeting.json").rename(folder / "test_greeting.json")

    result = project.runpytest()

    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*CassetteNotFound*git mv *test_desk/test_greeting.json *TestDesk.test_greeting.json*"]
    )
