"""What the ``scripted_*`` fixtures do around a test: teardown check, opt-out, tracing."""

from __future__ import annotations

import agents
import pytest

from agents_testing.core import compat
from agents_testing.model import UnconsumedModelSteps
from agents_testing.voice import UnconsumedVoiceSteps

LEFT_OVER_TESTS = """
import pytest
from agents import Agent, Runner
from agents.testing import assistant_message


@pytest.mark.asyncio
async def test_stops_early(scripted_model):
    model = scripted_model(
        [[assistant_message("first")], [assistant_message("never requested")]]
    )
    result = await Runner.run(Agent(name="a", model=model), "hi")
    assert result.final_output == "first"
"""


def _teardown_errors(reprec: pytest.HookRecorder) -> list[BaseException]:
    return [
        call.call.excinfo.value
        for call in reprec.getcalls("pytest_exception_interact")
        if call.report.when == "teardown"
    ]


def test_unconsumed_steps_fail_the_test_at_teardown_with_the_structured_error(
    project: pytest.Pytester,
) -> None:
    project.makepyfile(test_left_over=LEFT_OVER_TESTS)

    reprec = project.inline_run()

    reprec.assertoutcome(passed=1, failed=1)  # the body passed; teardown errored
    [error] = _teardown_errors(reprec)
    assert isinstance(error, UnconsumedModelSteps)
    assert (error.remaining_steps, error.consumed) == (1, 1)


def test_the_teardown_error_is_reported_against_the_test(project: pytest.Pytester) -> None:
    project.makepyfile(test_left_over=LEFT_OVER_TESTS)

    result = project.runpytest()

    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at teardown of test_stops_early*",
            "E   *UnconsumedModelSteps: *",
        ]
    )


def test_a_failing_body_is_reported_first_with_the_unconsumed_steps_attached(
    project: pytest.Pytester,
) -> None:
    project.makepyfile(
        test_body_fails="""
        import pytest
        from agents import Agent, Runner
        from agents.testing import assistant_message


        @pytest.mark.asyncio
        async def test_wrong_answer(scripted_model):
            model = scripted_model(
                [[assistant_message("Lyon")], [assistant_message("never requested")]]
            )
            result = await Runner.run(Agent(name="a", model=model), "Capital of France?")
            assert result.final_output == "Paris", "the user's own assertion"
        """
    )

    result = project.runpytest()

    result.assert_outcomes(failed=1)  # one failure, no extra teardown error
    result.stdout.fnmatch_lines(
        [
            "*_ test_wrong_answer _*",
            "E * AssertionError: the user's own assertion",
            "*- unconsumed scripted steps -*",
            "scripted_model() call 1 (ScriptedModel) has steps left:",
            "UnconsumedModelSteps: *",
            "FAILED test_body_fails.py::test_wrong_answer - AssertionError*",
        ]
    )
    result.stdout.no_fnmatch_line("*ERROR at teardown*")


def test_every_unconsumed_double_is_listed_and_the_first_error_raised(
    project: pytest.Pytester,
) -> None:
    project.makepyfile(
        test_two_doubles="""
        def test_unused(scripted_model, scripted_tts):
            scripted_model([[]])
            scripted_tts([[b"\\x00\\x00"]])
        """
    )

    result = project.runpytest()

    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "E   *UnconsumedModelSteps: *",
            "*- Captured unconsumed scripted steps teardown -*",
            "scripted_model() call 1 (ScriptedModel) has steps left:",
            "UnconsumedModelSteps: *",
            "scripted_tts() call 1 (ScriptedTTSModel) has steps left:",
            "UnconsumedVoiceSteps: *",
        ]
    )


def test_each_fixture_checks_every_double_it_made(project: pytest.Pytester) -> None:
    project.makepyfile(
        test_second_left_over="""
        def test_two_workflows(scripted_voice_workflow):
            scripted_voice_workflow()
            scripted_voice_workflow(turns=["never heard"])
        """
    )

    reprec = project.inline_run()

    [error] = _teardown_errors(reprec)
    assert isinstance(error, UnconsumedVoiceSteps)
    result = project.runpytest()
    result.stdout.fnmatch_lines(["E   *UnconsumedVoiceSteps: *"])


def test_the_marker_opts_one_test_out_of_the_check(project: pytest.Pytester) -> None:
    project.makepyfile(
        test_opt_out="""
        import pytest


        @pytest.mark.agents_testing(assert_complete=False)
        def test_exploratory(scripted_model):
            scripted_model([[]])


        def test_checked(scripted_model):
            scripted_model([[]])
        """
    )

    result = project.runpytest("--strict-markers")

    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(
        ["E   *UnconsumedModelSteps: *", "ERROR test_opt_out.py::test_checked - *"]
    )


def test_a_misspelt_marker_keyword_is_a_clear_setup_error(project: pytest.Pytester) -> None:
    project.makepyfile(
        test_typo="""
        import pytest


        @pytest.mark.agents_testing(assert_completed=False)
        def test_typo(scripted_model):
            scripted_model()
        """
    )

    result = project.runpytest()

    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*@pytest.mark.agents_testing: unknown keyword 'assert_completed'. "
            "It takes assert_complete=<bool>, disable_tracing=<bool>, "
            "check_tool_calls=<bool> and extra_checks=<bool>.*"
        ]
    )


def test_tracing_is_off_while_a_fixture_is_used_and_restored_after(
    project: pytest.Pytester,
) -> None:
    def tracing_on() -> bool:
        return agents.trace("probe").export() is not None

    project.makepyfile(
        test_tracing="""
        import agents
        import pytest


        def tracing_on():
            return agents.trace("probe").export() is not None


        def test_with_fixture(scripted_model):
            assert not tracing_on()


        def test_without_fixture():
            assert tracing_on()


        @pytest.mark.agents_testing(disable_tracing=False)
        def test_tracing_kept(scripted_model):
            assert tracing_on()


        def test_user_switched_tracing_off_and_on(scripted_model):
            agents.set_tracing_disabled(False)


        def test_after_the_override():
            assert tracing_on()
        """
    )
    before = tracing_on()

    result = project.runpytest()

    result.assert_outcomes(passed=5)
    assert tracing_on() is before


def test_a_user_setting_of_tracing_survives_the_fixture(project: pytest.Pytester) -> None:
    project.makeconftest(
        """
        import agents

        def pytest_configure(config):
            agents.set_tracing_disabled(True)
        """
    )
    project.makepyfile(
        test_tracing="""
        import agents


        def test_with_fixture(scripted_model):
            agents.set_tracing_disabled(False)


        def test_still_off():
            assert agents.trace("probe").export() is None
        """
    )

    outer = compat.capture_tracing_state()
    try:
        result = project.runpytest()
    finally:
        outer.restore()

    result.assert_outcomes(passed=2)


def test_a_double_whose_check_breaks_leaves_the_failure_report_intact(
    project: pytest.Pytester,
) -> None:
    project.makeconftest(
        """
        import pytest


        class Broken:
            def assert_complete(self):
                raise RuntimeError("cannot tell")


        @pytest.fixture
        def scripted_broken(_agents_testing_doubles):
            return _agents_testing_doubles.track("scripted_broken", Broken)
        """
    )
    project.makepyfile(
        test_broken="""
        def test_fails(scripted_broken):
            scripted_broken()
            assert False, "the user's own assertion"
        """
    )

    result = project.runpytest()

    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "E * AssertionError: the user's own assertion",
            "*- unconsumed scripted steps -*",
            "assert_complete() failed: RuntimeError: cannot tell",
        ]
    )
    result.stdout.no_fnmatch_line("*INTERNALERROR*")
