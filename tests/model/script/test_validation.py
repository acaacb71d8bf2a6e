"""Scripted output items, usage and raw usage are checked when queued, the bad field named."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

import pytest
from agents import Agent, ApplyPatchTool, ModelBehaviorError, ModelSettings, Usage
from agents.editor import ApplyPatchOperation
from agents.models.interface import ModelTracing
from agents.testing import (
    InvalidModelStep,
    ModelStep,
    ScriptedModel,
    UnconsumedModelSteps,
    assistant_message,
    function_call,
)
from openai.types.responses import (
    ResponseApplyPatchToolCall,
    ResponseOutputItemDoneEvent,
    ResponseReasoningItem,
    ResponseTextDeltaEvent,
)
from openai.types.responses.response_reasoning_item import Summary
from pydantic import ValidationError

_REQUEST: tuple[Any, ...] = (None, "hi", ModelSettings(), [], None, [], ModelTracing.DISABLED)


async def _collect(stream: AsyncIterator[Any], into: list[Any]) -> None:
    async for event in stream:
        into.append(event)


def _reasoning() -> ResponseReasoningItem:
    return ResponseReasoningItem(
        id="rs_1", type="reasoning", summary=[Summary(type="summary_text", text="think")]
    )


def _rejected(bad_step: Any, *, extra_checks: bool = False) -> InvalidModelStep:
    with pytest.raises(InvalidModelStep) as raised:
        ScriptedModel([[assistant_message("fine")], bad_step], extra_checks=extra_checks)
    assert raised.value.input_index == 1
    assert str(raised.value).startswith("Scripted model step #2 ")
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
def test_with_extra_checks_raw_usage_must_be_json_and_the_bad_part_is_named(
    raw_usage: Any, where: str
) -> None:
    error = _rejected({"output": [], "raw_usage": raw_usage}, extra_checks=True)

    assert str(error).startswith("Scripted model step #2 is invalid: ")
    assert where in str(error)


@pytest.mark.parametrize("raw_usage", [{"a": {1, 2}}, {1: 2}, {"a": float("nan")}])
def test_a_bare_model_takes_any_mapping_as_raw_usage(raw_usage: Any) -> None:
    model = ScriptedModel([{"output": [], "raw_usage": raw_usage}])

    assert model.pending_steps[0].raw_usage == raw_usage


def _looped() -> dict[str, Any]:
    looped: dict[str, Any] = {"input_tokens": 1, "nested": {}}
    looped["nested"]["self"] = looped
    return looped


@pytest.mark.asyncio
async def test_a_bare_model_takes_a_raw_usage_that_contains_itself(
    run: Any, streamed: bool
) -> None:
    """As the SDK's double does: the mapping is copied with its cycle, and the run works."""
    step = ModelStep(output=[assistant_message("counted")], raw_usage=_looped())
    model = ScriptedModel([step])

    result = await run(
        Agent(name="a", model=model, model_settings=_preserving()), "hi", streamed=streamed
    )

    assert result.final_output == "counted"
    (pending,) = ScriptedModel([step]).pending_steps
    assert pending.raw_usage is not None
    assert pending.raw_usage["nested"]["self"] is pending.raw_usage


def _preserving() -> ModelSettings:
    # preserve_raw_usage hands the raw usage on to the response where the SDK has it.
    if "preserve_raw_usage" in ModelSettings.__dataclass_fields__:
        return ModelSettings(preserve_raw_usage=True)
    return ModelSettings()


@pytest.mark.parametrize(
    ("step", "where"),
    [
        (
            lambda: {"output": [], "raw_usage": _looped()},
            "raw_usage['nested']['self'] refers back to raw_usage",
        ),
        (lambda: [_looped_dict_item()], "output item 1['self'] refers back to output item 1"),
        (lambda: [_looped_message()], "output item 1.content[1] refers back to output item 1"),
    ],
    ids=["raw_usage", "dict item", "message item"],
)
def test_with_extra_checks_a_value_that_contains_itself_is_refused_naming_the_cycle(
    step: Any, where: str
) -> None:
    error = _rejected(step(), extra_checks=True)

    assert error.reason == "invalid_input"
    assert str(error) == (
        f"Scripted model step #2 is invalid: {where}, so the value contains itself (a cycle)."
    )


def _looped_dict_item() -> dict[str, Any]:
    item: dict[str, Any] = {
        "type": "message",
        "id": "m1",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": "hi", "annotations": []}],
    }
    item["self"] = item
    return item


def _looped_message() -> Any:
    message = assistant_message("looped")
    message.content.append(message)  # type: ignore[arg-type]
    return message


@pytest.mark.asyncio
async def test_a_bare_model_takes_an_output_item_that_contains_itself(
    run: Any, streamed: bool
) -> None:
    """As the SDK's double does: a copy keeping the cycle; the runner reads the text."""
    model = ScriptedModel([[_looped_message()]])

    result = await run(Agent(name="a", model=model), "hi", streamed=streamed)

    assert result.final_output == "looped"


def test_with_extra_checks_a_dict_item_without_an_output_item_type_is_rejected() -> None:
    error = _rejected([{"type": "response.output_text.delta", "delta": "hi"}], extra_checks=True)

    assert "output item 1 is a dict with type 'response.output_text.delta'" in str(error)


def test_a_bare_model_takes_dict_items_as_they_are() -> None:
    item = {"type": "response.output_text.delta", "delta": "hi"}
    model = ScriptedModel([[item]])  # type: ignore[list-item]
    item["delta"] = "changed"

    (pending,) = model.pending_steps
    queued: list[Any] = list(pending.output)
    assert queued == [{"type": "response.output_text.delta", "delta": "hi"}]


