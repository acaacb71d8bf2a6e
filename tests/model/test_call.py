"""Recorded calls: detached snapshots of request data, identity of live runtime objects."""

from __future__ import annotations

import dataclasses
import sys
from typing import Any

import pytest
from agents import Agent, AgentOutputSchema, ModelSettings, ModelTracing, function_tool, handoff
from agents.testing import ModelCall, ModelStep, ScriptedModel, assistant_message, function_call
from pydantic import BaseModel

from agents_testing.core import UncopyableValue


@function_tool
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


class Answer(BaseModel):
    total: int


async def _call(model: ScriptedModel, input: Any, **overrides: Any) -> Any:
    arguments: dict[str, Any] = {
        "system_instructions": "Be brief.",
        "model_settings": ModelSettings(temperature=0.5),
        "tools": [add],
        "output_schema": None,
        "handoffs": [],
        "tracing": ModelTracing.DISABLED,
    }
    arguments.update(overrides)
    return await model.get_response(
        arguments["system_instructions"],
        input,
        arguments["model_settings"],
        arguments["tools"],
        arguments["output_schema"],
        arguments["handoffs"],
        arguments["tracing"],
        previous_response_id=arguments.get("previous_response_id"),
        conversation_id=arguments.get("conversation_id"),
        prompt=arguments.get("prompt"),
    )


@pytest.mark.asyncio
async def test_mutating_the_runner_list_or_an_item_afterwards_changes_nothing_recorded() -> None:
    model = ScriptedModel([[assistant_message("one")], [assistant_message("two")]])
    item: dict[str, Any] = {"role": "user", "content": "original"}
    conversation: list[Any] = [item]

    await _call(model, conversation)
    conversation.append({"role": "assistant", "content": "appended"})
    item["content"] = "mutated"
    await _call(model, conversation)
    conversation.clear()

    first, second = model.calls
    assert first.input == [{"role": "user", "content": "original"}]
    assert second.input == [
        {"role": "user", "content": "mutated"},
        {"role": "assistant", "content": "appended"},
    ]


@pytest.mark.asyncio
async def test_nested_mutation_of_a_resent_item_is_seen_only_by_later_calls() -> None:
    model = ScriptedModel([[assistant_message("1")], [assistant_message("2")]])
    item: dict[str, Any] = {"role": "user", "content": [{"type": "input_text", "text": "a"}]}

    await _call(model, [item])
    item["content"][0]["text"] = "b"
    await _call(model, [item])

    assert model.calls[0].input[0]["content"][0]["text"] == "a"  # type: ignore[index,typeddict-item]
    assert model.calls[1].input[0]["content"][0]["text"] == "b"  # type: ignore[index,typeddict-item]


@pytest.mark.asyncio
async def test_each_accessor_returns_a_fresh_detached_copy() -> None:
    model = ScriptedModel([[assistant_message("ok")]])
    prompt: Any = {"id": "pmpt_1", "variables": {"name": "Ada"}}
    await _call(model, [{"role": "user", "content": "hi"}], prompt=prompt)
    call = model.calls[0]

    returned = call.input
    returned[0]["content"] = "edited by the test"  # type: ignore[arg-type,index,typeddict-unknown-key]
    returned.append({"role": "user", "content": "extra"})  # type: ignore[union-attr]
    settings = call.model_settings
    settings.temperature = 0.0
    call.prompt["variables"]["name"] = "Grace"  # type: ignore[index]
    call.tools.clear()
    prompt["variables"]["name"] = "changed at the source"

    assert call.input == [{"role": "user", "content": "hi"}]
    assert call.input is not call.input
    assert call.model_settings.temperature == 0.5
    assert call.model_settings is not call.model_settings
    assert call.prompt == {"id": "pmpt_1", "variables": {"name": "Ada"}}
    assert call.tools == [add]
    assert model.calls is not model.calls
    assert model.calls == (call,)


