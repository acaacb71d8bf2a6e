"""A step's automatic stream built without a model, for harnesses that pace it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from agents import Agent, ModelBehaviorError, Usage
from agents.stream_events import RawResponsesStreamEvent
from agents.testing import ModelCall, ModelStep, ScriptedModel, assistant_message

# Private, but imported by real harnesses from the SDK's own module path.
from agents.testing.model import _stream_events_for_step  # type: ignore[attr-defined]
from openai.types.responses import ResponseApplyPatchToolCall, ResponseFunctionWebSearch
from openai.types.responses.response_function_web_search import ActionSearch

from agents_testing.core import compat


def test_it_is_the_automatic_stream_of_the_step() -> None:
    events = _stream_events_for_step(
        ModelStep(output=[assistant_message("x")]), preserve_raw_usage=False
    )

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
    assert events[0].response.id == "resp-789"


def test_the_usage_is_taken_as_given() -> None:
    (*_, completed) = _stream_events_for_step(
        ModelStep(output=[assistant_message("x")]), preserve_raw_usage=False
    )
    usage = completed.response.usage

    assert (usage.input_tokens, usage.output_tokens, usage.total_tokens) == (0, 0, 0)
    assert usage._agents_sdk_request_count == 0

    (*_, counted) = _stream_events_for_step(
        ModelStep(output=[assistant_message("x")], usage=Usage(requests=2, input_tokens=5)),
        preserve_raw_usage=False,
    )
    assert counted.response.usage.input_tokens == 5
    assert counted.response.usage._agents_sdk_request_count == 2


@pytest.mark.parametrize("preserve", [False, True])
def test_raw_usage_rides_on_the_completed_response_only_when_asked(preserve: bool) -> None:
    _, raw_attribute = compat.streamed_usage_attributes()
    if raw_attribute is None:
        pytest.skip("this openai-agents release has no raw usage on streamed responses")
    step = ModelStep(output=[assistant_message("x")], raw_usage={"tokens": 1})

    events = _stream_events_for_step(step, preserve_raw_usage=preserve)

    assert getattr(events[-1].response, raw_attribute, None) == (
        {"tokens": 1} if preserve else None
    )
    assert getattr(events[0].response, raw_attribute, None) is None


def test_apply_patch_dicts_are_converted() -> None:
    patch = {
        "type": "apply_patch_call",
        "call_id": "c1",
        "operation": {"type": "delete_file", "path": "a"},
    }

    step = ModelStep(output=[patch])  # type: ignore[list-item]
    events = _stream_events_for_step(step, preserve_raw_usage=False)

    (item,) = events[-1].response.output
    assert isinstance(item, ResponseApplyPatchToolCall)
    assert (item.id, item.status) == ("c1", "completed")


def test_an_item_without_a_lifecycle_raises_the_sdk_error() -> None:
    search = ResponseFunctionWebSearch(
        id="ws_1",
        type="web_search_call",
        status="completed",
        action=ActionSearch(type="search", query="q"),
    )

    with pytest.raises(
        ModelBehaviorError, match=r"Automatic streaming does not support ResponseFunctionWebSearch"
    ):
        _stream_events_for_step(ModelStep(output=[search]), preserve_raw_usage=False)


def test_the_events_share_nothing_with_the_step() -> None:
    step = ModelStep(output=[assistant_message("original")])

    events = _stream_events_for_step(step, preserve_raw_usage=False)
    message: Any = step.output[0]
    message.content[0].text = "changed"

    assert events[-1].response.output[0].content[0].text == "original"


@pytest.mark.asyncio
async def test_a_stream_factory_can_pace_the_automatic_events(run: Any) -> None:
    """Shows MOD-16."""
    handed_out: list[str] = []

    async def paced(call: ModelCall) -> AsyncIterator[Any]:
        step = ModelStep(output=[assistant_message(f"echo {call.user_text}")])
        for event in _stream_events_for_step(step, preserve_raw_usage=False):
            handed_out.append(event.type)
            yield event

    model = ScriptedModel([ModelStep.stream(paced)])

    streamed = await run(Agent(name="Assistant", model=model), "ping", streamed=True)

    assert streamed.final_output == "echo ping"
    raw = [
        event.data.type for event in streamed.events if isinstance(event, RawResponsesStreamEvent)
    ]
    assert raw == handed_out
