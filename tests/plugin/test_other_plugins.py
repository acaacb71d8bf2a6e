"""The plugin alongside pytest-asyncio (strict and auto mode), anyio and pytest-xdist."""

from __future__ import annotations

import pytest

SCRIPTED_AND_LEFT_OVER = """
from agents import Agent, RunConfig, Runner
from agents.testing import assistant_message


{marker}
async def test_scripted(scripted_model):
    model = scripted_model([[assistant_message("hi")]])
    result = await Runner.run(Agent(name="a", model=model), "x")
    assert result.final_output == "hi"


{marker}
async def test_left_over(scripted_model):
    scripted_model([[assistant_message("never requested")]])


{marker}
async def test_real_model(client):
    from agents import OpenAIResponsesModel

    model = OpenAIResponsesModel(model="gpt-4o", openai_client=client)
    await Runner.run(
        Agent(name="a", model=model), "x", run_config=RunConfig(tracing_disabled=True)
    )
"""


def _assert_checked_and_guarded(result: pytest.RunResult) -> None:
    result.assert_outcomes(passed=2, failed=1, errors=1)
    result.stdout.fnmatch_lines_random(
        [
            "E   *UnconsumedModelSteps: *",
            "E   *ModelRequestBlocked: test_async.py::test_real_model*: "
            "OpenAIResponsesModel.get_response() would send*",
        ]
    )
    result.stdout.no_fnmatch_line("*the network was reached*")


def test_pytest_asyncio_strict_mode(guarded: pytest.Pytester) -> None:
    guarded.makepyfile(
        test_async="import pytest\n" + SCRIPTED_AND_LEFT_OVER.format(marker="@pytest.mark.asyncio")
    )

    result = guarded.runpytest("--agents-block-model-requests")

    _assert_checked_and_guarded(result)


def test_pytest_asyncio_auto_mode(guarded: pytest.Pytester) -> None:
    guarded.makeini(
        """
        [pytest]
        asyncio_mode = auto
        asyncio_default_fixture_loop_scope = function
        """
    )
    guarded.makepyfile(test_async=SCRIPTED_AND_LEFT_OVER.format(marker=""))

    result = guarded.runpytest("--agents-block-model-requests")

    _assert_checked_and_guarded(result)


def test_anyio_plugin(guarded: pytest.Pytester) -> None:
    guarded.makeini("[pytest]\n")
    guarded.makepyfile(
        test_async="import pytest\n\n\n"
        "@pytest.fixture\n"
        "def anyio_backend():\n"
        "    return 'asyncio'\n" + SCRIPTED_AND_LEFT_OVER.format(marker="@pytest.mark.anyio")
    )

    # pytest-asyncio is switched off so that only anyio runs the coroutines.
    result = guarded.runpytest("--agents-block-model-requests", "-p", "no:asyncio")

    _assert_checked_and_guarded(result)


# Starts pytest-xdist workers, each a fresh interpreter importing the SDK.
@pytest.mark.slow
def test_xdist_workers_share_no_state(guarded: pytest.Pytester) -> None:
    guarded.makepyfile(
        test_async="import pytest\n"
        + SCRIPTED_AND_LEFT_OVER.format(marker="@pytest.mark.asyncio")
        + """

@pytest.mark.asyncio
@pytest.mark.agents_allow_model_requests
async def test_allowed_real_model(client, transport):
    from agents import OpenAIResponsesModel

    model = OpenAIResponsesModel(model="gpt-4o", openai_client=client)
    with pytest.raises(pytest.fail.Exception, match="the network was reached"):
        await Runner.run(
            Agent(name="a", model=model), "x", run_config=RunConfig(tracing_disabled=True)
        )
    assert len(transport.requests) == 1


@pytest.mark.parametrize("run", range(6))
def test_tracing_restored_between_tests(run, request):
    import agents

    if run % 2:
        request.getfixturevalue("scripted_model")
        assert agents.trace("probe").export() is None
    else:
        assert agents.trace("probe").export() is not None
"""
    )

    result = guarded.runpytest_subprocess("-n", "2", "--agents-block-model-requests")

    result.assert_outcomes(passed=9, failed=1, errors=1)
    result.stdout.fnmatch_lines(["*2 workers*"])
    result.stdout.no_fnmatch_line("*the network was reached*")