def test_with_extra_checks_an_incomplete_apply_patch_dict_is_rejected_with_the_field_named() -> (
    None
):
    error = _rejected([{"type": "apply_patch_call", "call_id": "patch_1"}], extra_checks=True)

    assert error.reason == "invalid_input"
    assert "output item 1.operation: Field required" in str(error)


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
    """Shows MOD-8."""
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


def _message_dict() -> dict[str, Any]:
    return {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": "From a dict.", "annotations": []}],
    }


@pytest.mark.asyncio
async def test_a_message_given_as_a_dict_answers_a_non_streamed_call(run: Any) -> None:
    message = _message_dict()
    model = ScriptedModel([[message]])  # type: ignore[list-item]

    result = await run(Agent(name="Assistant", model=model), "Hi", streamed=False)

    assert result.final_output == "From a dict."
    message["content"][0]["text"] = "changed afterwards"
    assert result.final_output == "From a dict."


@pytest.mark.asyncio
async def test_with_extra_checks_a_message_dict_becomes_the_message_item(
    run: Any, streamed: bool
) -> None:
    model = ScriptedModel([[_message_dict()]], extra_checks=True)  # type: ignore[list-item]

    result = await run(Agent(name="Assistant", model=model), "Hi", streamed=streamed)

    assert result.final_output == "From a dict."


# -- apply-patch calls given as dicts ----------------------------------------------------


def _patch(**fields: Any) -> dict[str, Any]:
    return {
        "type": "apply_patch_call",
        "call_id": "c1",
        "operation": {"type": "delete_file", "path": "a.txt"},
        **fields,
    }


@pytest.mark.asyncio
async def test_an_apply_patch_dict_gets_the_call_id_as_id_and_a_completed_status(
    run: Any, streamed: bool
) -> None:
    editor = RecordingEditor()
    model = ScriptedModel([[_patch()], [assistant_message("Deleted.")]])  # type: ignore[list-item]
    agent = Agent(name="Editor", model=model, tools=[ApplyPatchTool(editor=editor)])

    result = await run(agent, "Delete a.txt", streamed=streamed)

    (first, _) = getattr(result, "result", result).raw_responses
    (item,) = first.output
    assert isinstance(item, ResponseApplyPatchToolCall)
    assert (item.id, item.call_id, item.status) == ("c1", "c1", "completed")
    assert [(op.type, op.path) for op in editor.operations] == [("delete_file", "a.txt")]


_BAD_PATCHES: list[tuple[str, dict[str, Any], type[Exception], str]] = [
    (
        "empty call id",
        _patch(call_id=""),
        ModelBehaviorError,
        "Tool invocations require a non-empty string call ID before execution",
    ),
    (
        "call id not a str",
        _patch(call_id=7),
        ModelBehaviorError,
        "Tool invocations require a non-empty string call ID before execution",
    ),
    (
        "empty id",
        _patch(id=""),
        ModelBehaviorError,
        "Apply-patch tool calls require a non-empty string item ID when provided",
    ),
    (
        "id None",
        _patch(id=None),
        ModelBehaviorError,
        "Apply-patch tool calls require a non-empty string item ID when provided",
    ),
    ("status None", _patch(status=None), ValidationError, "status"),
    ("empty status", _patch(status=""), ValidationError, "status"),
    ("unknown status", _patch(status="done"), ValidationError, "status"),
    (
        "no operation",
        {"type": "apply_patch_call", "call_id": "c1"},
        ValidationError,
        "operation",
    ),
]


@pytest.mark.parametrize(
    ("label", "patch", "kind", "fragment"), _BAD_PATCHES, ids=[case[0] for case in _BAD_PATCHES]
)
@pytest.mark.asyncio
async def test_a_bad_apply_patch_dict_is_queued_and_fails_the_call_that_uses_it(
    label: str,
    patch: dict[str, Any],
    kind: type[Exception],
    fragment: str,
    run: Any,
    streamed: bool,
) -> None:
    """Shows MOD-8."""
    model = ScriptedModel([[patch]])  # type: ignore[list-item]
    model.enqueue([patch])  # type: ignore[list-item]
    model.extend([[patch]])  # type: ignore[list-item]
    agent = Agent(name="Editor", model=model, tools=[ApplyPatchTool(editor=RecordingEditor())])

    with pytest.raises(kind, match=fragment):
        await run(agent, "Patch", streamed=streamed)

    assert len(model.calls) == 1
    assert model.remaining_steps == 2


@pytest.mark.asyncio
async def test_a_bad_apply_patch_dict_fails_a_stream_before_any_event() -> None:
    model = ScriptedModel([[assistant_message("Before."), _patch(call_id="")]])  # type: ignore[list-item]
    events: list[Any] = []

    with pytest.raises(ModelBehaviorError, match="non-empty string call ID"):
        await _collect(model.stream_response(*_REQUEST), events)

    assert events == []


@pytest.mark.parametrize(
    ("label", "patch", "kind", "fragment"), _BAD_PATCHES, ids=[case[0] for case in _BAD_PATCHES]
)
def test_with_extra_checks_a_bad_apply_patch_dict_is_refused_when_queued(
    label: str, patch: dict[str, Any], kind: type[Exception], fragment: str
) -> None:
    error = _rejected([patch], extra_checks=True)

    assert error.reason == "invalid_input"
    assert fragment in str(error)


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