@pytest.mark.asyncio
async def test_recorded_call_fields_cannot_be_reassigned() -> None:
    model = ScriptedModel([[assistant_message("ok")]])
    await _call(model, "hello")
    call = model.calls[0]

    with pytest.raises(AttributeError):
        call.input = []  # type: ignore[misc]
    with pytest.raises(AttributeError):
        call.streamed = True  # type: ignore[misc]

    assert call.input == "hello"
    assert call.streamed is False


def test_a_test_can_build_a_call_to_unit_test_a_responder() -> None:
    settings = ModelSettings(temperature=0.5)
    items: list[Any] = [{"role": "user", "content": "Summarize this"}]
    call = ModelCall(
        system_instructions="Be brief.",
        input=items,
        model_settings=settings,
        tools=[],
        output_schema=None,
        handoffs=[],
        tracing=ModelTracing.DISABLED,
        previous_response_id=None,
        conversation_id=None,
        prompt=None,
        streamed=False,
    )
    items[0]["content"] = "changed"
    settings.temperature = 1.0

    def respond(call: ModelCall) -> Any:
        assert call.input == [{"role": "user", "content": "Summarize this"}]
        return [assistant_message(f"{call.system_instructions} {call.user_text}")]

    assert respond(call)[0].content[0].text == "Be brief. Summarize this"
    assert call.model_settings.temperature == 0.5
    assert dataclasses.is_dataclass(call)
    assert [field.name for field in dataclasses.fields(call)] == [
        "system_instructions",
        "input",
        "model_settings",
        "tools",
        "output_schema",
        "handoffs",
        "tracing",
        "previous_response_id",
        "conversation_id",
        "prompt",
        "streamed",
    ]
    assert dataclasses.replace(call, streamed=True).streamed is True
    assert call == dataclasses.replace(call)
    with pytest.raises(TypeError):
        ModelCall()  # type: ignore[call-arg]


@pytest.mark.asyncio
async def test_a_built_call_equals_the_recorded_one(run: Any, streamed: bool) -> None:
    model = ScriptedModel([[assistant_message("ok")]])
    await run(Agent(name="Assistant", model=model), "hello", streamed=streamed)
    recorded = model.calls[0]

    built = ModelCall(
        system_instructions=recorded.system_instructions,
        input=recorded.input,
        model_settings=recorded.model_settings,
        tools=recorded.tools,
        output_schema=recorded.output_schema,
        handoffs=recorded.handoffs,
        tracing=recorded.tracing,
        previous_response_id=recorded.previous_response_id,
        conversation_id=recorded.conversation_id,
        prompt=recorded.prompt,
        streamed=streamed,
    )

    assert built == recorded


@pytest.mark.asyncio
async def test_live_objects_keep_their_identity(run: Any, streamed: bool) -> None:
    specialist = Agent(name="Specialist", model=ScriptedModel())
    to_specialist = handoff(specialist)
    schema = AgentOutputSchema(Answer)
    model = ScriptedModel([[assistant_message('{"total": 3}')]])
    agent = Agent(
        name="Calculator",
        instructions="Add numbers.",
        model=model,
        tools=[add],
        handoffs=[to_specialist],
        output_type=schema,
        model_settings=ModelSettings(temperature=0.25, max_tokens=50),
    )

    result = await run(agent, "1 + 2", streamed=streamed)

    assert result.final_output == Answer(total=3)
    call = model.calls[0]
    assert call.tools[0] is add
    assert call.handoffs == [to_specialist]
    assert call.handoffs[0] is to_specialist
    assert call.output_schema is schema
    assert call.tracing is ModelTracing.DISABLED
    assert call.system_instructions == "Add numbers."
    assert call.model_settings.temperature == 0.25
    assert call.model_settings.max_tokens == 50
    assert call.previous_response_id is None
    assert call.conversation_id is None


