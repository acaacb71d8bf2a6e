"""The model boundary's errors: kinds, structured fields and messages counted from 1."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from agents import Agent, ModelSettings
from agents.models.interface import ModelTracing
from agents.testing import (
    InvalidModelStep,
    ModelCall,
    ModelScriptError,
    ModelStep,
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
from agents_testing.model import (
    InvalidModelArgument,
    InvalidScriptedToolCall,
    ModelCallMatcherError,
    TrajectoryMismatch,
    UnconsumedProviderSteps,
    UnscriptedModelCall,
    UnstreamableOutputItem,
)


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
    assert str(error).startswith("Scripted model step #2 contains unsupported fields. ")
    assert "'bogus'" in str(error)


@pytest.mark.asyncio
async def test_unexpected_call_message_says_what_to_do(run: Any, streamed: bool) -> None:
    """Shows MOD-14."""
    model = ScriptedModel()

    with pytest.raises(UnexpectedModelCall, match="no scripted steps remain") as raised:
        await run(Agent(name="Assistant", model=model), "Hi", streamed=streamed)

    error = raised.value
    assert error.call_index == 0
    assert error.call is model.calls[0]
    mode = "streaming" if streamed else "non-streaming"
    assert str(error).startswith(f"Unexpected {mode} model call #1: no scripted steps remain.")
    assert "enqueue()" in str(error)


@pytest.mark.asyncio
async def test_unexpected_call_message_counts_calls_from_one(run: Any, streamed: bool) -> None:
    """Shows MOD-14."""
    model = ScriptedModel([[assistant_message("one")]])
    agent = Agent(name="Assistant", model=model)
    await run(agent, "Hi", streamed=streamed)

    with pytest.raises(UnexpectedModelCall, match=r"call #2: no scripted steps remain") as raised:
        await run(agent, "Hi again", streamed=streamed)

    assert raised.value.call_index == 1


def test_unconsumed_steps_reports_what_is_left() -> None:
    model = ScriptedModel([[assistant_message("a")], [assistant_message("b")]])

    with pytest.raises(UnconsumedModelSteps) as raised:
        model.assert_complete()

    assert raised.value.remaining_steps == 2
    assert len(raised.value.pending_steps) == 2
    assert str(raised.value).startswith("2 scripted model step(s) were not consumed. ")
    assert "The first is step #1" in str(raised.value)


def _a_call() -> ModelCall:
    return ModelCall(
        system_instructions=None,
        input="hi",
        model_settings=ModelSettings(),
        tools=[],
        output_schema=None,
        handoffs=[],
        tracing=ModelTracing.DISABLED,
        previous_response_id=None,
        conversation_id=None,
        prompt=None,
        streamed=False,
    )


def _constructed() -> list[tuple[Exception, dict[str, Any]]]:
    call = _a_call()
    pending = (ModelStep(output=[assistant_message("x")]),)
    unconsumed = UnconsumedModelSteps("left", remaining_steps=1, pending_steps=pending)
    return [
        (
            InvalidModelStep("bad step", reason="invalid_input", input_index=3),
            {"reason": "invalid_input", "input_index": 3, "detail": "bad step"},
        ),
        (
            UnexpectedModelCall("too many calls", call=call, call_index=4),
            {"call": call, "call_index": 4},
        ),
        (UnconsumedModelSteps("left over", remaining_steps=2), {"remaining_steps": 2}),
        (
            InvalidModelArgument("bad argument", argument="x", expected="a bool", got="int 1"),
            {"argument": "x", "expected": "a bool", "got": "int 1"},
        ),
        (
            ModelCallMatcherError("rejected", call=call, call_index=0, input_index=1),
            {"call": call, "call_index": 0, "input_index": 1, "in_group": False},
        ),
        (
            TrajectoryMismatch(
                "different", expected=(), actual=(), order="strict", arguments="exact", reason="r"
            ),
            {"expected": (), "actual": (), "order": "strict", "reason": "r"},
        ),
        (
            InvalidScriptedToolCall(
                "wrong tool", reason="unknown_tool", call_index=0, output_index=1, tool_name="f"
            ),
            {"reason": "unknown_tool", "output_index": 1, "tool_name": "f"},
        ),
        (
            UnscriptedModelCall("no script", agent_name="A", model_name=None),
            {"agent_name": "A", "model_name": None},
        ),
        (
            UnconsumedProviderSteps("left in scripts", scripts={"default": unconsumed}),
            {"remaining_steps": 1, "total_scripts": 1},
        ),
        (
            UnstreamableOutputItem("cannot stream", input_index=2, item_type="dict"),
            {"reason": "invalid_stream_events", "input_index": 2, "item_type": "dict"},
        ),
    ]


@pytest.mark.parametrize(
    ("error", "fields"),
    _constructed(),
    ids=lambda value: type(value).__name__ if isinstance(value, Exception) else "",
)
def test_every_error_takes_its_message_and_its_fields_as_keywords(
    error: Exception, fields: dict[str, Any]
) -> None:
    assert str(error) in {
        "bad step",
        "too many calls",
        "left over",
        "bad argument",
        "rejected",
        "different",
        "wrong tool",
        "no script",
        "left in scripts",
        "cannot stream",
    }
    for name, value in fields.items():
        assert getattr(error, name) == value

    copy = pickle.loads(pickle.dumps(error))

    assert type(copy) is type(error)
    assert str(copy) == str(error)
    for name, value in fields.items():
        if name != "call":
            assert getattr(copy, name) == value


def test_errors_survive_pickling_with_their_fields() -> None:
    with pytest.raises(InvalidModelStep) as raised:
        ScriptedModel([[assistant_message("ok")], {"error": "not an exception"}])

    copy = pickle.loads(pickle.dumps(raised.value))

    assert (copy.reason, copy.input_index, str(copy)) == (
        "invalid_error",
        1,
        str(raised.value),
    )


def test_invalid_argument_survives_pickling_with_its_fields() -> None:
    with pytest.raises(InvalidModelArgument) as raised:
        ScriptedModel(emit_traces="yes")  # type: ignore[arg-type]

    copy = pickle.loads(pickle.dumps(raised.value))

    assert (copy.argument, copy.expected, copy.got, str(copy)) == (
        "emit_traces",
        "a bool",
        "str 'yes'",
        "Invalid argument emit_traces: expected a bool, got str 'yes'.",
    )


@pytest.mark.parametrize(("steps", "left"), [(3, 2), (2, 1)])
@pytest.mark.asyncio
async def test_unconsumed_steps_begin_with_the_sdk_doubles_sentence(
    run: Any, streamed: bool, steps: int, left: int
) -> None:
    """MOD-19: a bare ``assert_complete()`` with steps left raises ``UnconsumedModelSteps``
    whose message begins ``"N scripted model step(s) were not consumed."`` (the ``(s)``
    literal, also for one); our guidance follows after that sentence."""
    model = ScriptedModel([[assistant_message(f"answer {n}")] for n in range(steps)])
    await run(Agent(name="Assistant", model=model), "Hi", streamed=streamed)

    with pytest.raises(UnconsumedModelSteps) as raised:
        model.assert_complete()

    text = str(raised.value)
    sentence = f"{left} scripted model step(s) were not consumed."
    assert text.startswith(f"{sentence} ")
    assert text[len(sentence) :] == (
        " The first is step #2; the workflow made 1 model call(s). Check why the workflow "
        "ended early, or remove the extra steps."
    )
    assert raised.value.remaining_steps == left
