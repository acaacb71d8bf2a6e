"""Scripted output items, usage and raw usage are checked when queued, the bad field named."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from agents import Agent, ApplyPatchTool, Usage
from agents.editor import ApplyPatchOperation
from agents.testing import (
    InvalidModelStep,
    ModelStep,
    ScriptedModel,
    UnconsumedModelSteps,
    assistant_message,
    function_call,
)
from openai.types.responses import (
    ResponseOutputItemDoneEvent,
    ResponseReasoningItem,
    ResponseTextDeltaEvent,
)
from openai.types.responses.response_reasoning_item import Summary


def _reasoning() -> ResponseReasoningItem:
    return ResponseReasoningItem(
        id="rs_1", type="reasoning", summary=[Summary(type="summary_text", text="think")]
    )


def _rejected(bad_step: Any) -> InvalidModelStep:
    with pytest.raises(InvalidModelStep) as raised:
        ScriptedModel([[assistant_message("fine")], bad_step])
    assert raised.value.input_index == 1
    assert str(raised.value).startswith("Invalid model step #2: ")
    return raised.value


def test_a_stream_event_given_as_an_output_item_is_rejected() -> None:
    event = ResponseTextDeltaEvent(
        type="response.output_text.delta",
        item_id="msg_1",
        output_index=0,
        content_index=0,
        delta="hi",
        sequence_number=1,
        logprobs=[],
    )

    error = _rejected([event])

    assert error.reason == "invalid_input"
    assert "output item 1 is a ResponseTextDeltaEvent" in str(error)


def test_an_item_field_changed_after_it_was_built_is_named() -> None:
    reasoning = _reasoning()
    reasoning.content = 1.0  # type: ignore[assignment]

    error = _rejected([assistant_message("ok"), reasoning])

    assert error.reason == "invalid_input"
    assert "output item 2.content" in str(error)


def test_an_item_whose_type_was_changed_is_rejected() -> None:
    message = assistant_message("ok")
    message.type = "not_a_message"  # type: ignore[assignment]

    assert "output item 1" in str(_rejected([message]))


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda usage: setattr(usage, "input_tokens", [1]), "usage.input_tokens"),
        (lambda usage: setattr(usage, "requests", "many"), "usage.requests"),
        (
            lambda usage: setattr(usage.input_tokens_details, "cached_tokens", "x"),
            "usage.input_tokens_details.cached_tokens",
        ),
    ],
)
def test_a_malformed_usage_is_rejected_with_its_field_named(change: Any, field: str) -> None:
    usage = Usage(requests=1, input_tokens=1)
    change(usage)

    error = _rejected({"output": [assistant_message("x")], "usage": usage})

    assert error.reason == "invalid_input"
    assert field in str(error)


@pytest.mark.parametrize(
    ("raw_usage", "where"),
    [
        ({"a": object()}, "raw_usage['a']"),
        ({"a": [1, {"b": {1, 2}}]}, "raw_usage['a'][1]['b']"),
        ({1: 2}, "raw_usage has the key int"),
        ({"a": float("nan")}, "raw_usage['a']"),
    ],
)
def test_raw_usage_must_be_json_and_the_bad_part_is_named(raw_usage: Any, where: str) -> None:
    error = _rejected({"output": [], "raw_usage": raw_usage})

    assert where in str(error)


def test_a_cyclic_raw_usage_is_rejected_without_recursing_forever() -> None:
    cyclic: dict[str, Any] = {"a": {}}
    cyclic["a"]["self"] = cyclic

    assert "raw_usage['a']['self']" in str(_rejected({"raw_usage": cyclic}))


def test_a_dict_item_without_an_output_item_type_is_rejected() -> None:
    error = _rejected([{"type": "response.output_text.delta", "delta": "hi"}])

    assert "output item 1 is a dict with type 'response.output_text.delta'" in str(error)


def test_an_incomplete_dict_item_is_rejected_with_the_missing_field_named() -> None:
    error = _rejected([{"type": "apply_patch_call", "call_id": "patch_1"}])

    assert error.reason == "invalid_input"
    assert "output item 1.id: Field required" in str(error)


def test_messages_survive_values_whose_repr_raises() -> None:
    class Hostile:
        def __repr__(self) -> str:
            raise RuntimeError("repr exploded")

    for bad in (Hostile(), [Hostile()], {"output": Hostile()}, {Hostile(): 1}):
        with pytest.raises(InvalidModelStep):
            ScriptedModel([bad])  # type: ignore[list-item]
    with pytest.raises(InvalidModelStep) as raised:
        ScriptedModel([[10**5000]])  # type: ignore[list-item]
    assert len(str(raised.value)) < 400


class RecordingEditor:
    def __init__(self) -> None:
        self.operations: list[ApplyPatchOperation] = []

    def create_file(self, operation: ApplyPatchOperation) -> str:
        self.operations.append(operation)
        return f"created {operation.path}"

    def update_file(self, operation: ApplyPatchOperation) -> str:
        self.operations.append(operation)
        return f"updated {operation.path}"

    def delete_file(self, operation: ApplyPatchOperation) -> str:
        self.operations.append(operation)
        return f"deleted {operation.path}"


@pytest.mark.asyncio
async def test_an_apply_patch_call_given_as_a_dict_reaches_the_editor(
    run: Any, streamed: bool
) -> None:
    patch = {
        "type": "apply_patch_call",
        "id": "apc_1",
        "call_id": "patch_1",
        "status": "completed",
        "operation": {"type": "create_file", "path": "notes.txt", "diff": "+hello\n"},
    }
    editor = RecordingEditor()
    # Output items may be given as dicts; the declared item type names only the models.
    model = ScriptedModel([[patch], [assistant_message("Created notes.txt.")]])  # type: ignore[list-item]
    agent = Agent(name="Editor", model=model, tools=[ApplyPatchTool(editor=editor)])

    result = await run(agent, "Create notes", streamed=streamed)

    assert result.final_output == "Created notes.txt."
    assert [(op.type, op.path) for op in editor.operations] == [("create_file", "notes.txt")]
    sent_input = model.calls[1].input
    assert isinstance(sent_input, list)
    outputs: list[Mapping[str, Any]] = [
        item for item in sent_input if item.get("type") == "apply_patch_call_output"
    ]
    assert [item["call_id"] for item in outputs] == ["patch_1"]
    if streamed:
        done = [
            event.data.item
            for event in result.events
            if isinstance(getattr(event, "data", None), ResponseOutputItemDoneEvent)
        ]
        assert done[0].type == "apply_patch_call"
        assert done[0].call_id == "patch_1"
    model.assert_complete()


@pytest.mark.asyncio
async def test_a_message_given_as_a_dict_answers_the_call(run: Any, streamed: bool) -> None:
    message = {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": "From a dict.", "annotations": []}],
    }
    model = ScriptedModel([[message]])  # type: ignore[list-item]

    result = await run(Agent(name="Assistant", model=model), "Hi", streamed=streamed)

    assert result.final_output == "From a dict."
    message["content"][0]["text"] = "changed afterwards"  # type: ignore[index]
    assert result.final_output == "From a dict."


def test_valid_items_are_queued_as_equal_copies() -> None:
    call = function_call("lookup", {"q": 1}, call_id="c1", item_id="fc_1")
    reasoning = _reasoning()
    model = ScriptedModel([ModelStep(output=[call, reasoning])])

    with pytest.raises(UnconsumedModelSteps) as raised:
        model.assert_complete()

    pending = raised.value.pending_steps[0]
    assert isinstance(pending, ModelStep)
    queued = pending.output
    assert list(queued) == [call, reasoning]
    assert queued[0] is not call
    assert queued[1] is not reasoning
    assert queued[1].model_fields_set == reasoning.model_fields_set
