"""A failure the fixtures find at teardown is reported at the user's code, not in the plugin."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ..model._openai_server import OpenAIServer, message

PLUGIN_FILES = ("pytest_plugin.py", "pytest_support.py", "cassette_pytest.py", "_report_site.py")


def _assert_no_plugin_frames(result: pytest.RunResult) -> None:
    for name in PLUGIN_FILES:
        result.stdout.no_fnmatch_line(f"*{name}*")


LEFT_STEP = """
import pytest
from agents import Agent, Runner
from agents.testing import assistant_message


@pytest.mark.asyncio
async def test_leaves_a_step(scripted_model):
    model = scripted_model([[assistant_message("Paris.")], [assistant_message("extra")]])
    result = await Runner.run(Agent(name="Geo", model=model), "Capital of France?")
    assert result.final_output == "Paris."
"""


def test_an_unconsumed_step_is_reported_at_the_line_that_made_the_double(
    project: pytest.Pytester,
) -> None:
    project.makepyfile(test_left=LEFT_STEP)

    result = project.runpytest()

    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at teardown of test_leaves_a_step*",
            "    async def test_leaves_a_step(scripted_model):",
            ">       model = scripted_model(*",
            "E       *UnconsumedModelSteps: 1 scripted model step(s) were not consumed.*",
            "test_left.py:8: UnconsumedModelSteps",
        ]
    )
    _assert_no_plugin_frames(result)


def test_every_traceback_style_names_the_users_line(project: pytest.Pytester) -> None:
    project.makepyfile(test_left=LEFT_STEP)

    for style in ("short", "long"):
        result = project.runpytest(f"--tb={style}")

        result.assert_outcomes(passed=1, errors=1)
        result.stdout.fnmatch_lines(["*model = scripted_model(*"])
        result.stdout.fnmatch_lines(["test_left.py:8: *"])
        _assert_no_plugin_frames(result)


def test_a_double_made_over_several_lines_in_a_test_method_is_reported_there(
    project: pytest.Pytester,
) -> None:
    project.makepyfile(
        test_left="""
        import pytest
        from agents import Agent, Runner
        from agents.realtime.testing import RealtimeStep
        from agents.realtime.model_inputs import RealtimeModelSendUserInput


        class TestConcierge:
            @pytest.mark.asyncio
            async def test_greets(self, scripted_realtime_model):
                model = scripted_realtime_model(
                    [
                        RealtimeStep(expect=RealtimeModelSendUserInput),
                    ]
                )
                assert model.remaining_steps
        """
    )

    result = project.runpytest()

    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at teardown of TestConcierge.test_greets*",
            "    async def test_greets(self, scripted_realtime_model):",
            ">       model = scripted_realtime_model(",
            "                RealtimeStep(expect=RealtimeModelSendUserInput),",
            "E       *UnconsumedRealtimeSteps*",
            "test_left.py:10: UnconsumedRealtimeSteps",
        ]
    )
    _assert_no_plugin_frames(result)


def test_a_double_made_in_a_users_fixture_is_reported_in_that_fixture(
    project: pytest.Pytester,
) -> None:
    project.makeconftest(
        """
        import pytest
        from agents.voice.testing import TTSResult


        @pytest.fixture
        def speaker(scripted_tts):
            return scripted_tts([TTSResult([b"hi"])])
        """
    )
    project.makepyfile(test_left="def test_unused_speaker(speaker):\n    assert speaker\n")

    result = project.runpytest()

    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "    def speaker(scripted_tts):",
            ">       return scripted_tts(*",
            "E       *UnconsumedVoiceSteps*",
            "conftest.py:7: UnconsumedVoiceSteps",
        ]
    )
    _assert_no_plugin_frames(result)


def test_a_failing_body_still_reports_its_own_failure_first(project: pytest.Pytester) -> None:
    project.makepyfile(test_left=LEFT_STEP.replace('== "Paris."', '== "Rome."'))

    result = project.runpytest()

    # The body's failure is the report; the unconsumed step is a section beside it.
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["E       AssertionError: assert 'Paris.' == 'Rome.'"])
    result.stdout.fnmatch_lines(["*unconsumed scripted steps*"])


CASSETTE_TEST = """
import pytest
from agents import Agent, RunConfig, Runner
from agents.models.openai_responses import OpenAIResponsesModel
from openai import AsyncOpenAI


def real():
    client = AsyncOpenAI(api_key="sk-test-0123456789abcdef", base_url={base_url!r}, max_retries=0)
    return OpenAIResponsesModel("gpt-test", client)


@pytest.mark.asyncio
async def test_greeting(model_cassette):
    model = model_cassette.model(real)
    {body}
"""

RUN = (
    'result = await Runner.run(Agent(name="a", model=model), "Hi", '
    "run_config=RunConfig(tracing_disabled=True))"
)


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    with OpenAIServer([message("Hello.")]) as running:
        yield running


def test_an_unused_cassette_replay_is_reported_at_the_test_function(
    project: pytest.Pytester, server: OpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    project.makepyfile(test_greet=CASSETTE_TEST.format(base_url=server.base_url, body=RUN))
    project.runpytest("--agents-record-mode=once").assert_outcomes(passed=1)
    # The same test, changed so that it no longer makes the recorded call.
    project.makepyfile(test_greet=CASSETTE_TEST.format(base_url=server.base_url, body="pass"))

    result = project.runpytest()

    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at teardown of test_greeting*",
            ">   @pytest.mark.asyncio",
            "E   *Unconsumed*",
            "test_greet.py:12: UnconsumedModelSteps",
        ]
    )
    _assert_no_plugin_frames(result)
