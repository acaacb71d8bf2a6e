"""The scripted model as the expected shape of a workflow: extra or missing turns are caught.

Recipe: drift detection. These tests catch the script errors on purpose, to show their
fields; an ordinary regression test lets them fail the test.
"""

from __future__ import annotations

import pytest
from agents import InputGuardrailTripwireTriggered
from agents.testing import (
    InvalidModelStep,
    InvalidScriptedToolCall,
    UnconsumedModelSteps,
    UnexpectedModelCall,
    assistant_message,
    function_call,
)

from ._types import OpenDesk, ScriptModel


@pytest.mark.asyncio
async def test_an_extra_model_turn_is_an_unexpected_call(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    # Scripted as if the support agent answered without looking the booking up...
    model = scripted_model(
        [
            [function_call("transfer_to_support_agent", {}, call_id="handoff")],
            [function_call("booking_status", {"reference": "BK0001"}, call_id="status")],
        ]
    )
    desk = open_desk(model)

    # ...but after a tool call the runner always asks the model again.
    with pytest.raises(UnexpectedModelCall) as unexpected:
        await desk.ask("What is the status of BK0001?")

    assert unexpected.value.call_index == 2
    assert unexpected.value.call is model.calls[2]
    last_item = unexpected.value.call.input[-1]
    assert isinstance(last_item, dict)
    assert last_item["type"] == "function_call_output"


# The leftover step is the point of this test, so the fixture does not fail on it.
@pytest.mark.agents_testing(assert_complete=False)
@pytest.mark.asyncio
async def test_a_workflow_that_stops_early_leaves_steps_for_assert_complete(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    # Scripted before the card-number guardrail existed; the guardrail now ends the run
    # before the model is asked.
    model = scripted_model([[assistant_message("Happy to help with that card.")]])
    desk = open_desk(model)

    with pytest.raises(InputGuardrailTripwireTriggered):
        await desk.ask("My card is 4111-1111-1111-1111")

    with pytest.raises(UnconsumedModelSteps) as unconsumed:
        model.assert_complete()
    assert unconsumed.value.remaining_steps == 1
    assert model.remaining_steps == 1


def test_a_malformed_step_is_rejected_before_anything_runs(scripted_model: ScriptModel) -> None:
    with pytest.raises(InvalidModelStep) as invalid:
        scripted_model(
            [
                [assistant_message("Fine.")],
                {"output": [assistant_message("Both?")], "error": RuntimeError("and failing")},
            ]
        )

    assert invalid.value.reason == "conflicting_outcomes"
    assert invalid.value.input_index == 1


@pytest.mark.asyncio
async def test_each_turn_can_script_its_own_model_step_as_the_conversation_goes(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    model = scripted_model([[assistant_message("Hello! Where to?")]])
    desk = open_desk(model)
    await desk.ask("Hi")
    assert model.remaining_steps == 0

    # The same model, extended: its history and consumed steps are kept.
    model.enqueue([assistant_message("Tokyo is lovely in December.")])
    second = await desk.ask("Tokyo")

    assert second.final_output == "Tokyo is lovely in December."
    assert len(model.calls) == 2


@pytest.mark.asyncio
async def test_a_tool_argument_renamed_in_the_app_fails_the_scripted_call(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    # Scripted when booking_status took a "booking" argument; the app renamed it. The
    # tool's failure handler would turn the bad call into a polite refusal for the model,
    # so the script would go on; the scripted_model fixture stops it at that call.
    model = scripted_model(
        [
            [function_call("transfer_to_support_agent", {}, call_id="handoff")],
            [function_call("booking_status", {"booking": "BK0001"}, call_id="status")],
        ]
    )
    desk = open_desk(model)

    with pytest.raises(InvalidScriptedToolCall) as invalid:
        await desk.ask("What is the status of BK0001?")

    assert str(invalid.value) == (
        "Scripted call #2 calls 'booking_status' with invalid arguments: at $.booking: "
        "'booking' is not an allowed property (allowed: reference) (schema rule: "
        "additionalProperties). Script arguments that fit the tool's parameter schema; to "
        "script a wrong call on purpose, pass check_tool_calls=False."
    )
    assert invalid.value.known_tools == ("booking_status", "cancel_booking")
