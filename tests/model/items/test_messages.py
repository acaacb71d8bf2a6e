"""Builders of what the model says: refusal, reasoning and structured final output."""

from __future__ import annotations

import dataclasses
from typing import Any

import agents.exceptions
import pytest
from agents import Agent
from agents.agent_output import AgentOutputSchema
from agents.items import MessageOutputItem, ReasoningItem
from agents.stream_events import RawResponsesStreamEvent
from openai.types.responses import ResponseOutputRefusal, ResponseReasoningItem
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from agents_testing.model import (
    InvalidModelArgument,
    ScriptedModel,
    assistant_message,
    final_output,
    reasoning,
    refusal,
)

from ..conftest import RunAgent, StreamedRun

BAD: Any = 7


class Forecast(BaseModel):
    city: str
    high_celsius: int = Field(alias="highCelsius")


@dataclasses.dataclass
class Booking:
    flight: str
    seats: list[str]


class Ticket(TypedDict):
    number: str
    paid: bool


def _items(result: Any) -> list[Any]:
    return list(result.result.new_items if isinstance(result, StreamedRun) else result.new_items)


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("output_type", "value"),
    [
        (Forecast, Forecast(city="Tokyo", highCelsius=21)),
        (Booking, Booking(flight="NH 7", seats=["1A", "1B"])),
        (Ticket, Ticket(number="T-1", paid=True)),
        (list[int], [3, 1, 2]),
    ],
    ids=["pydantic", "dataclass", "typeddict", "wrapped-list"],
)
async def test_final_output_is_validated_into_the_agents_output_type(
    run: RunAgent, streamed: bool, output_type: Any, value: Any
) -> None:
    model = ScriptedModel([[final_output(value)]])
    agent = Agent(name="Planner", model=model, output_type=output_type)

    result = await run(agent, "Plan it", streamed=streamed)

    assert result.final_output == value
    assert type(result.final_output) is type(value)


@pytest.mark.asyncio
async def test_final_output_with_output_type_fits_a_dict_alias_on_every_sdk(
    run: RunAgent, streamed: bool
) -> None:
    # Whether dict[...] output is wrapped differs between SDK releases; the builder asks
    # the output type which JSON it validates.
    output_type = AgentOutputSchema(dict[str, int], strict_json_schema=False)
    model = ScriptedModel([[final_output({"a": 1}, output_type=output_type)]])
    agent = Agent(name="Counter", model=model, output_type=output_type)

    result = await run(agent, "Count", streamed=streamed)

    assert result.final_output == {"a": 1}


def test_final_output_refuses_a_value_its_output_type_does_not_validate() -> None:
    with pytest.raises(InvalidModelArgument) as raised:
        final_output({"city": "Oslo"}, output_type=Forecast)

    assert str(raised.value) == (
        "Invalid argument final_output(value): expected a value that the output type "
        "<class 'tests.model.items.test_messages.Forecast'> validates, got dict "
        "{'city': 'Oslo'}."
    )


def test_final_output_text_is_json_by_alias() -> None:
    message = final_output(Forecast(city="Oslo", highCelsius=3), item_id="msg_9")

    assert message.id == "msg_9"
    assert [part.text for part in message.content] == [  # type: ignore[union-attr]
        '{"city":"Oslo","highCelsius":3}'
    ]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (Forecast, "an instance of the output type"),
        ("plain text", "a structured value (an agent without an output_type answers in"),
        (None, "a pydantic model, dataclass or dict value"),
        (object(), "a pydantic model, dataclass or dict value"),
        ({"when": object()}, "a value that encodes as JSON"),
    ],
)
def test_final_output_rejects_values_that_are_no_structured_output(
    value: Any, expected: str
) -> None:
    with pytest.raises(InvalidModelArgument) as raised:
        final_output(value)

    assert raised.value.argument == "final_output(value)"
    assert raised.value.expected.startswith(expected)


@pytest.mark.asyncio
async def test_reasoning_summaries_reach_the_run_and_stream_as_summary_events(
    run: RunAgent, streamed: bool
) -> None:
    model = ScriptedModel(
        [[reasoning("Check the calendar.", "Then answer."), assistant_message("Friday.")]]
    )

    result = await run(Agent(name="Thinker", model=model), "When?", streamed=streamed)

    assert result.final_output == "Friday."
    items = _items(result)
    assert isinstance(items[0], ReasoningItem)
    raw = items[0].raw_item
    assert isinstance(raw, ResponseReasoningItem)
    assert [part.text for part in raw.summary] == ["Check the calendar.", "Then answer."]
    if isinstance(result, StreamedRun):
        deltas = [
            event.data.delta
            for event in result.events
            if isinstance(event, RawResponsesStreamEvent)
            and event.data.type == "response.reasoning_summary_text.delta"
        ]
        assert deltas == ["Check the calendar.", "Then answer."]


def test_reasoning_defaults_and_bad_summaries() -> None:
    item = reasoning()

    assert (item.id, item.summary, item.encrypted_content) == ("rs_scripted", [], None)
    assert reasoning("a", encrypted_content="opaque").encrypted_content == "opaque"
    with pytest.raises(InvalidModelArgument) as raised:
        reasoning("ok", BAD)
    assert str(raised.value) == "Invalid argument reasoning(summary[1]): expected a str, got int 7."


@pytest.mark.asyncio
async def test_refusal_is_what_the_sdk_treats_as_a_refusal(run: RunAgent, streamed: bool) -> None:
    model = ScriptedModel([[refusal("I can't help with that.")]])
    agent = Agent(name="Careful", model=model)
    refusal_error = getattr(agents.exceptions, "ModelRefusalError", None)

    if refusal_error is not None:
        # SDK releases with refusal handling stop the run with the refusal text.
        with pytest.raises(refusal_error, match="I can't help with that"):
            await run(agent, "Do it", streamed=streamed)
        return
    result = await run(agent, "Do it", streamed=streamed)
    # Older releases finish with no text: a refusal is not output_text.
    assert result.final_output == ""
    message = _items(result)[0]
    assert isinstance(message, MessageOutputItem)
    assert message.raw_item.content == [
        ResponseOutputRefusal(type="refusal", refusal="I can't help with that.")
    ]


def test_refusal_rejects_non_text() -> None:
    with pytest.raises(InvalidModelArgument) as raised:
        refusal(BAD)

    assert str(raised.value) == "Invalid argument refusal(text): expected a str, got int 7."
