"""``any_order`` groups and ``ModelStep(match=...)`` through the real runner."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from agents import Agent, RunConfig, Runner

from agents_testing.model import (
    InvalidModelStep,
    ModelCall,
    ModelCallMatcherError,
    ModelStep,
    ScriptedModel,
    UnconsumedModelSteps,
    any_order,
    assistant_message,
    function_call,
)

from .conftest import RunAgent


def _instructions(text: str) -> Any:
    return lambda call: call.system_instructions == text


@pytest.mark.asyncio
async def test_match_accepts_the_request_and_the_step_answers(
    run: RunAgent, streamed: bool
) -> None:
    model = ScriptedModel(
        [ModelStep(output=[assistant_message("Sunny.")], match=lambda c: c.user_text == "Weather?")]
    )
    agent = Agent(name="assistant", model=model)

    result = await run(agent, "Weather?", streamed=streamed)

    assert result.final_output == "Sunny."
    assert model.pending_steps == ()
    model.assert_complete()


@pytest.mark.asyncio
async def test_a_rejected_request_raises_and_leaves_the_step_pending(
    run: RunAgent, streamed: bool
) -> None:
    model = ScriptedModel(
        [ModelStep(output=[assistant_message("Sunny.")], match=lambda c: c.user_text == "Weather?")]
    )
    agent = Agent(name="assistant", model=model)

    with pytest.raises(ModelCallMatcherError) as info:
        await run(agent, "Stocks?", streamed=streamed)

    assert str(info.value) == (
        "Model matcher of step #1 rejected call #1. Fix the matcher or the step order, or "
        "inspect the error's call to see what the workflow sent."
    )
    assert info.value.call.user_text == "Stocks?"
    assert info.value.call_index == 0
    assert info.value.input_index == 0
    assert not info.value.in_group
    assert [step.output for step in info.value.pending_steps] == [[assistant_message("Sunny.")]]
    assert len(model.calls) == 1
    assert model.remaining_steps == 1
    with pytest.raises(UnconsumedModelSteps):
        model.assert_complete()


@pytest.mark.asyncio
async def test_only_false_rejects_and_a_matcher_error_propagates(run: RunAgent) -> None:
    def broken(call: ModelCall) -> bool:
        raise LookupError("no such field")

    model = ScriptedModel(
        [
            ModelStep(output=[assistant_message("one")], match=lambda call: None),
            {"output": [assistant_message("two")], "match": broken},
        ]
    )
    agent = Agent(name="assistant", model=model)

    assert (await run(agent, "Hi", streamed=False)).final_output == "one"
    with pytest.raises(LookupError, match="no such field"):
        await run(agent, "Hi", streamed=False)
    assert model.remaining_steps == 1


@pytest.mark.asyncio
async def test_parallel_agent_tools_answered_by_match_in_any_order(
    run: RunAgent, streamed: bool
) -> None:
    # Every agent shares one model, as with one provider: the two agent tools run
    # concurrently, so which of their requests comes first is not the test's business.
    model = ScriptedModel(
        [
            [
                function_call("to_french", {"input": "hello"}, call_id="call_fr"),
                function_call("to_spanish", {"input": "hello"}, call_id="call_es"),
            ],
            any_order(
                ModelStep(output=[assistant_message("hola")], match=_instructions("Spanish")),
                ModelStep(output=[assistant_message("bonjour")], match=_instructions("French")),
            ),
            [assistant_message("bonjour / hola")],
        ]
    )
    french = Agent(name="french", instructions="French", model=model)
    spanish = Agent(name="spanish", instructions="Spanish", model=model)
    desk = Agent(
        name="desk",
        model=model,
        tools=[
            french.as_tool(tool_name="to_french", tool_description="Translate to French."),
            spanish.as_tool(tool_name="to_spanish", tool_description="Translate to Spanish."),
        ],
    )

    result = await run(desk, "Translate hello.", streamed=streamed)

    assert result.final_output == "bonjour / hola"
    assert model.calls[-1].tool_outputs() == {"call_fr": "bonjour", "call_es": "hola"}
    model.assert_complete()


@pytest.mark.asyncio
async def test_members_without_match_answer_in_the_order_given() -> None:
    model = ScriptedModel(
        [
            any_order(
                ModelStep(output=[assistant_message("special")], match=_instructions("special")),
                [assistant_message("first plain")],
                [assistant_message("second plain")],
            )
        ]
    )
    plain = Agent(name="plain", model=model)
    special = Agent(name="special", instructions="special", model=model)

    cfg = RunConfig(tracing_disabled=True)
    assert (await Runner.run(plain, "a", run_config=cfg)).final_output == "first plain"
    assert (await Runner.run(special, "b", run_config=cfg)).final_output == "special"
    assert (await Runner.run(special, "c", run_config=cfg)).final_output == "second plain"
    model.assert_complete()


@pytest.mark.asyncio
async def test_concurrent_runs_sharing_a_model_consume_a_group(streamed: bool) -> None:
    model = ScriptedModel(
        [
            any_order(
                ModelStep(output=[assistant_message("to b")], match=lambda c: c.user_text == "b"),
                ModelStep(output=[assistant_message("to a")], match=lambda c: c.user_text == "a"),
            )
        ]
    )
    agent = Agent(name="assistant", model=model)
    cfg = RunConfig(tracing_disabled=True)

    async def one(text: str) -> Any:
        if not streamed:
            return (await Runner.run(agent, text, run_config=cfg)).final_output
        result = Runner.run_streamed(agent, text, run_config=cfg)
        async for _ in result.stream_events():
            pass
        return result.final_output

    assert list(await asyncio.gather(one("a"), one("b"))) == ["to a", "to b"]
    model.assert_complete()


@pytest.mark.asyncio
async def test_a_request_no_group_member_accepts_raises(run: RunAgent, streamed: bool) -> None:
    model = ScriptedModel(
        [
            any_order(
                ModelStep(output=[assistant_message("fr")], match=_instructions("French")),
                ModelStep(output=[assistant_message("es")], match=_instructions("Spanish")),
            )
        ]
    )
    agent = Agent(name="german", instructions="German", model=model)

    with pytest.raises(ModelCallMatcherError) as info:
        await run(agent, "Hallo", streamed=streamed)

    assert str(info.value) == (
        "Model matchers rejected call #1: none of the 2 pending member(s) of the any_order() "
        "group (step #1) accepts it. Fix the matcher or the step order, or inspect the "
        "error's call to see what the workflow sent."
    )
    assert info.value.in_group
    assert [step.output for step in info.value.pending_steps] == [
        [assistant_message("fr")],
        [assistant_message("es")],
    ]
    assert model.remaining_steps == 2


@pytest.mark.asyncio
async def test_pending_group_members_are_listed_and_reported(run: RunAgent) -> None:
    model = ScriptedModel(
        [
            [assistant_message("done")],
            any_order([assistant_message("x")], [assistant_message("y")]),
            [assistant_message("z")],
        ]
    )
    model.enqueue(any_order([assistant_message("w")]))
    agent = Agent(name="assistant", model=model)

    await run(agent, "Hi", streamed=False)
    await run(agent, "Hi", streamed=True)

    assert [step.output for step in model.pending_steps] == [
        [assistant_message("y")],
        [assistant_message("z")],
        [assistant_message("w")],
    ]
    assert model.remaining_steps == 3
    with pytest.raises(UnconsumedModelSteps) as info:
        model.assert_complete()
    assert str(info.value) == (
        "3 scripted model step(s) were not consumed. The first is step #3; the workflow made "
        "2 model call(s). Check why the workflow ended early, or remove the extra steps."
    )
    assert info.value.pending_steps == model.pending_steps


def test_pending_steps_are_copies() -> None:
    model = ScriptedModel([any_order([assistant_message("x")])])

    copy = model.pending_steps[0]
    item: Any = copy.output[0]
    item.content[0].text = "changed"

    assert model.pending_steps[0].output == [assistant_message("x")]


@pytest.mark.parametrize(
    ("steps", "message", "reason"),
    [
        (
            [[assistant_message("a")], any_order()],
            "Scripted model step #2 is invalid: "
            "any_order() needs at least one step; an empty group would "
            "match no call, so remove it or give it the steps that may come in any order",
            "invalid_group",
        ),
        (
            [any_order([assistant_message("a")], any_order([assistant_message("b")]))],
            "Scripted model step #1 is invalid: "
            "any_order() member 2 is itself a group; groups cannot be "
            "nested (a group already accepts its members in any order), so list the inner "
            "steps in the outer group",
            "invalid_group",
        ),
        (
            [any_order([assistant_message("a")], {"outcome": 1})],
            "Scripted model step #1 is invalid: "
            "any_order() member 2: unknown key(s) 'outcome'; a step "
            "dict may only use error, match, output, raw_usage, request_id, responder, "
            "response_id, retry_advice, stream_events, usage.",
            "unsupported_field",
        ),
    ],
)
def test_malformed_groups_are_refused_when_queued(
    steps: list[Any], message: str, reason: str
) -> None:
    with pytest.raises(InvalidModelStep) as info:
        ScriptedModel(steps)

    assert str(info.value) == message
    assert info.value.reason == reason


async def _async_match(call: ModelCall) -> bool:
    return True


@pytest.mark.parametrize(
    ("match", "message"),
    [
        (
            "yes",
            "Scripted model step #1 is invalid: "
            "match must be a callable taking the ModelCall, got str 'yes'.",
        ),
        (
            ModelCall,
            "Scripted model step #1 is invalid: "
            "match must be a function taking the ModelCall, not the "
            "class ModelCall.",
        ),
        (
            _async_match,
            "Scripted model step #1 is invalid: "
            "match must be a plain (not async, not generator) callable "
            "taking the ModelCall: it answers before the call is taken, so that concurrent "
            "calls keep their order.",
        ),
        (
            lambda: True,
            "Scripted model step #1 is invalid: "
            "match '<lambda>''()' cannot be called with the ModelCall "
            "as its only argument.",
        ),
    ],
)
def test_malformed_matchers_are_refused_when_queued(match: Any, message: str) -> None:
    with pytest.raises(InvalidModelStep) as info:
        ScriptedModel([ModelStep(output=[assistant_message("a")], match=match)])

    assert str(info.value) == message
    assert info.value.reason == "invalid_matcher"


@pytest.mark.asyncio
async def test_a_matcher_returning_an_awaitable_is_a_malformed_step(run: RunAgent) -> None:
    class Sneaky:
        def __call__(self, call: ModelCall) -> Any:
            return _async_match(call)

    model = ScriptedModel([ModelStep(output=[assistant_message("a")], match=Sneaky())])

    with pytest.raises(InvalidModelStep) as info:
        await run(Agent(name="assistant", model=model), "Hi", streamed=False)

    assert str(info.value) == (
        "Scripted model step #1 is invalid: "
        "match returned an awaitable; a matcher must answer at once "
        "(a plain function returning False to reject the call)."
    )
    assert model.remaining_steps == 1


def test_match_is_kept_by_the_step_builders() -> None:
    def accept(call: ModelCall) -> bool:
        return True

    assert ModelStep.respond(lambda call: [], match=accept).match is accept
    assert ModelStep.raise_error(ValueError("x"), match=accept).match is accept
    assert ModelStep.stream([], match=accept).match is accept


@pytest.mark.asyncio
async def test_a_responder_cannot_answer_with_a_group(run: RunAgent, streamed: bool) -> None:
    model = ScriptedModel([ModelStep.respond(lambda call: any_order([assistant_message("a")]))])

    with pytest.raises(InvalidModelStep) as info:
        await run(Agent(name="assistant", model=model), "Hi", streamed=streamed)

    assert str(info.value) == (
        "Scripted model step #1 is invalid: a responder returned an any_order() group; a responder "
        "answers one call, so return one step form, and put groups in the script itself."
    )
    assert info.value.reason == "invalid_group"
