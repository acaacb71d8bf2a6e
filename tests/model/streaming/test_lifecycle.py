"""Automatic and strict streaming through ``Runner.run_streamed``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from agents import Agent, ApplyPatchTool, Usage, function_tool
from agents.editor import ApplyPatchOperation
from agents.stream_events import RawResponsesStreamEvent, RunItemStreamEvent
from agents.testing import (
    InvalidModelStep,
    ModelCall,
    ModelStep,
    ScriptedModel,
    assistant_message,
    function_call,
)
from openai.types.responses import (
    Response,
    ResponseApplyPatchToolCall,
    ResponseCompletedEvent,
    ResponseCreatedEvent,
    ResponseFunctionWebSearch,
    ResponseOutputItemDoneEvent,
    ResponseOutputMessage,
    ResponseOutputText,
    ResponseReasoningItem,
    ResponseTextDeltaEvent,
)
from openai.types.responses.response_function_web_search import ActionSearch
from openai.types.responses.response_reasoning_item import Summary


@function_tool
def lookup(order_id: str) -> str:
    """Look up an order."""
    return f"order {order_id} shipped"


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
    assert types[:7] == [
        "response.created",
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
        assert types[:4] == [
            "response.created",
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

    with pytest.raises(InvalidModelStep) as raised:
        await run(Agent(name="Searcher", model=model), "Search", streamed=True)

    assert raised.value.reason == "invalid_stream_events"
    assert raised.value.input_index == 0
    assert "web_search_call" in str(raised.value)
    assert "ModelStep.stream" in str(raised.value)


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


@pytest.mark.parametrize("kind", sorted(_without_lifecycle()))
@pytest.mark.asyncio
async def test_an_item_without_a_lifecycle_is_refused_only_when_a_streamed_call_reaches_it(
    kind: str, run: Any
) -> None:
    step = ModelStep(output=[_without_lifecycle()[kind], assistant_message("Done.")])
    model = ScriptedModel([[assistant_message("First.")], step])
    agent = Agent(name="Assistant", model=model)

    first = await run(agent, "Hi", streamed=True)
    assert first.final_output == "First."
    assert model.remaining_steps == 1
    with pytest.raises(InvalidModelStep) as raised:
        await run(agent, "Again", streamed=True)

    assert raised.value.reason == "invalid_stream_events"
    assert raised.value.input_index == 1
    assert f"output item 1 has type '{kind}'" in str(raised.value)


@pytest.mark.asyncio
async def test_an_item_without_a_lifecycle_serves_a_non_streamed_run(run: Any) -> None:
    image = _without_lifecycle()["image_generation_call"]
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

    with pytest.raises(InvalidModelStep, match=r"^Invalid model step #1: stream event 1 is "):
        await run(Agent(name="Assistant", model=model), "Hi", streamed=True)
