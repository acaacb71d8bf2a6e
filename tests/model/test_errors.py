"""The model boundary's errors: kinds, structured fields and messages counted from 1."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from agents import Agent
from agents.testing import (
    InvalidModelStep,
    ModelScriptError,
    ScriptedModel,
    UnconsumedModelSteps,
    UnexpectedModelCall,
    assistant_message,
)

from agents_testing.core import (
    AgentsTestingError,
    InvalidStepError,
    UnconsumedStepsError,
    UnexpectedCallError,
)
from agents_testing.model import InvalidModelArgument


def test_each_error_has_the_boundary_base_and_its_kind_base() -> None:
    assert issubclass(ModelScriptError, AgentsTestingError)
    assert issubclass(InvalidModelStep, ModelScriptError)
    assert issubclass(InvalidModelStep, InvalidStepError)
    assert issubclass(UnexpectedModelCall, ModelScriptError)
    assert issubclass(UnexpectedModelCall, UnexpectedCallError)
    assert issubclass(UnconsumedModelSteps, ModelScriptError)
    assert issubclass(UnconsumedModelSteps, UnconsumedStepsError)


def test_invalid_step_fields_are_zero_based_and_the_message_counts_from_one() -> None:
    with pytest.raises(InvalidModelStep) as raised:
        ScriptedModel([[assistant_message("ok")], {"bogus": 1}])

    error = raised.value
    assert (error.reason, error.input_index) == ("unsupported_field", 1)
    assert str(error).startswith("Invalid model step #2: ")
    assert "'bogus'" in str(error)


@pytest.mark.asyncio
async def test_unexpected_call_message_says_what_to_do(run: Any, streamed: bool) -> None:
    model = ScriptedModel()

    with pytest.raises(UnexpectedModelCall) as raised:
        await run(Agent(name="Assistant", model=model), "Hi", streamed=streamed)

    error = raised.value
    assert error.call_index == 0
    assert error.call is model.calls[0]
    assert str(error).startswith("Unexpected model call #1: the script has no step left")
    assert "enqueue()" in str(error)


def test_unconsumed_steps_reports_what_is_left() -> None:
    model = ScriptedModel([[assistant_message("a")], [assistant_message("b")]])

    with pytest.raises(UnconsumedModelSteps) as raised:
        model.assert_complete()

    assert raised.value.remaining_steps == 2
    assert len(raised.value.pending_steps) == 2
    assert str(raised.value).startswith("2 scripted model steps were not consumed")
    assert "the first is step #1" in str(raised.value)


def test_errors_survive_pickling_with_their_fields() -> None:
    error = InvalidModelStep("invalid_error", 3, "error must be an exception instance")

    copy = pickle.loads(pickle.dumps(error))

    assert (copy.reason, copy.input_index, str(copy)) == (
        "invalid_error",
        3,
        str(error),
    )


def test_invalid_argument_survives_pickling_with_its_fields() -> None:
    error = InvalidModelArgument("emit_traces", "a bool", "str 'yes'")

    copy = pickle.loads(pickle.dumps(error))

    assert (copy.argument, copy.expected, copy.got, str(copy)) == (
        "emit_traces",
        "a bool",
        "str 'yes'",
        "Invalid argument emit_traces: expected a bool, got str 'yes'.",
    )
