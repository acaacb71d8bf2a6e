"""Automatic and strict streaming through ``Runner.run_streamed``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from agents import Agent, ApplyPatchTool, ModelBehaviorError, ModelSettings, Usage, function_tool
from agents.editor import ApplyPatchOperation
from agents.models.interface import ModelTracing
from agents.stream_events import RawResponsesStreamEvent, RunItemStreamEvent
from agents.testing import (
    InvalidModelStep,
    ModelCall,
    ModelStep,
    ScriptedModel,
    assistant_message,
    function_call,
    refusal,
)
from agents.usage import RequestUsage
from openai.types.responses import (
    Response,
    ResponseApplyPatchToolCall,
    ResponseCodeInterpreterToolCall,
    ResponseCompletedEvent,
    ResponseCreatedEvent,
    ResponseCustomToolCall,
    ResponseFunctionToolCall,
    ResponseFunctionWebSearch,
    ResponseOutputItemDoneEvent,
    ResponseOutputMessage,
    ResponseOutputText,
    ResponseReasoningItem,
    ResponseTextDeltaEvent,
)
from openai.types.responses.response_function_web_search import ActionSearch
from openai.types.responses.response_output_item import ImageGenerationCall, McpCall
from openai.types.responses.response_output_text import (
    AnnotationURLCitation,
    Logprob,
    LogprobTopLogprob,
)
from openai.types.responses.response_reasoning_item import Content, Summary
from pydantic import BaseModel

from agents_testing.core import compat

# The positional arguments of one direct model call: no runner involved.
_REQUEST: tuple[Any, ...] = (None, "hi", ModelSettings(), [], None, [], ModelTracing.DISABLED)


@function_tool
def lookup(order_id: str) -> str:
    """Look up an order."""
    return f"order {order_id} shipped"


async def _collect(stream: AsyncIterator[Any], into: list[Any]) -> None:
    async for event in stream:
        into.append(event)


def raw_types(events: list[Any]) -> list[str]:
    return [event.data.type for event in events if isinstance(event, RawResponsesStreamEvent)]


def item_event_names(events: list[Any]) -> list[str]:
    return [event.name for event in events if isinstance(event, RunItemStreamEvent)]


def completed_responses(events: list[Any]) -> list[Response]:
    return [
        event.data.response
        for event in events
        if isinstance(event, RawResponsesStreamEvent)
        and isinstance(event.data, ResponseCompletedEvent)
    ]


@pytest.mark.asyncio
async def test_assistant_message_streams_the_full_lifecycle_and_text_deltas(run: Any) -> None:
    usage = Usage(requests=1, input_tokens=7, output_tokens=3, total_tokens=10)
    model = ScriptedModel([{"output": [assistant_message("Hello there.")], "usage": usage}])

    streamed = await run(Agent(name="Assistant", model=model), "Hi", streamed=True)

    assert raw_types(streamed.events) == [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.content_part.added",
        "response.output_text.delta",
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.completed",
    ]
    deltas = [
        event.data.delta
        for event in streamed.events
        if isinstance(event, RawResponsesStreamEvent)
        and isinstance(event.data, ResponseTextDeltaEvent)
    ]
    assert "".join(deltas) == "Hello there."
    (completed,) = completed_responses(streamed.events)
    assert completed.output == [assistant_message("Hello there.")]
    assert completed.usage is not None
    assert (completed.usage.input_tokens, completed.usage.output_tokens) == (7, 3)
    assert item_event_names(streamed.events) == ["message_output_created"]
    assert streamed.final_output == "Hello there."
    assert streamed.result.context_wrapper.usage.total_tokens == 10
    sequence = [
        event.data.sequence_number
        for event in streamed.events
        if isinstance(event, RawResponsesStreamEvent)
    ]
    assert sequence == list(range(len(sequence)))


@pytest.mark.asyncio
async def test_reasoning_item_streams_summary_and_text_events(run: Any) -> None:
    reasoning = ResponseReasoningItem(
        id="rs_1",
        type="reasoning",
        summary=[Summary(type="summary_text", text="Think first.")],
    )
    model = ScriptedModel([[reasoning, assistant_message("Answer.")]])

    streamed = await run(Agent(name="Assistant", model=model), "Hi", streamed=True)

    types = raw_types(streamed.events)
    assert types[:8] == [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.reasoning_summary_part.added",
        "response.reasoning_summary_text.delta",
        "response.reasoning_summary_text.done",
        "response.reasoning_summary_part.done",
        "response.output_item.done",
    ]
    assert item_event_names(streamed.events) == ["reasoning_item_created", "message_output_created"]
    (completed,) = completed_responses(streamed.events)
    assert [item.type for item in completed.output] == ["reasoning", "message"]
    assert streamed.final_output == "Answer."


@pytest.mark.asyncio
async def test_function_calls_stream_argument_deltas_and_run_the_tools(run: Any) -> None:
    model = ScriptedModel(
        [
            [
                function_call("lookup", {"order_id": "1"}, call_id="call_1"),
                function_call("lookup", {"order_id": "2"}, call_id="call_2"),
            ],
            [assistant_message("Both shipped.")],
        ]
    )

    streamed = await run(
        Agent(name="Orders", model=model, tools=[lookup]), "Check 1 and 2", streamed=True
    )

    types = raw_types(streamed.events)
    assert types.count("response.function_call_arguments.delta") == 2
    assert types.count("response.function_call_arguments.done") == 2
    names = item_event_names(streamed.events)
    assert names.count("tool_called") == 2
    assert names.count("tool_output") == 2
    assert names[-1] == "message_output_created"
    first_completed = completed_responses(streamed.events)[0]
    assert [item.call_id for item in first_completed.output] == ["call_1", "call_2"]  # type: ignore[union-attr]
    assert streamed.final_output == "Both shipped."
    assert list(model.calls[1].tool_outputs().values()) == [
        "order 1 shipped",
        "order 2 shipped",
    ]


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
async def test_apply_patch_call_streams_added_and_done_and_reaches_the_editor(
    run: Any, streamed: bool
) -> None:
    patch = ResponseApplyPatchToolCall.model_validate(
        {
            "id": "apc_1",
            "call_id": "patch_1",
            "type": "apply_patch_call",
            "status": "completed",
            "operation": {"type": "create_file", "path": "notes.txt", "diff": "+hello\n"},
        }
    )
    editor = RecordingEditor()
    model = ScriptedModel([[patch], [assistant_message("Created notes.txt.")]])
    agent = Agent(name="Editor", model=model, tools=[ApplyPatchTool(editor=editor)])

    result = await run(agent, "Create notes", streamed=streamed)

    assert result.final_output == "Created notes.txt."
    assert [(op.type, op.path) for op in editor.operations] == [("create_file", "notes.txt")]
    if streamed:
        types = raw_types(result.events)
        assert types[:5] == [
            "response.created",
            "response.in_progress",
            "response.output_item.added",
            "response.output_item.done",
            "response.completed",
        ]
        done = [
            event.data.item
            for event in result.events
            if isinstance(event, RawResponsesStreamEvent)
            and isinstance(event.data, ResponseOutputItemDoneEvent)
        ]
        assert done[0] == patch
    model.assert_complete()


def _web_search() -> ResponseFunctionWebSearch:
    return ResponseFunctionWebSearch(
        id="ws_1",
        type="web_search_call",
        status="completed",
        action=ActionSearch(type="search", query="weather"),
    )


@pytest.mark.asyncio
async def test_items_without_a_lifecycle_are_rejected_in_automatic_streaming(run: Any) -> None:
    model = ScriptedModel([[_web_search(), assistant_message("Found it.")]])

    with pytest.raises(
        ModelBehaviorError,
        match=(
            r"Automatic streaming does not support ResponseFunctionWebSearch\..*"
            r"ModelStep\.stream"
        ),
    ) as raised:
        await run(Agent(name="Searcher", model=model), "Search", streamed=True)

    assert isinstance(raised.value, InvalidModelStep)
    assert raised.value.reason == "invalid_stream_events"
    assert raised.value.input_index == 0
    assert "stream_all_items=True" in str(raised.value)
    assert len(model.calls) == 1
    assert model.remaining_steps == 0


@pytest.mark.asyncio
async def test_the_same_items_serve_a_non_streamed_run(run: Any) -> None:
    model = ScriptedModel([[_web_search(), assistant_message("Found it.")]])

    result = await run(Agent(name="Searcher", model=model), "Search", streamed=False)

    assert result.final_output == "Found it."


def _strict_events(text: str, response_id: str = "resp_strict") -> list[Any]:
    def response(status: str, output: list[Any]) -> Response:
        return Response(
            id=response_id,
            object="response",
            created_at=1.0,
            model="strict",
            output=output,
            parallel_tool_calls=False,
            tool_choice="auto",
            tools=[],
            status=status,  # type: ignore[arg-type]
        )

    return [
        ResponseCreatedEvent(
            type="response.created", sequence_number=0, response=response("in_progress", [])
        ),
        ResponseTextDeltaEvent(
            type="response.output_text.delta",
            sequence_number=1,
            item_id="msg_strict",
            output_index=0,
            content_index=0,
            delta=text,
            logprobs=[],
        ),
        ResponseCompletedEvent(
            type="response.completed",
            sequence_number=2,
            response=response("completed", [assistant_message(text, item_id="msg_strict")]),
        ),
    ]


@pytest.mark.asyncio
async def test_strict_stream_yields_exactly_the_fixed_events(run: Any) -> None:
    events = _strict_events("Exactly this.")
    model = ScriptedModel(
        [ModelStep.stream(events, output=[assistant_message("non-streamed answer")])]
    )

    streamed = await run(Agent(name="Assistant", model=model), "Hi", streamed=True)

    raw = [event.data for event in streamed.events if isinstance(event, RawResponsesStreamEvent)]
    assert raw == events
    assert streamed.final_output == "Exactly this."
    model.assert_complete()


@pytest.mark.asyncio
async def test_strict_stream_async_generator_factory_receives_the_call(run: Any) -> None:
    seen: list[ModelCall] = []

    async def factory(call: ModelCall) -> AsyncIterator[Any]:
        seen.append(call)
        for event in _strict_events(f"echo {call.input[0]['content']}"):  # type: ignore[index,typeddict-item]
            yield event

    model = ScriptedModel([ModelStep.stream(factory)])

    streamed = await run(Agent(name="Assistant", model=model), "ping", streamed=True)

    assert streamed.final_output == "echo ping"
    assert seen == [model.calls[0]]
    assert seen[0].streamed is True


@pytest.mark.asyncio
async def test_strict_stream_async_function_factory_returning_a_list(run: Any) -> None:
    async def factory(call: ModelCall) -> list[Any]:
        return _strict_events("from a list")

    model = ScriptedModel([{"stream_events": factory}])

    streamed = await run(Agent(name="Assistant", model=model), "ping", streamed=True)

    assert streamed.final_output == "from a list"


@pytest.mark.asyncio
async def test_strict_stream_factory_yielding_a_non_event_is_rejected(run: Any) -> None:
    async def factory(call: ModelCall) -> AsyncIterator[Any]:
        yield {"type": "response.created"}

    model = ScriptedModel([[assistant_message("first")], ModelStep.stream(factory)])
    agent = Agent(name="Assistant", model=model)
    await run(agent, "one", streamed=True)

    with pytest.raises(InvalidModelStep) as raised:
        await run(agent, "two", streamed=True)

    assert raised.value.reason == "invalid_stream_events"
    assert raised.value.input_index == 1


@pytest.mark.parametrize("kind", ["fixed", "factory"])
@pytest.mark.asyncio
async def test_strict_stream_step_serves_a_non_streamed_run_with_its_output(
    kind: str, run: Any
) -> None:
    produced: list[ModelCall] = []

    async def factory(call: ModelCall) -> AsyncIterator[Any]:
        produced.append(call)
        for event in _strict_events("streamed only"):
            yield event

    events: Any = _strict_events("streamed only") if kind == "fixed" else factory
    model = ScriptedModel([ModelStep.stream(events, output=[assistant_message("from output")])])

    result = await run(Agent(name="Assistant", model=model), "Hi", streamed=False)

    assert result.final_output == "from output"
    assert produced == []
    model.assert_complete()


@pytest.mark.asyncio
async def test_responder_may_choose_a_strict_stream_for_a_streamed_call(run: Any) -> None:
    def responder(call: ModelCall) -> Any:
        if call.streamed:
            return ModelStep.stream(_strict_events("strict for streams"))
        return [assistant_message("plain")]

    model = ScriptedModel([ModelStep.respond(responder)])

    streamed = await run(Agent(name="Assistant", model=model), "Hi", streamed=True)

    raw = [event.data for event in streamed.events if isinstance(event, RawResponsesStreamEvent)]
    assert raw == _strict_events("strict for streams")
    assert streamed.final_output == "strict for streams"


def _without_lifecycle() -> dict[str, Any]:
    return {
        "custom_tool_call": {
            "type": "custom_tool_call",
            "call_id": "ct_1",
            "name": "free",
            "input": "text",
        },
        "code_interpreter_call": {
            "type": "code_interpreter_call",
            "id": "ci_1",
            "container_id": "c_1",
            "status": "completed",
            "code": "print(1)",
            "outputs": [],
        },
        "mcp_call": {
            "type": "mcp_call",
            "id": "mcp_1",
            "name": "lookup",
            "arguments": "{}",
            "server_label": "docs",
        },
        "image_generation_call": {
            "type": "image_generation_call",
            "id": "ig_1",
            "status": "completed",
            "result": None,
        },
    }


_CLASSES: dict[str, Any] = {
    "custom_tool_call": ResponseCustomToolCall,
    "code_interpreter_call": ResponseCodeInterpreterToolCall,
    "mcp_call": McpCall,
    "image_generation_call": ImageGenerationCall,
}
_CLASS_NAMES = {kind: cls.__name__ for kind, cls in _CLASSES.items()}


def _item(kind: str) -> Any:
    return _CLASSES[kind].model_validate(_without_lifecycle()[kind])


@pytest.mark.parametrize("kind", sorted(_without_lifecycle()))
@pytest.mark.asyncio
async def test_an_item_without_a_lifecycle_is_refused_only_when_a_streamed_call_reaches_it(
    kind: str, run: Any
) -> None:
    """Shows MOD-7."""
    step = ModelStep(output=[_item(kind), assistant_message("Done.")])
    model = ScriptedModel([[assistant_message("First.")], step])
    agent = Agent(name="Assistant", model=model)

    first = await run(agent, "Hi", streamed=True)
    assert first.final_output == "First."
    assert model.remaining_steps == 1
    with pytest.raises(
        ModelBehaviorError, match=f"Automatic streaming does not support {_CLASS_NAMES[kind]}"
    ) as raised:
        await run(agent, "Again", streamed=True)

    assert isinstance(raised.value, InvalidModelStep)
    assert raised.value.reason == "invalid_stream_events"
    assert raised.value.input_index == 1
    assert model.remaining_steps == 0


@pytest.mark.asyncio
async def test_an_item_without_a_lifecycle_is_refused_before_any_event() -> None:
    model = ScriptedModel([[assistant_message("Before."), _item("mcp_call")]])
    events: list[Any] = []

    with pytest.raises(ModelBehaviorError, match="does not support McpCall"):
        await _collect(model.stream_response(*_REQUEST), events)

    assert events == []
    assert len(model.calls) == 1


@pytest.mark.asyncio
async def test_a_dict_item_is_refused_in_automatic_streaming(run: Any) -> None:
    message = assistant_message("From a dict.").model_dump()
    model = ScriptedModel([[message]])  # type: ignore[list-item]

    with pytest.raises(
        ModelBehaviorError,
        match=r"Automatic streaming does not support dict\..*ModelStep\.stream",
    ):
        await run(Agent(name="Assistant", model=model), "Hi", streamed=True)


@pytest.mark.asyncio
async def test_with_extra_checks_a_dict_item_becomes_its_model_and_streams(run: Any) -> None:
    message = assistant_message("From a dict.").model_dump()
    model = ScriptedModel([[message]], extra_checks=True)  # type: ignore[list-item]

    streamed = await run(Agent(name="Assistant", model=model), "Hi", streamed=True)

    assert streamed.final_output == "From a dict."


@pytest.mark.asyncio
async def test_an_item_without_a_lifecycle_serves_a_non_streamed_run(run: Any) -> None:
    """Shows MOD-7."""
    image = _item("image_generation_call")
    model = ScriptedModel([ModelStep(output=[image, assistant_message("Drawn.")])])

    result = await run(Agent(name="Artist", model=model), "Draw", streamed=False)

    assert result.final_output == "Drawn."
    assert [item.type for item in result.raw_responses[0].output] == [
        "image_generation_call",
        "message",
    ]


@pytest.mark.asyncio
async def test_strict_stream_events_are_frozen_when_queued(run: Any) -> None:
    created = _strict_created()
    completed = ResponseCompletedEvent(
        type="response.completed",
        sequence_number=1,
        response=created.response.model_copy(
            update={"status": "completed", "output": [assistant_message("Frozen.")]}
        ),
    )
    events: list[Any] = [created, completed]
    model = ScriptedModel([ModelStep.stream(events)])

    created.response.id = "changed afterwards"
    scripted_message = completed.response.output[0]
    assert isinstance(scripted_message, ResponseOutputMessage)
    scripted_text = scripted_message.content[0]
    assert isinstance(scripted_text, ResponseOutputText)
    scripted_text.text = "changed afterwards"
    events.append(created)

    result = await run(Agent(name="Assistant", model=model), "Hi", streamed=True)

    sent = [event.data for event in result.events if isinstance(event, RawResponsesStreamEvent)]
    assert [event.type for event in sent] == ["response.created", "response.completed"]
    assert isinstance(sent[0], ResponseCreatedEvent)
    assert sent[0].response.id == "resp_strict"
    assert result.final_output == "Frozen."


def _strict_created() -> ResponseCreatedEvent:
    return ResponseCreatedEvent(
        type="response.created",
        sequence_number=0,
        response=Response(
            id="resp_strict",
            object="response",
            created_at=0.0,
            model="scripted-model",
            output=[],
            parallel_tool_calls=False,
            tool_choice="auto",
            tools=[],
            status="in_progress",
        ),
    )


def test_an_output_item_given_as_a_stream_event_is_rejected() -> None:
    with pytest.raises(InvalidModelStep) as raised:
        ScriptedModel([ModelStep.stream([assistant_message("not an event")])])  # type: ignore[list-item]

    assert raised.value.reason == "invalid_stream_events"
    assert "stream event 1 is ResponseOutputMessage" in str(raised.value)


@pytest.mark.asyncio
async def test_a_factory_yielding_an_output_item_fails_with_our_error(run: Any) -> None:
    async def factory(call: ModelCall) -> AsyncIterator[Any]:
        yield assistant_message("not an event")

    model = ScriptedModel([ModelStep.stream(factory)])

    with pytest.raises(
        InvalidModelStep, match=r"^Scripted model step #1 is invalid: stream event 1 is "
    ):
        await run(Agent(name="Assistant", model=model), "Hi", streamed=True)


# -- the automatic stream, event by event -------------------------------------------------


def _raw(streamed: Any) -> list[Any]:
    return [event.data for event in streamed.events if isinstance(event, RawResponsesStreamEvent)]


async def _stream_of(run: Any, output: list[Any], **step: Any) -> list[Any]:
    """The raw events of one streamed run answering with ``output``."""
    model = ScriptedModel([ModelStep(output=output, **step), [assistant_message("Done.")]])
    agent = Agent(name="Assistant", model=model, tools=[lookup])
    streamed = await run(agent, "Hi", streamed=True)
    events = _raw(streamed)
    completed = [index for index, event in enumerate(events) if event.type == "response.completed"]
    return events[: completed[0] + 1]


@pytest.mark.asyncio
async def test_an_automatic_stream_opens_with_created_then_in_progress(run: Any) -> None:
    """Shows MOD-1."""
    usage = Usage(requests=1, input_tokens=4, output_tokens=2, total_tokens=6)
    events = await _stream_of(run, [assistant_message("hi")], usage=usage, response_id="resp_1")

    assert [event.type for event in events] == [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.content_part.added",
        "response.output_text.delta",
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.completed",
    ]
    assert [event.sequence_number for event in events] == list(range(9))
    created, in_progress, completed = events[0], events[1], events[-1]
    for opening in (created, in_progress):
        assert opening.response.id == "resp_1"
        assert opening.response.model == completed.response.model
        assert opening.response.output == []
        assert opening.response.status == "in_progress"
        assert opening.response.usage is None
    assert created.response is not in_progress.response
    assert completed.response.status == "completed"
    assert completed.response.output == [assistant_message("hi")]
    assert completed.response.usage.total_tokens == 6


@pytest.mark.asyncio
async def test_a_refusal_streams_its_own_delta_and_done_events() -> None:
    model = ScriptedModel([[refusal("No.")]])

    events: list[Any] = [event async for event in model.stream_response(*_REQUEST)]

    assert [event.type for event in events] == [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.content_part.added",
        "response.refusal.delta",
        "response.refusal.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.completed",
    ]
    assert [event.sequence_number for event in events] == list(range(9))
    assert events[3].part.refusal == ""
    assert (events[4].delta, events[5].refusal) == ("No.", "No.")


@pytest.mark.asyncio
async def test_raw_usage_rides_only_on_the_completed_response() -> None:
    _, raw_attribute = compat.streamed_usage_attributes()
    model = ScriptedModel([ModelStep(output=[assistant_message("hi")], raw_usage={"tokens": 3})])
    settings = ModelSettings(preserve_raw_usage=True) if raw_attribute else ModelSettings()

    events: list[Any] = [
        event
        async for event in model.stream_response(None, "hi", settings, [], None, [], *_REQUEST[6:])
    ]

    assert getattr(events[0].response, str(raw_attribute), None) is None
    assert getattr(events[1].response, str(raw_attribute), None) is None
    if raw_attribute is not None:
        assert getattr(events[-1].response, raw_attribute) == {"tokens": 3}


def _reasoning(**fields: Any) -> ResponseReasoningItem:
    return ResponseReasoningItem(
        id="rs_1",
        type="reasoning",
        summary=[Summary(type="summary_text", text="Think.")],
        encrypted_content="secret-state",
        status="completed",
        **fields,
    )


@pytest.mark.asyncio
async def test_item_added_events_announce_in_progress_copies_of_the_items() -> None:
    call = ResponseFunctionToolCall(
        type="function_call", name="lookup", arguments='{"order_id": "1"}', call_id="c1", id="fc_1"
    )
    patch = ResponseApplyPatchToolCall.model_validate(
        {
            "id": "apc_1",
            "call_id": "p1",
            "type": "apply_patch_call",
            "status": "completed",
            "operation": {"type": "delete_file", "path": "a.txt"},
        }
    )
    with_content = _reasoning(content=[Content(type="reasoning_text", text="Step one.")])
    output: list[Any] = [assistant_message("hi"), call, patch, _reasoning(), with_content]
    model = ScriptedModel([output])

    events: list[Any] = [event async for event in model.stream_response(*_REQUEST)]

    added = [event.item for event in events if event.type == "response.output_item.added"]
    done = [event.item for event in events if event.type == "response.output_item.done"]
    message, function, applied, plain, content = added
    assert (message.content, message.status) == ([], "in_progress")
    assert (function.arguments, function.status) == ("", "in_progress")
    assert applied.status == "in_progress"
    assert (plain.status, plain.encrypted_content, plain.summary, plain.content) == (
        "in_progress",
        None,
        [],
        None,
    )
    assert (content.status, content.summary, content.content) == ("in_progress", [], [])
    assert done == output
    assert events[-1].response.output == output


@pytest.mark.asyncio
async def test_a_streamed_run_sees_in_progress_items_announced_and_the_scripted_ones_done(
    run: Any,
) -> None:
    """Shows MOD-2."""
    call = function_call("lookup", {"order_id": "1"}, call_id="c1")
    output: list[Any] = [_reasoning(), assistant_message("Looking."), call]

    events = await _stream_of(run, output)

    added = [event.item for event in events if event.type == "response.output_item.added"]
    done = [event.item for event in events if event.type == "response.output_item.done"]
    thought, message, function = added
    assert (thought.status, thought.encrypted_content, thought.summary) == ("in_progress", None, [])
    assert (message.content, message.status) == ([], "in_progress")
    assert (function.arguments, function.status) == ("", "in_progress")
    assert done == output


def _mutable_parts(value: Any, found: dict[int, Any]) -> None:
    """Every list, dict and model reachable from ``value`` (the keys are their ids)."""
    if isinstance(value, BaseModel):
        found[id(value)] = value
        for item in value.__dict__.values():
            _mutable_parts(item, found)
        for item in (value.__pydantic_extra__ or {}).values():
            _mutable_parts(item, found)
    elif isinstance(value, (list, dict)):
        found[id(value)] = value
        for item in value.values() if isinstance(value, dict) else value:
            _mutable_parts(item, found)


@pytest.mark.asyncio
async def test_no_two_events_share_a_mutable_object(run: Any) -> None:
    """Shows MOD-3."""
    text = ResponseOutputText(
        type="output_text",
        text="Cited.",
        annotations=[_citation(0), _citation(1)],
        logprobs=[_logprob()],
    )
    message = ResponseOutputMessage(
        id="msg_1", type="message", role="assistant", status="completed", content=[text]
    )
    call = function_call("lookup", {"order_id": "1"}, call_id="c1")
    events = await _stream_of(run, [_reasoning(), message, call])

    owners: dict[int, int] = {}
    for position, event in enumerate(events):
        parts: dict[int, Any] = {}
        for value in event.__dict__.values():
            _mutable_parts(value, parts)
        for key in parts:
            assert owners.setdefault(key, position) == position, (position, event.type)


@pytest.mark.asyncio
async def test_changing_a_done_item_leaves_the_completed_response_unchanged(run: Any) -> None:
    """Shows MOD-3."""
    events = await _stream_of(run, [assistant_message("Original.")])
    done = next(event for event in events if event.type == "response.output_item.done")

    done.item.content[0].text = "changed"

    assert events[-1].response.output[0].content[0].text == "Original."


@pytest.mark.asyncio
async def test_a_part_added_event_carries_a_copy_of_the_part_with_only_its_text_emptied(
    run: Any,
) -> None:
    text = ResponseOutputText.model_validate(
        {
            "type": "output_text",
            "text": "Hello.",
            "annotations": [_citation(0).model_dump()],
            "logprobs": [_logprob().model_dump()],
            "provider_data": {"source": "cache"},
        }
    )
    message = ResponseOutputMessage(
        id="msg_1", type="message", role="assistant", status="completed", content=[text]
    )
    events = await _stream_of(run, [message])
    added = next(event for event in events if event.type == "response.content_part.added")
    part_done = next(event for event in events if event.type == "response.content_part.done")

    assert (added.part.text, added.part.annotations, added.part.logprobs) == ("", [], [])
    assert added.part.provider_data == {"source": "cache"}
    added.part.provider_data["source"] = "changed"
    assert part_done.part == text
    assert events[-1].response.output[0].content[0] == text


def _citation(index: int) -> AnnotationURLCitation:
    return AnnotationURLCitation(
        type="url_citation",
        url=f"https://example.com/{index}",
        title="t",
        start_index=0,
        end_index=1,
    )


def _logprob() -> Logprob:
    return Logprob(
        token="Hi",
        bytes=[72, 105],
        logprob=-0.5,
        top_logprobs=[LogprobTopLogprob(token="Hi", bytes=[72, 105], logprob=-0.5)],
    )


@pytest.mark.asyncio
async def test_text_events_carry_logprobs_and_one_event_per_annotation(run: Any) -> None:
    """Shows MOD-4."""
    text = ResponseOutputText(
        type="output_text",
        text="Cited.",
        annotations=[_citation(0), _citation(1)],
        logprobs=[_logprob()],
    )
    message = ResponseOutputMessage(
        id="msg_1", type="message", role="assistant", status="completed", content=[text]
    )
    events = await _stream_of(run, [message])

    added = next(event for event in events if event.type == "response.content_part.added")
    start = added.sequence_number
    delta, first, second, done = events[start + 1 : start + 5]
    assert delta.type == "response.output_text.delta"
    assert delta.delta == "Cited."
    assert [(lp.token, lp.logprob) for lp in delta.logprobs] == [("Hi", -0.5)]
    assert [(top.token, top.logprob) for top in delta.logprobs[0].top_logprobs] == [("Hi", -0.5)]
    assert [(first.type, first.sequence_number), (second.type, second.sequence_number)] == [
        ("response.output_text.annotation.added", start + 2),
        ("response.output_text.annotation.added", start + 3),
    ]
    assert (first.annotation_index, second.annotation_index) == (0, 1)
    assert first.annotation == _citation(0).model_dump()
    assert (first.item_id, first.output_index, first.content_index) == ("msg_1", 0, 0)
    assert (done.type, done.sequence_number, done.text) == (
        "response.output_text.done",
        start + 4,
        "Cited.",
    )
    assert [(lp.token, lp.logprob) for lp in done.logprobs] == [("Hi", -0.5)]
    assert events[-1].response.output[0].content[0].logprobs == [_logprob()]


@pytest.mark.asyncio
async def test_text_without_logprobs_streams_empty_logprobs(run: Any) -> None:
    """Shows MOD-4."""
    text = ResponseOutputText(type="output_text", text="Plain.", annotations=[])
    message = ResponseOutputMessage(
        id="msg_1", type="message", role="assistant", status="completed", content=[text]
    )
    events = await _stream_of(run, [message])

    for event in events:
        if event.type in ("response.output_text.delta", "response.output_text.done"):
            assert event.logprobs == []


@pytest.mark.asyncio
async def test_empty_texts_and_arguments_still_get_their_delta_events() -> None:
    empty_call = ResponseFunctionToolCall(
        type="function_call", name="lookup", arguments="", call_id="c1", id="fc_1"
    )
    with_empty_content = ResponseReasoningItem(
        id="rs_1",
        type="reasoning",
        summary=[Summary(type="summary_text", text="")],
        content=[Content(type="reasoning_text", text="")],
    )
    model = ScriptedModel([[assistant_message(""), refusal(""), with_empty_content, empty_call]])

    events: list[Any] = [event async for event in model.stream_response(*_REQUEST)]

    deltas = {event.type: event.delta for event in events if event.type.endswith(".delta")}
    assert deltas == {
        "response.output_text.delta": "",
        "response.refusal.delta": "",
        "response.reasoning_summary_text.delta": "",
        "response.reasoning_text.delta": "",
        "response.function_call_arguments.delta": "",
    }


@pytest.mark.parametrize(("item_id", "expected"), [(None, "call_9"), ("", ""), ("fc_9", "fc_9")])
@pytest.mark.asyncio
async def test_argument_events_use_the_item_id_else_the_call_id(
    item_id: str | None, expected: str, run: Any
) -> None:
    """Shows MOD-5."""
    call = ResponseFunctionToolCall(
        type="function_call", name="lookup", arguments='{"order_id": "9"}', call_id="call_9"
    )
    if item_id is not None:
        call.id = item_id
    events = await _stream_of(run, [call])

    arguments = [event for event in events if event.type.startswith("response.function_call_")]
    assert [event.item_id for event in arguments] == [expected, expected]
    assert arguments[1].name == "lookup"
    assert arguments[1].arguments == '{"order_id": "9"}'
    added = next(event for event in events if event.type == "response.output_item.added")
    assert added.item.id == item_id


@pytest.mark.asyncio
async def test_the_completed_usage_carries_the_request_count_and_request_usages(run: Any) -> None:
    """Shows MOD-6."""
    entries = [
        RequestUsage(
            input_tokens=1,
            output_tokens=1,
            total_tokens=2,
            input_tokens_details=Usage().input_tokens_details,
            output_tokens_details=Usage().output_tokens_details,
        ),
        RequestUsage(
            input_tokens=2,
            output_tokens=2,
            total_tokens=4,
            input_tokens_details=Usage().input_tokens_details.model_copy(
                update={"cached_tokens": 1}
            ),
            output_tokens_details=Usage().output_tokens_details,
        ),
    ]
    usage = Usage(
        requests=3,
        input_tokens=3,
        output_tokens=3,
        total_tokens=6,
        request_usage_entries=entries,
    )
    events = await _stream_of(run, [assistant_message("hi")], usage=usage)

    carried = events[-1].response.usage
    assert (carried.input_tokens, carried.output_tokens, carried.total_tokens) == (3, 3, 6)
    assert carried._agents_sdk_request_count == 3
    assert [
        (entry.input_tokens, entry.total_tokens) for entry in carried._agents_sdk_request_usages
    ] == [
        (1, 2),
        (2, 4),
    ]
    assert carried._agents_sdk_request_usages[1].input_tokens_details.cached_tokens == 1


@pytest.mark.asyncio
async def test_a_usage_without_request_entries_carries_only_the_request_count(run: Any) -> None:
    events = await _stream_of(
        run, [assistant_message("hi")], usage=Usage(requests=2, input_tokens=1, total_tokens=1)
    )

    carried = events[-1].response.usage
    assert carried._agents_sdk_request_count == 2
    assert not hasattr(carried, "_agents_sdk_request_usages")


@pytest.mark.asyncio
async def test_every_automatic_event_is_a_valid_event() -> None:
    text = ResponseOutputText(
        type="output_text", text="Cited.", annotations=[_citation(0)], logprobs=[_logprob()]
    )
    message = ResponseOutputMessage(
        id="msg_1", type="message", role="assistant", status="completed", content=[text]
    )
    call = function_call("lookup", {"order_id": "1"}, call_id="c1")
    reasoning = _reasoning(content=[Content(type="reasoning_text", text="x")])
    model = ScriptedModel([[reasoning, message, refusal("No."), call]])

    events: list[Any] = [event async for event in model.stream_response(*_REQUEST)]

    for event in events:
        # An annotation event carries the annotation's plain dump, which newer openai
        # releases type as a model: dumping it warns there, and validating it builds one.
        dumped = event.model_dump(warnings=False)
        assert type(event).model_validate(dumped).model_dump(warnings=False) == dumped
