"""The ``assistant_message`` and ``function_call`` builders."""

from __future__ import annotations

import json
from typing import Any

import pytest
from agents import Agent, function_tool
from agents.testing import ModelScriptError, ScriptedModel, assistant_message, function_call
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage


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
    ("arguments", "kwargs", "message"),
    [
        ({"when": object()}, {"call_id": "c"}, "not JSON-serializable"),
        (42, {"call_id": "c"}, "must be a str or a mapping"),
        ("{}", {"call_id": ""}, "non-empty call_id"),
    ],
)
def test_function_call_rejects_bad_input_clearly(
    arguments: Any, kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(ModelScriptError, match=message):
        function_call("lookup", arguments, **kwargs)


def test_assistant_message_rejects_non_text() -> None:
    with pytest.raises(ModelScriptError, match="str"):
        assistant_message(["not", "text"])  # type: ignore[arg-type]


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
