"""``any_order`` groups of realtime steps: sends whose order the app does not fix."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from agents import function_tool
from agents.realtime import (
    RealtimeAgent,
    RealtimeModelSendEvent,
    RealtimeModelSendToolOutput,
    RealtimeModelSendUserInput,
    RealtimeModelToolCallEvent,
    RealtimeRunConfig,
    RealtimeRunner,
)

from agents_testing.realtime import (
    InvalidRealtimeStep,
    RealtimeStep,
    ScriptedRealtimeModel,
    UnconsumedRealtimeSteps,
    UnexpectedRealtimeSend,
    any_order,
)


@function_tool
def lookup_order(order_id: str) -> str:
    """Look up an order by ID."""
    return f"Order {order_id} has shipped."


def _config() -> RealtimeRunConfig:
    settings: dict[str, Any] = {"async_tool_calls": False, "tracing_disabled": True}
    return settings  # type: ignore[return-value]


def _tool_call(call_id: str, order_id: str) -> RealtimeModelToolCallEvent:
    return RealtimeModelToolCallEvent(
        name="lookup_order", call_id=call_id, arguments=f'{{"order_id":"{order_id}"}}'
    )


def _output_of(call_id: str) -> Any:
    def matches(event: RealtimeModelSendEvent) -> bool:
        return isinstance(event, RealtimeModelSendToolOutput) and event.tool_call.call_id == call_id

    return matches


def _runner(model: ScriptedRealtimeModel) -> RealtimeRunner:
    agent = RealtimeAgent(name="Order assistant", tools=[lookup_order])
    return RealtimeRunner(agent, model=model, config=_config())


@pytest.mark.parametrize("first", ["call_a", "call_b"])
@pytest.mark.asyncio
async def test_tool_outputs_are_matched_whichever_is_sent_first(first: str) -> None:
    calls = {"call_a": _tool_call("call_a", "A1"), "call_b": _tool_call("call_b", "B2")}
    second = "call_b" if first == "call_a" else "call_a"
    model = ScriptedRealtimeModel(
        [
            any_order(
                RealtimeStep(expect=_output_of("call_a")), RealtimeStep(expect=_output_of("call_b"))
            )
        ],
        connect_events=[calls[first], calls[second]],
    )

    async with await _runner(model).run():
        pass

    sent = [event for event in model.sent_events if isinstance(event, RealtimeModelSendToolOutput)]
    assert [event.tool_call.call_id for event in sent] == [first, second]
    assert model.pending_steps == ()
    model.assert_complete()


@pytest.mark.asyncio
async def test_a_send_no_pending_member_expects_fails_in_strict_mode() -> None:
    model = ScriptedRealtimeModel(
        [
            any_order(
                RealtimeStep(expect=RealtimeModelSendUserInput(user_input="a")),
                RealtimeStep(expect=RealtimeModelSendUserInput(user_input="b")),
            )
        ]
    )

    async with await _runner(model).run() as session:
        await session.send_message("b")
        with pytest.raises(UnexpectedRealtimeSend) as info:
            await session.send_message("c")

    assert str(info.value) == (
        "Unexpected Realtime send: event did not match the next scripted expectation. Send "
        "#2 was a RealtimeModelSendUserInput; no pending member of the any_order() group at "
        "step 2 expects it (they expect: a RealtimeModelSendUserInput equal to the scripted one). "
        "Nothing was recorded and the step is still pending. Fix the order of the steps or "
        "the expectation, or pass strict=False to let unrelated sends through; compare "
        ".actual with .expected on this error."
    )
    assert info.value.group_expects == (RealtimeModelSendUserInput(user_input="a"),)
    assert info.value.expected == RealtimeModelSendUserInput(user_input="a")
    assert (info.value.send_index, info.value.step_index) == (1, 1)


@pytest.mark.asyncio
async def test_non_strict_mode_lets_unrelated_sends_through_a_group() -> None:
    model = ScriptedRealtimeModel(
        [
            any_order(
                RealtimeStep(expect=RealtimeModelSendUserInput(user_input="a")),
                RealtimeStep(expect=RealtimeModelSendUserInput(user_input="b")),
            ),
            RealtimeStep(expect=RealtimeModelSendUserInput(user_input="last")),
        ],
        strict=False,
    )

    async with await _runner(model).run() as session:
        for text in ("b", "unrelated", "last", "a", "last"):
            await session.send_message(text)

    assert len(model.sent_events) == 5
    model.assert_complete()


@pytest.mark.asyncio
async def test_pending_group_members_are_listed_and_reported() -> None:
    a = RealtimeStep(expect=RealtimeModelSendUserInput(user_input="a"))
    b = RealtimeStep(expect=RealtimeModelSendUserInput(user_input="b"))
    last = RealtimeStep(expect=RealtimeModelSendUserInput)
    model = ScriptedRealtimeModel([any_order(a, b), last])

    async with await _runner(model).run() as session:
        await session.send_message("b")

    assert model.pending_steps == (a, last)
    assert model.remaining_steps == 2
    with pytest.raises(UnconsumedRealtimeSteps) as info:
        model.assert_complete()
    assert str(info.value) == (
        "2 scripted Realtime step(s) were not consumed. Still expected: a "
        "RealtimeModelSendUserInput equal to the scripted one; a RealtimeModelSendUserInput. "
        "The session ended before sending them; check what the code under test sent "
        "(model.sent_events) or remove the steps."
    )


@pytest.mark.parametrize(
    ("steps", "message", "reason"),
    [
        (
            [any_order()],
            "Invalid realtime script (invalid_group) in 'steps': any_order() needs at least "
            "one step; an empty group would match no call, so remove it or give it the steps "
            "that may come in any order",
            "invalid_group",
        ),
        (
            [
                RealtimeStep(expect=RealtimeModelSendUserInput),
                any_order(any_order(RealtimeStep(expect=RealtimeModelSendUserInput))),
            ],
            "Invalid realtime script (invalid_group) in 'steps': any_order() member 1 is "
            "itself a group; groups cannot be nested (a group already accepts its members in "
            "any order), so list the inner steps in the outer group",
            "invalid_group",
        ),
        (
            [any_order(RealtimeStep(expect=RealtimeModelSendUserInput), "send")],
            "Invalid realtime script (invalid_input) in 'steps': any_order() member 2: a str; "
            "wrap each expected send in RealtimeStep(expect=..., emit=...)",
            "invalid_input",
        ),
    ],
)
def test_malformed_groups_are_refused(steps: list[Any], message: str, reason: str) -> None:
    with pytest.raises(InvalidRealtimeStep) as info:
        ScriptedRealtimeModel(steps)

    assert str(info.value) == message
    assert info.value.reason == reason
    assert info.value.input_index == len(steps) - 1


def test_the_group_send_error_pickles_with_its_fields() -> None:
    error = UnexpectedRealtimeSend(
        "no pending member expects it",
        actual=RealtimeModelSendUserInput(user_input="c"),
        expected=RealtimeModelSendUserInput(user_input="a"),
        send_index=1,
        step_index=1,
        group_expects=(RealtimeModelSendUserInput(user_input="a"),),
    )

    copy = pickle.loads(pickle.dumps(error))

    assert str(copy) == str(error)
    assert copy.group_expects == error.group_expects
