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


def test_assistant_message_is_a_completed_output_message() -> None:
    message = assistant_message("Hello.", item_id="msg_7")

    assert isinstance(message, ResponseOutputMessage)
    assert (message.id, message.role, message.status) == ("msg_7", "assistant", "completed")
    assert [part.text for part in message.content] == ["Hello."]  # type: ignore[union-attr]


def test_assistant_message_has_a_default_id() -> None:
    assert assistant_message("a").id == assistant_message("b").id


def test_function_call_encodes_mapping_arguments_as_json() -> None:
    call = function_call("lookup", {"city": "Tokyo", "days": 2}, call_id="call_1")

    assert isinstance(call, ResponseFunctionToolCall)
    assert json.loads(call.arguments) == {"city": "Tokyo", "days": 2}
    assert (call.name, call.call_id, call.id, call.status) == (
        "lookup",
        "call_1",
        None,
        "completed",
    )


def test_function_call_keeps_string_arguments_and_optional_fields() -> None:
    call = function_call(
        "lookup", '{"raw": true}', call_id="call_2", item_id="fc_2", namespace="geo"
    )

    assert call.arguments == '{"raw": true}'
    assert call.id == "fc_2"
    assert call.namespace == "geo"


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