@pytest.mark.asyncio
async def test_previous_response_id_is_recorded(run: Any, streamed: bool) -> None:
    model = ScriptedModel([[assistant_message("ok")]])

    await run(
        Agent(name="Assistant", model=model), "Hi", streamed=streamed, previous_response_id="resp_0"
    )

    assert model.calls[0].previous_response_id == "resp_0"


@pytest.mark.asyncio
async def test_history_of_a_tool_loop_is_intact_after_the_run(run: Any, streamed: bool) -> None:
    model = ScriptedModel(
        [
            [function_call("add", {"a": 1, "b": 2}, call_id="c1")],
            [function_call("add", {"a": 3, "b": 4}, call_id="c2")],
            [assistant_message("3 and 7")],
        ]
    )

    await run(Agent(name="Calculator", model=model, tools=[add]), "go", streamed=streamed)

    lengths = [len(call.input) for call in model.calls]
    assert lengths == [1, 3, 5]
    assert [item.get("output") for item in model.calls[2].input[2::2]] == ["3", "7"]  # type: ignore[union-attr]
    assert model.calls[0].input == [{"content": "go", "role": "user"}]


@pytest.mark.asyncio
async def test_rebuilt_items_are_recorded_as_passed_even_when_one_changed() -> None:
    model = ScriptedModel([[assistant_message(str(n))] for n in range(3)])
    first = [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}]

    await _call(model, [dict(item) for item in first])
    await _call(model, [dict(item) for item in first] + [{"role": "user", "content": "c"}])
    changed = [{"role": "user", "content": "a"}, {"role": "assistant", "content": "B!"}]
    await _call(model, changed)

    assert [call.input for call in model.calls] == [
        first,
        [*first, {"role": "user", "content": "c"}],
        changed,
    ]


@pytest.mark.asyncio
async def test_conversation_id_and_prompt_are_recorded(run: Any, streamed: bool) -> None:
    model = ScriptedModel([[assistant_message("ok")]])
    agent = Agent(
        name="Assistant",
        model=model,
        prompt={"id": "pmpt_1", "variables": {"tone": "brief"}},
    )

    await run(agent, "Hi", streamed=streamed, conversation_id="conv_1")

    call = model.calls[0]
    assert call.conversation_id == "conv_1"
    assert call.prompt is not None
    assert call.prompt["id"] == "pmpt_1"
    assert call.prompt.get("variables") == {"tone": "brief"}


# -- a request value that cannot be copied -----------------------------------------------


