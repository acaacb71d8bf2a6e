"""The ``assistant_message`` and ``function_call`` builders."""

from __future__ import annotations

import json
from typing import Any

import pytest
from agents import Agent, function_tool
from agents.testing import (
    ModelScriptError,
    ScriptedModel,
    assistant_message,
    function_call,
)
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage

from agents_testing.model import InvalidModelArgument


@function_tool
def weather(city: str) -> str:
    """The weather in a city."""
    return f"{city}: sunny"


def test_assistant_message_is_a_completed_output_message() -> None:
    message = assistant_message("Hello.", item_id="msg_7")

    assert isinstance(message, ResponseOutputMessage)
    assert (message.id, message.role, message.status) == ("msg_7", "assistant", "completed")
    assert [part.text for part in message.content] == ["Hello."]  # type: ignore[union-attr]


def test_assistant_message_has_a_fixed_default_id_and_empty_logprobs() -> None:
    message = assistant_message("a")

    assert message.id == "scripted-message" == assistant_message("b").id
    assert message.content[0].logprobs == []  # type: ignore[union-attr]
    assert message.model_dump(exclude_unset=True)["content"] == [
        {"type": "output_text", "text": "a", "annotations": [], "logprobs": []}
    ]


@pytest.mark.asyncio
async def test_the_default_message_id_and_logprobs_reach_the_next_request(
    run: Any, streamed: bool
) -> None:
    model = ScriptedModel(
        [
            [assistant_message("One."), function_call("weather", {"city": "Oslo"}, call_id="c1")],
            [assistant_message("Two.")],
        ]
    )
    await run(Agent(name="Assistant", model=model, tools=[weather]), "Hi", streamed=streamed)

    sent = model.calls[1].input
    assert isinstance(sent, list)
    message = sent[1]
    assert message["id"] == "scripted-message"  # type: ignore[typeddict-item]
    assert message["content"][0]["logprobs"] == []  # type: ignore[typeddict-item,index]


def test_function_call_is_the_item_the_provider_would_send() -> None:
    call = function_call("lookup", {"city": "東京", "days": 2}, call_id="call_1")

    assert isinstance(call, ResponseFunctionToolCall)
    assert call.model_dump(exclude_unset=True) == {
        "arguments": '{"city":"東京","days":2}',
        "call_id": "call_1",
        "id": "call_1",
        "name": "lookup",
        "type": "function_call",
    }
    assert json.loads(call.arguments) == {"city": "東京", "days": 2}
    assert call.status is None


def test_function_call_keeps_the_key_order_and_a_given_empty_item_id() -> None:
    call = function_call("f", {"b": 1, "a": [1, 2]}, call_id="c1", item_id="")

    assert call.arguments == '{"b":1,"a":[1,2]}'
    assert call.id == ""


@pytest.mark.asyncio
async def test_the_recorded_input_item_of_a_function_call_has_no_status(
    run: Any, streamed: bool
) -> None:
    """Shows MOD-15."""
    model = ScriptedModel(
        [
            [function_call("weather", {"city": "東京"}, call_id="c1")],
            [assistant_message("Done.")],
        ]
    )

    result = await run(
        Agent(name="Assistant", model=model, tools=[weather]), "Hi", streamed=streamed
    )

    sent = model.calls[1].input
    assert isinstance(sent, list)
    assert sent[1] == {
        "arguments": '{"city":"東京"}',
        "call_id": "c1",
        "id": "c1",
        "name": "weather",
        "type": "function_call",
    }
    assert "東京" in json.dumps(sent[1], ensure_ascii=False)
    items = getattr(result, "result", result).new_items
    assert items[0].raw_item.id == "c1"


@pytest.mark.asyncio
async def test_a_function_call_without_call_id_takes_the_assigned_id_as_its_id(
    run: Any, streamed: bool
) -> None:
    """Shows MOD-15."""
    model = ScriptedModel([[function_call("weather", {"city": "Oslo"})], [assistant_message("ok")]])

    await run(Agent(name="Assistant", model=model, tools=[weather]), "Hi", streamed=streamed)

    sent = model.calls[1].input
    assert isinstance(sent, list)
    assert (sent[1]["call_id"], sent[1]["id"]) == ("call_1", "call_1")  # type: ignore[typeddict-item]


def test_function_call_keeps_string_arguments_and_sets_namespace_only_when_given() -> None:
    call = function_call(
        "lookup", '{"raw": true}', call_id="call_2", item_id="fc_2", namespace="geo"
    )

    assert call.arguments == '{"raw": true}'
    assert call.id == "fc_2"
    assert call.namespace == "geo"
    assert "namespace" not in function_call("lookup", "{}", call_id="c").model_dump(
        exclude_unset=True
    )


@pytest.mark.parametrize(
    ("arguments", "kwargs", "argument"),
    [
        ({"when": object()}, {"call_id": "c"}, "function_call(arguments)"),
        ({"big": 10**5000}, {"call_id": "c"}, "function_call(arguments)"),
        (42, {"call_id": "c"}, "function_call(arguments)"),
        ("{}", {"call_id": ""}, "function_call(call_id)"),
        ("{}", {"call_id": "c", "item_id": 5}, "function_call(item_id)"),
        ("{}", {"call_id": "c", "namespace": b"ns"}, "function_call(namespace)"),
    ],
)
def test_function_call_rejects_bad_input_with_the_argument_named(
    arguments: Any, kwargs: dict[str, Any], argument: str
) -> None:
    with pytest.raises(InvalidModelArgument) as raised:
        function_call("lookup", arguments, **kwargs)

    assert raised.value.argument == argument
    assert str(raised.value).startswith(f"Invalid argument {argument}: expected ")
    assert isinstance(raised.value, ModelScriptError)
    assert isinstance(raised.value, TypeError)


@pytest.mark.parametrize(
    ("text", "kwargs", "argument"),
    [
        (["not", "text"], {}, "assistant_message(text)"),
        ("", {"item_id": None}, "assistant_message(item_id)"),
        ("hi", {"item_id": 7}, "assistant_message(item_id)"),
    ],
)
def test_assistant_message_rejects_bad_input_with_the_argument_named(
    text: Any, kwargs: dict[str, Any], argument: str
) -> None:
    with pytest.raises(InvalidModelArgument) as raised:
        assistant_message(text, **kwargs)

    assert raised.value.argument == argument


def test_builder_messages_survive_values_whose_repr_fails() -> None:
    class Hostile:
        def __repr__(self) -> str:
            raise RuntimeError("no repr for you")

    with pytest.raises(InvalidModelArgument, match="got Hostile"):
        function_call("lookup", "{}", call_id="c", item_id=Hostile())  # type: ignore[arg-type]
    with pytest.raises(InvalidModelArgument, match="got int <int object"):
        assistant_message(10**5000)  # type: ignore[arg-type]


@function_tool
def lookup(city: str, days: int) -> str:
    """Forecast for a city."""
    return f"{city} for {days} days: sunny"


@pytest.mark.asyncio
async def test_built_function_call_is_executed_by_the_runner(run: Any, streamed: bool) -> None:
    model = ScriptedModel(
        [
            [function_call("lookup", {"city": "Tokyo", "days": 2}, call_id="call_1")],
            [assistant_message("Sunny.")],
        ]
    )

    await run(Agent(name="Forecaster", model=model, tools=[lookup]), "?", streamed=streamed)

    outputs = [
        item["output"]  # type: ignore[index,typeddict-item]
        for item in model.calls[1].input
        if item.get("type") == "function_call_output"  # type: ignore[union-attr]
    ]
    assert outputs == ["Tokyo for 2 days: sunny"]