class _RefusesCopy:
    """A value whose deep copy fails with one known exception object."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        raise self.error


def _request_with(where: str, value: Any) -> tuple[Any, ...]:
    settings = ModelSettings(extra_args={"k": value}) if where == "settings" else ModelSettings()
    items: Any = [{"role": "user", "content": "hi", "extra": value}] if where == "input" else "hi"
    prompt = {"id": "pmpt_1", "variables": {"k": value}} if where == "prompt" else None
    return (None, items, settings, [], None, [], ModelTracing.DISABLED, None, None, prompt)


async def _send(model: ScriptedModel, request: tuple[Any, ...], *, streamed: bool) -> None:
    args, (previous, conversation, prompt) = request[:7], request[7:]
    options = {"previous_response_id": previous, "conversation_id": conversation, "prompt": prompt}
    if streamed:
        async for _ in model.stream_response(*args, **options):
            pass
    else:
        await model.get_response(*args, **options)


def _untouched_model(touched: list[str]) -> ScriptedModel:
    def respond(call: ModelCall) -> Any:
        touched.append("responder")
        return [assistant_message("never")]

    def match(call: ModelCall) -> bool:
        touched.append("matcher")
        return True

    return ScriptedModel([ModelStep.respond(respond, match=match)])


@pytest.mark.parametrize("where", ["settings", "input", "prompt"])
@pytest.mark.parametrize("streamed", [False, True], ids=["get_response", "stream_response"])
@pytest.mark.asyncio
async def test_a_value_that_cannot_be_copied_raises_its_own_error_and_nothing_happens(
    where: str, streamed: bool
) -> None:
    """Shows GEN-1."""
    refusal = RuntimeError("x")
    touched: list[str] = []
    model = _untouched_model(touched)

    with pytest.raises(RuntimeError) as raised:
        await _send(model, _request_with(where, _RefusesCopy(refusal)), streamed=streamed)

    assert raised.value is refusal
    assert raised.value.__cause__ is None
    if sys.version_info >= (3, 11):
        assert any(note.startswith("agents-testing: ") for note in raised.value.__notes__)
    assert model.calls == ()
    assert model.remaining_steps == 1
    assert touched == []


@pytest.mark.parametrize("where", ["settings", "input", "prompt"])
@pytest.mark.parametrize("streamed", [False, True], ids=["get_response", "stream_response"])
@pytest.mark.asyncio
async def test_with_extra_checks_a_value_that_cannot_be_copied_is_named(
    where: str, streamed: bool
) -> None:
    refusal = RuntimeError("x")
    model = ScriptedModel([[assistant_message("never")]], extra_checks=True)

    with pytest.raises(UncopyableValue) as raised:
        await _send(model, _request_with(where, _RefusesCopy(refusal)), streamed=streamed)

    assert raised.value.__cause__ is refusal
    assert raised.value.path.startswith(
        {"settings": "model_settings", "input": "input"}.get(where, where)
    )
    assert model.calls == ()
    assert model.remaining_steps == 1


@pytest.mark.parametrize("extra_checks", [False, True], ids=["bare", "extra_checks"])
@pytest.mark.asyncio
async def test_a_prompt_that_cannot_be_copied_fails_the_run_before_anything_is_recorded(
    run: Any, streamed: bool, extra_checks: bool
) -> None:
    """Shows GEN-1."""
    refusal = RuntimeError("x")
    model = ScriptedModel([[assistant_message("never")]], extra_checks=extra_checks)
    agent = Agent(
        name="Assistant",
        model=model,
        prompt={"id": "pmpt_1", "variables": {"k": _RefusesCopy(refusal)}},  # type: ignore[arg-type]
    )

    with pytest.raises(UncopyableValue if extra_checks else RuntimeError) as raised:
        await run(agent, "Hi", streamed=streamed)

    if extra_checks:
        assert raised.value.__cause__ is refusal
    else:
        assert raised.value is refusal
    assert model.calls == ()
    assert model.remaining_steps == 1


@function_tool
def remove(path: str) -> str:
    """Refuse to remove a file."""
    return f"no-rm: {path} kept"


@pytest.mark.asyncio
async def test_str_and_repr_of_a_call_show_every_field_with_its_value(
    run: Any, streamed: bool
) -> None:
    """MOD-18: a recorded call prints as a frozen dataclass does, every field with its
    value, so ``"<text>" in str(model.last_call)`` finds the input and the tool outputs."""
    model = ScriptedModel(
        [
            [function_call("remove", {"path": "notes.txt"}, call_id="c1")],
            [assistant_message("kept")],
        ]
    )
    agent = Agent(name="Desk", model=model, tools=[remove], instructions="Be careful.")
    await run(agent, "tidy up", streamed=streamed)
    call = model.last_call
    assert call is not None

    text = str(call)
    assert text == repr(call)
    assert "no-rm: notes.txt kept" in text
    assert "'tidy up'" in text
    assert text.startswith("ModelCall(system_instructions='Be careful.', input=[")
    assert text.endswith(f"streamed={streamed})")
    positions = [text.index(f"{field.name}=") for field in dataclasses.fields(ModelCall)]
    assert positions == sorted(positions)
    assert f"tools={call.tools!r}" in text
    assert f"model_settings={call.model_settings!r}" in text
