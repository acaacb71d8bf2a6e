"""ScriptedRealtimeModel's script, lifecycle and inspection through a real RealtimeSession."""

from __future__ import annotations

import asyncio
import pickle
from typing import Any

import pytest
from agents import function_tool
from agents.realtime import (
    RealtimeAgent,
    RealtimeModelErrorEvent,
    RealtimeModelItemDeletedEvent,
    RealtimeModelSendAudio,
    RealtimeModelSendInterrupt,
    RealtimeModelSendToolOutput,
    RealtimeModelSendUserInput,
    RealtimeModelToolCallEvent,
    RealtimeModelTranscriptDeltaEvent,
    RealtimeModelTurnEndedEvent,
    RealtimeModelTurnStartedEvent,
    RealtimeRawModelEvent,
    RealtimeRunConfig,
    RealtimeRunner,
    RealtimeSession,
)
from agents.realtime.model_events import RealtimeModelRawServerEvent

from agents_testing.core import (
    UnconsumedStepsError,
    UncopyableValue,
    UnexpectedCallError,
    compat,
)
from agents_testing.realtime import (
    InvalidRealtimeStep,
    RealtimeAlreadyConnected,
    RealtimeScriptError,
    RealtimeStep,
    ScriptedRealtimeModel,
    UnconsumedRealtimeSteps,
    UnexpectedRealtimeSend,
)

GUARD_SECONDS = 10


def delta(text: str, item_id: str = "item_1") -> RealtimeModelTranscriptDeltaEvent:
    return RealtimeModelTranscriptDeltaEvent(item_id=item_id, delta=text, response_id="resp_1")


def runner_for(model: ScriptedRealtimeModel) -> RealtimeRunner:
    config: RealtimeRunConfig = {"tracing_disabled": True}
    return RealtimeRunner(RealtimeAgent(name="Assistant"), model=model, config=config)


async def raw_events(session: RealtimeSession, count: int) -> list[Any]:
    """The data of the next ``count`` raw model events the session reports."""

    async def scan() -> list[Any]:
        seen: list[Any] = []
        async for event in session:
            if isinstance(event, RealtimeRawModelEvent):
                seen.append(event.data)
                if len(seen) == count:
                    break
        return seen

    return await asyncio.wait_for(scan(), GUARD_SECONDS)


HELLO = RealtimeModelSendUserInput(user_input="Hello")


# -- the script ----------------------------------------------------------------


@pytest.mark.asyncio
async def test_emit_list_reaches_the_session_in_order() -> None:
    events = [delta("Hel"), delta("lo"), RealtimeModelItemDeletedEvent(item_id="old")]
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO, emit=events)])  # type: ignore[arg-type]

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")
        assert await raw_events(session, 3) == events

    model.assert_complete()


@pytest.mark.asyncio
async def test_strict_mismatch_raises_unexpected_send_with_fields() -> None:
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO, emit=[delta("Hi")])])

    async with await runner_for(model).run() as session:
        with pytest.raises(
            UnexpectedRealtimeSend,
            match=r"^Unexpected Realtime send: event did not match the next scripted "
            r"expectation\. Send #1 was a RealtimeModelSendUserInput; step 1 expects a "
            r"RealtimeModelSendUserInput",
        ) as caught:
            await session.send_message("Goodbye")
        # The rejected send left no trace: the right one completes the script.
        assert (model.sent_events, model.remaining_steps) == ((), 1)
        await session.send_message("Hello")

    error = caught.value
    assert isinstance(error, RealtimeScriptError)
    assert isinstance(error, UnexpectedCallError)
    assert error.actual == RealtimeModelSendUserInput(user_input="Goodbye")
    assert error.expected == HELLO
    assert (error.send_index, error.step_index) == (0, 0)
    assert model.sent_events == (HELLO,)
    model.assert_complete()


@pytest.mark.asyncio
async def test_strict_send_after_the_script_ran_out_reports_no_expectation() -> None:
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO)])

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")
        with pytest.raises(UnexpectedRealtimeSend) as caught:
            await session.interrupt()

    assert caught.value.actual == RealtimeModelSendInterrupt()
    assert caught.value.expected is None
    assert (caught.value.send_index, caught.value.step_index) == (1, None)
    assert model.sent_events == (HELLO,)
    model.assert_complete()


class PredicateBug(Exception):
    """What a scripted predicate raises."""


PREDICATE_BUG = PredicateBug("bug in the predicate")


def _raising_predicate(event: Any) -> bool:
    raise PREDICATE_BUG


class CopyRefused(RuntimeError):
    """What a sent value's own ``__deepcopy__`` raises."""


class _Uncopyable:
    def __deepcopy__(self, memo: Any) -> Any:
        raise CopyRefused("cannot copy")


@pytest.mark.parametrize("extra_checks", [False, True], ids=["bare", "extra_checks"])
@pytest.mark.parametrize("conditional", [False, True], ids=["send_event", "send_event_if"])
@pytest.mark.parametrize(
    ("steps", "strict", "sent", "error"),
    [
        pytest.param(
            [RealtimeStep(expect=RealtimeModelSendInterrupt)],
            True,
            HELLO,
            UnexpectedRealtimeSend,
            id="mismatch",
        ),
        pytest.param([], True, HELLO, UnexpectedRealtimeSend, id="no-step-left"),
        pytest.param(
            [RealtimeStep(expect=_raising_predicate)],
            True,
            HELLO,
            PredicateBug,
            id="predicate-raises",
        ),
        pytest.param(
            [RealtimeStep(expect=_raising_predicate)],
            False,
            HELLO,
            PredicateBug,
            id="predicate-raises-not-strict",
        ),
        pytest.param(
            [RealtimeStep(expect=RealtimeModelSendUserInput)],
            False,
            RealtimeModelSendUserInput(user_input=_Uncopyable()),  # type: ignore[arg-type]
            (CopyRefused, UncopyableValue),
            id="copy-fails-not-strict",
        ),
    ],
)
@pytest.mark.asyncio
async def test_a_rejected_send_is_not_recorded_consumes_nothing_and_delivers_nothing(
    steps: list[RealtimeStep],
    strict: bool,
    sent: RealtimeModelSendUserInput,
    error: type[Exception] | tuple[type[Exception], type[Exception]],
    conditional: bool,
    extra_checks: bool,
) -> None:
    """Shows RT-5."""
    model = ScriptedRealtimeModel(
        [*steps, RealtimeStep(expect=HELLO, emit=[delta("late")])] if steps else [],
        strict=strict,
        extra_checks=extra_checks,
    )
    delivered: list[Any] = []

    class Recorder:
        async def on_event(self, event: Any) -> None:
            delivered.append(event)

    model.add_listener(Recorder())  # type: ignore[arg-type]
    remaining = model.remaining_steps
    await model.connect({})

    send = model.send_event_if(sent, lambda: True) if conditional else model.send_event(sent)
    with pytest.raises(Exception) as caught:  # noqa: PT011 - checked below, per mode
        await send

    if isinstance(error, tuple):
        bare, checked = error
        assert type(caught.value) is (checked if extra_checks else bare)
    else:
        assert type(caught.value) is error
    if error is PredicateBug:
        assert caught.value is PREDICATE_BUG  # the matcher's own exception, unchanged
    assert (model.sent_events, model.remaining_steps, delivered) == ((), remaining, [])
    assert model._delivery_worker is None


@pytest.mark.parametrize("extra_checks", [False, True], ids=["bare", "extra_checks"])
@pytest.mark.asyncio
async def test_a_matcher_that_mutates_what_it_is_given_changes_nothing_it_reports(
    extra_checks: bool,
) -> None:
    message: Any = {"type": "message", "role": "user", "content": [{"type": "input_text"}]}

    def vandal(event: Any) -> bool:
        event.user_input["content"].clear()
        event.user_input = "rewritten by the matcher"
        return False

    model = ScriptedRealtimeModel([RealtimeStep(expect=vandal)], extra_checks=extra_checks)

    async with await runner_for(model).run() as session:
        with pytest.raises(UnexpectedRealtimeSend) as caught:
            await session.send_message(message)

    assert message["content"] == [{"type": "input_text"}]
    assert caught.value.actual == RealtimeModelSendUserInput(user_input=message)
    assert caught.value.expected is vandal
    assert (model.sent_events, model.remaining_steps) == ((), 1)


@pytest.mark.asyncio
async def test_non_strict_records_unrelated_sends_without_consuming_the_step() -> None:
    step = RealtimeStep(expect=HELLO, emit=[delta("Hi there")])
    model = ScriptedRealtimeModel([step], strict=False)

    async with await runner_for(model).run() as session:
        await session.send_audio(b"\x00\x01")
        await session.interrupt()
        assert (model.remaining_steps, model.pending_steps) == (1, (step,))
        await session.send_message("Hello")
        assert await raw_events(session, 1) == [delta("Hi there")]
        await session.send_message("unrelated, after the script")

    assert model.sent_events == (
        RealtimeModelSendAudio(audio=b"\x00\x01"),
        RealtimeModelSendInterrupt(),
        HELLO,
        RealtimeModelSendUserInput(user_input="unrelated, after the script"),
    )
    model.assert_complete()


@pytest.mark.asyncio
async def test_step_error_is_raised_from_the_matched_send_and_consumes_the_step() -> None:
    failure = ConnectionResetError("transport dropped")
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=HELLO, error=failure), RealtimeStep(expect=RealtimeModelSendAudio)]
    )

    async with await runner_for(model).run() as session:
        with pytest.raises(ConnectionResetError) as caught:
            await session.send_message("Hello")
        assert caught.value is failure
        await session.send_audio(b"\x01")

    model.assert_complete()


@pytest.mark.asyncio
async def test_step_error_may_be_an_exception_class() -> None:
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO, error=TimeoutError)])

    async with await runner_for(model).run() as session:
        with pytest.raises(TimeoutError):
            await session.send_message("Hello")

    model.assert_complete()


@pytest.mark.asyncio
async def test_assert_complete_reports_the_remaining_steps() -> None:
    first = RealtimeStep(expect=HELLO)
    second = RealtimeStep(expect=RealtimeModelSendInterrupt)
    model = ScriptedRealtimeModel([first, second])

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")

    with pytest.raises(UnconsumedRealtimeSteps) as caught:
        model.assert_complete()
    assert (caught.value.remaining_steps, caught.value.pending_steps) == (1, (second,))
    assert (model.remaining_steps, model.pending_steps) == (1, (second,))
    assert isinstance(caught.value, UnconsumedStepsError)
    assert isinstance(caught.value, RealtimeScriptError)
    assert "1 scripted Realtime step(s) were not consumed" in str(caught.value)
    assert "RealtimeModelSendInterrupt" in str(caught.value)


def test_unconsumed_steps_survive_pickling_with_their_fields() -> None:
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO, emit=[delta("Hi")])])
    with pytest.raises(UnconsumedRealtimeSteps) as caught:
        model.assert_complete()

    copy = pickle.loads(pickle.dumps(caught.value))

    assert type(copy) is UnconsumedRealtimeSteps
    assert copy.remaining_steps == 1
    [step] = copy.pending_steps
    assert (step.expect, step.emit, step.error) == (HELLO, (delta("Hi"),), None)
    assert str(copy) == str(caught.value)


def test_assert_complete_passes_for_an_empty_script() -> None:
    ScriptedRealtimeModel().assert_complete()


@pytest.mark.asyncio
async def test_send_event_if_sends_only_when_the_condition_holds() -> None:
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO, emit=[delta("ok")])])

    async with await runner_for(model).run() as session:
        assert await model.send_event_if(HELLO, lambda: False) is False
        assert model.sent_events == ()
        assert await model.send_event_if(HELLO, lambda: True) is True
        assert await raw_events(session, 1) == [delta("ok")]

    model.assert_complete()


# -- lifecycle -----------------------------------------------------------------


@pytest.mark.asyncio
async def test_lifecycle_state_and_listeners_at_each_point() -> None:
    model = ScriptedRealtimeModel()
    session = await runner_for(model).run()
    assert (model.connected, model.closed, model.close_calls) == (False, False, 0)
    assert model.listeners == ()

    async with session:
        assert (model.connected, model.closed, model.close_calls) == (True, False, 0)
        assert model.listeners == (session,)  # type: ignore[comparison-overlap]

    assert (model.connected, model.closed, model.close_calls) == (False, True, 1)
    assert model.listeners == ()
    assert len(model.connect_calls) == 1


@pytest.mark.asyncio
async def test_session_closes_the_model_when_the_body_raises() -> None:
    model = ScriptedRealtimeModel()

    with pytest.raises(LookupError, match="application bug"):
        async with await runner_for(model).run():
            raise LookupError("application bug")

    assert model.closed is True
    assert model.connected is False
    assert model.close_calls == 1
    assert model.listeners == ()


@pytest.mark.asyncio
async def test_connect_events_are_emitted_while_connecting() -> None:
    greeting = delta("Welcome")
    model = ScriptedRealtimeModel(connect_events=[greeting, RealtimeModelErrorEvent(error="x")])

    async with await runner_for(model).run() as session:
        # Emitted inside connect(): queued before the session's initial history event.
        first = await asyncio.wait_for(session.__aiter__().__anext__(), GUARD_SECONDS)
        assert isinstance(first, RealtimeRawModelEvent)
        assert first.data == greeting

    model.assert_complete()


@pytest.mark.asyncio
async def test_connect_error_fails_session_entry_and_leaves_the_model_disconnected() -> None:
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=HELLO)], connect_error=ConnectionRefusedError("no route")
    )
    session = await runner_for(model).run()

    with pytest.raises(ConnectionRefusedError, match="no route"):
        async with session:
            pytest.fail("the body must not run when connecting fails")

    assert (model.connected, model.closed) == (False, False)
    assert len(model.connect_calls) == 1
    with pytest.raises(RealtimeScriptError, match="disconnected") as caught:
        await session.send_message("Hello")
    assert "before connect()" in str(caught.value)
    assert model.sent_events == ()
    assert model.remaining_steps == 1


@pytest.mark.asyncio
async def test_close_error_is_raised_by_every_close_that_ends_an_open_connection() -> None:
    failure = OSError("close handshake failed")
    model = ScriptedRealtimeModel(close_error=failure)
    runner = runner_for(model)

    for closes in (1, 2):
        with pytest.raises(OSError, match="close handshake failed") as caught:
            async with await runner.run():
                assert model.connected is True
        assert caught.value is failure
        assert (model.connected, model.closed, model.close_calls) == (False, True, closes)

    # Closing a model that is not connected only counts the call.
    await model.close()
    assert (model.closed, model.close_calls) == (True, 3)


def test_connect_events_with_a_connect_error_are_refused_before_the_steps_are_read() -> None:
    def steps() -> Any:
        raise AssertionError("the steps were read")
        yield

    for extra_checks in (False, True):
        with pytest.raises(
            ValueError,
            match=r"^A ScriptedRealtimeModel cannot define both connect events and a connect "
            r"error\. ",
        ) as caught:
            ScriptedRealtimeModel(
                steps(),
                connect_events=[delta("welcome")],
                connect_error=ConnectionRefusedError("no"),
                extra_checks=extra_checks,
            )
        assert isinstance(caught.value, InvalidRealtimeStep)
        assert (caught.value.reason, caught.value.field) == (
            "conflicting_outcomes",
            "connect_events",
        )


@pytest.mark.asyncio
async def test_close_error_surfaces_from_session_exit_and_still_disconnects() -> None:
    model = ScriptedRealtimeModel(close_error=OSError("close handshake failed"))

    with pytest.raises(OSError, match="close handshake failed"):
        async with await runner_for(model).run() as session:
            assert model.connected is True

    assert (model.connected, model.closed, model.close_calls) == (False, True, 1)
    with pytest.raises(
        RealtimeScriptError,
        match=r"disconnected\. A RealtimeModelSendUserInput was sent after close\(\)",
    ):
        await session.send_message("late")


@pytest.mark.asyncio
async def test_sending_after_the_session_closed_raises_script_error() -> None:
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO)])

    async with await runner_for(model).run() as session:
        pass

    with pytest.raises(RealtimeScriptError) as caught:
        await session.send_message("Hello")
    assert not isinstance(caught.value, UnexpectedRealtimeSend)
    assert model.sent_events == ()


@pytest.mark.asyncio
async def test_sending_before_connect_raises_script_error() -> None:
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO)])

    with pytest.raises(
        RealtimeScriptError,
        match=r"^Cannot send an event while the scripted model is disconnected\. ",
    ):
        await model.send_event(HELLO)
    with pytest.raises(RealtimeScriptError, match="disconnected"):
        await model.send_event_if(HELLO, lambda: True)
    assert model.remaining_steps == 1


@pytest.mark.asyncio
async def test_connecting_twice_without_close_is_refused_as_already_connected() -> None:
    """Shows RT-2."""
    model = ScriptedRealtimeModel()
    await model.connect({})

    with pytest.raises(AssertionError, match="Already connected") as caught:
        await model.connect({})
    assert isinstance(caught.value, RealtimeAlreadyConnected)
    assert isinstance(caught.value, RealtimeScriptError)
    assert len(model.connect_calls) == 1

    await model.close()
    await model.connect({})
    assert (model.connected, model.closed, len(model.connect_calls)) == (True, False, 2)


# -- emit() from the test ----------------------------------------------------------


@pytest.mark.asyncio
async def test_emit_from_the_test_reaches_the_session() -> None:
    model = ScriptedRealtimeModel()
    pushed = [delta("unprompted"), RealtimeModelItemDeletedEvent(item_id="item_0")]

    async with await runner_for(model).run() as session:
        await model.emit(*pushed)  # type: ignore[arg-type]
        assert await raw_events(session, 2) == pushed

    model.assert_complete()


@pytest.mark.asyncio
async def test_emit_while_disconnected_raises_script_error() -> None:
    model = ScriptedRealtimeModel()

    with pytest.raises(
        RealtimeScriptError,
        match=r"^Cannot emit events while the scripted model is disconnected\. ",
    ):
        await model.emit(delta("too early"))


@pytest.mark.asyncio
async def test_listeners_are_registered_once_and_removal_of_unknown_is_ignored() -> None:
    class Recorder:
        def __init__(self) -> None:
            self.events: list[Any] = []

        async def on_event(self, event: Any) -> None:
            self.events.append(event)

    model = ScriptedRealtimeModel()
    recorder = Recorder()
    model.add_listener(recorder)  # type: ignore[arg-type]
    model.add_listener(recorder)  # type: ignore[arg-type]
    model.remove_listener(Recorder())  # type: ignore[arg-type]
    assert model.listeners == (recorder,)  # type: ignore[comparison-overlap]

    await model.connect({})
    call = RealtimeModelToolCallEvent(name="noop", call_id="c", arguments="{}")
    await model.emit(call)
    assert recorder.events == [call]
    model.remove_listener(recorder)  # type: ignore[arg-type]
    assert model.listeners == ()


@function_tool
def lookup_order(order_id: str) -> str:
    """Look up an order by ID."""
    return f"Order {order_id} has shipped."


@pytest.mark.asyncio
async def test_failure_while_emitting_connect_events_fails_the_connect() -> None:
    # With async_tool_calls off the tool output is sent inside connect(); a strict
    # mismatch there fails session entry and leaves the model disconnected.
    call = RealtimeModelToolCallEvent(
        name="lookup_order", call_id="call_1", arguments='{"order_id":"o1"}'
    )
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO)], connect_events=[call])
    config: RealtimeRunConfig = {"tracing_disabled": True, "async_tool_calls": False}
    agent = RealtimeAgent(name="Assistant", tools=[lookup_order])
    runner = RealtimeRunner(agent, model=model, config=config)

    with pytest.raises(Exception) as caught:  # noqa: PT011 - the SDK may wrap the error
        async with await runner.run():
            pytest.fail("the body must not run when connecting fails")

    # Newer SDK releases wrap a failed tool-output send; ours is the cause.
    error: BaseException | None = caught.value
    while error is not None and not isinstance(error, UnexpectedRealtimeSend):
        error = error.__cause__
    assert isinstance(error, UnexpectedRealtimeSend)
    assert error.expected == HELLO
    assert isinstance(error.actual, RealtimeModelSendToolOutput)
    # A connect that failed leaves the model closed.
    assert (model.connected, model.closed) == (False, True)
    assert model.remaining_steps == 1


# -- constructor arguments ---------------------------------------------------------------


@pytest.mark.parametrize(
    "steps",
    [
        pytest.param({"expect": RealtimeModelSendInterrupt}, id="mapping"),
        pytest.param(42, id="int"),
        pytest.param("steps", id="string"),
    ],
)
def test_steps_that_are_not_a_sequence_of_steps_are_rejected(steps: Any) -> None:
    with pytest.raises(InvalidRealtimeStep) as caught:
        ScriptedRealtimeModel(steps)
    assert (caught.value.reason, caught.value.field) == ("invalid_input", "steps")


# -- copies: what is scripted, emitted and handed out ----------------------------------------


@pytest.mark.asyncio
async def test_scripted_events_are_snapshotted_when_the_model_is_built() -> None:
    reply = delta("original")
    greeting = delta("welcome", item_id="item_0")
    events = [reply]
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=HELLO, emit=events)], connect_events=[greeting]
    )
    reply.delta = "changed after building"
    greeting.delta = "changed after building"
    events.append(delta("appended after building"))

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")
        assert await raw_events(session, 2) == [
            delta("welcome", item_id="item_0"),
            delta("original"),
        ]

    model.assert_complete()


@pytest.mark.asyncio
async def test_listeners_receive_copies_so_a_mutating_listener_changes_no_script() -> None:
    class Vandal:
        def __init__(self) -> None:
            self.events: list[Any] = []

        async def on_event(self, event: Any) -> None:
            self.events.append(event)
            event.delta = "vandalised"

    reply = delta("Hi")
    step = RealtimeStep(expect=HELLO, emit=[reply])
    model = ScriptedRealtimeModel([step, RealtimeStep(expect=HELLO, emit=[reply])])
    vandal = Vandal()
    model.add_listener(vandal)  # type: ignore[arg-type]

    async with await runner_for(model).run() as session:
        await model.emit(reply)
        await session.send_message("Hello")
        assert model.pending_steps[0].emit == (delta("Hi"),)
        await session.send_message("Hello")
        # The session (registered after the vandal) saw the vandalised objects, which
        # proves one copy is shared per emission; the script itself stayed intact.
        assert [event.delta for event in await raw_events(session, 3)] == ["vandalised"] * 3

    assert reply.delta == "Hi"
    assert step.emit == (delta("Hi"),)
    assert all(event is not reply for event in vandal.events)
    assert len({id(event) for event in vandal.events}) == 3
    model.assert_complete()


@pytest.mark.asyncio
async def test_accessors_hand_out_copies_and_the_model_keeps_what_it_was_built_with() -> None:
    message: Any = {"type": "message", "role": "user", "content": []}
    expected = RealtimeModelSendUserInput(user_input=message)
    step = RealtimeStep(expect=expected, emit=[delta("Hi")])
    model = ScriptedRealtimeModel([step])

    step.expect.user_input = "changed through the accessor"  # type: ignore[union-attr]
    step.emit[0].delta = "changed through the accessor"  # type: ignore[union-attr]
    model.pending_steps[0].emit[0].delta = "changed through pending_steps"  # type: ignore[union-attr]
    assert step.expect == expected
    assert step.emit == (delta("Hi"),)

    # The model copied the expectation and the events when it was built.
    message["content"].append("changed after building the model")
    async with await runner_for(model).run() as session:
        original = {"type": "message", "role": "user", "content": []}
        await model.send_event(RealtimeModelSendUserInput(user_input=original))  # type: ignore[arg-type]
        assert await raw_events(session, 1) == [delta("Hi")]

    model.assert_complete()


@pytest.mark.asyncio
async def test_unexpected_send_expected_is_a_copy_of_the_pending_expectation() -> None:
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO)])

    async with await runner_for(model).run() as session:
        with pytest.raises(UnexpectedRealtimeSend) as caught:
            await session.send_message("Goodbye")
        caught.value.expected.user_input = "changed"
        await session.send_message("Hello")

    model.assert_complete()


# -- when steps are evaluated ----------------------------------------------------------------


@pytest.mark.asyncio
async def test_predicates_run_only_when_a_send_arrives() -> None:
    calls: list[Any] = []

    def watcher(event: Any) -> bool:
        calls.append(event)
        return True

    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=watcher)], connect_events=[delta("greeting")]
    )
    assert calls == []
    assert model.remaining_steps == 1
    assert repr(model.pending_steps)
    with pytest.raises(UnconsumedRealtimeSteps):
        model.assert_complete()

    async with await runner_for(model).run() as session:
        await model.emit(delta("pushed"))
        assert calls == []
        await session.send_message("Hello")

    assert calls == [HELLO]
    model.assert_complete()


@pytest.mark.asyncio
async def test_non_strict_predicate_sees_each_unrelated_send_and_leaves_the_step() -> None:
    seen: list[Any] = []

    def wants_interrupt(event: Any) -> bool:
        seen.append(event)
        return isinstance(event, RealtimeModelSendInterrupt)

    model = ScriptedRealtimeModel([RealtimeStep(expect=wants_interrupt)], strict=False)

    async with await runner_for(model).run() as session:
        await session.send_message("one")
        await session.send_audio(b"\x01")
        assert model.remaining_steps == 1
        await session.interrupt()
        await session.send_message("after the script")

    assert len(seen) == 3
    assert len(model.sent_events) == 4
    model.assert_complete()


# -- event order ------------------------------------------------------------------------------


def text_delta(text: str) -> Any:
    """A text-output delta in the form the installed SDK's real model emits it."""
    if compat.realtime_has_output_text_events():
        from agents.realtime import RealtimeModelOutputTextDeltaEvent

        return RealtimeModelOutputTextDeltaEvent(item_id="item_1", delta=text, response_id="resp_1")
    # Older SDKs have no normalized text delta: the real model forwards the server event.
    return RealtimeModelRawServerEvent(
        data={"type": "response.output_text.delta", "item_id": "item_1", "delta": text}
    )


@pytest.mark.asyncio
async def test_emitted_events_keep_their_scripted_order_text_deltas_included() -> None:
    script = [
        RealtimeModelTurnStartedEvent(),
        text_delta("Hel"),
        delta("Hel"),
        text_delta("lo"),
        delta("lo"),
        RealtimeModelTurnEndedEvent(),
    ]
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO, emit=script)])

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")
        assert await raw_events(session, len(script)) == script

    model.assert_complete()


# -- reconnecting and cancellation -------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_second_session_reconnects_the_same_model_and_gets_the_connect_events() -> None:
    greeting = delta("Welcome")
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=HELLO), RealtimeStep(expect=RealtimeModelSendInterrupt)],
        connect_events=[greeting],
    )
    runner = runner_for(model)

    async with await runner.run() as first:
        assert await raw_events(first, 1) == [greeting]
        await first.send_message("Hello")
    async with await runner.run() as second:
        assert (model.connected, model.closed) == (True, False)
        # Every connect is greeted, the reconnect included.
        assert await raw_events(second, 1) == [greeting]
        await second.interrupt()

    assert (model.connected, model.closed, model.close_calls) == (False, True, 2)
    assert len(model.connect_calls) == 2
    model.assert_complete()


@pytest.mark.asyncio
async def test_connect_error_fails_every_attempt_and_each_is_recorded() -> None:
    refused = ConnectionRefusedError("busy")
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO)], connect_error=refused)
    session = await runner_for(model).run()

    for attempt in range(3):
        with pytest.raises(ConnectionRefusedError) as caught:
            await session.enter()
        assert caught.value is refused
        assert len(model.connect_calls) == attempt + 1
    assert (model.connected, model.sent_events, model.remaining_steps) == (False, (), 1)


@pytest.mark.asyncio
async def test_close_cancelled_before_it_runs_propagates_and_can_be_retried() -> None:
    model = ScriptedRealtimeModel()
    session = await runner_for(model).run()
    await session.enter()

    closing = asyncio.ensure_future(session.close())
    closing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(closing, GUARD_SECONDS)
    assert model.connected is True

    await asyncio.wait_for(session.close(), GUARD_SECONDS)
    assert (model.connected, model.closed, model.close_calls) == (False, True, 1)


@pytest.mark.skipif(
    not compat.sdk_at_least(0, 18),
    reason="before 0.18 the session closes without awaiting its tool tasks: no close in progress",
)
@pytest.mark.asyncio
async def test_close_cancelled_while_in_progress_propagates_and_can_be_retried() -> None:
    tool_started = asyncio.Event()
    tool_cancelled = asyncio.Event()
    release = asyncio.Event()

    @function_tool
    async def slow_lookup() -> str:
        """Hold the session's cleanup until released."""
        tool_started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            tool_cancelled.set()
            await release.wait()
            raise
        return "never"

    call = RealtimeModelToolCallEvent(name="slow_lookup", call_id="call_1", arguments="{}")
    model = ScriptedRealtimeModel(connect_events=[call])
    agent = RealtimeAgent(name="Assistant", tools=[slow_lookup])
    config: RealtimeRunConfig = {"tracing_disabled": True, "async_tool_calls": True}
    session = await RealtimeRunner(agent, model=model, config=config).run()
    await session.enter()
    await asyncio.wait_for(tool_started.wait(), GUARD_SECONDS)

    # The session's close waits for its tool task, so it is in progress when cancelled.
    closing = asyncio.ensure_future(session.close())
    await asyncio.wait_for(tool_cancelled.wait(), GUARD_SECONDS)
    closing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(closing, GUARD_SECONDS)
    assert model.closed is False

    release.set()
    await asyncio.wait_for(session.close(), GUARD_SECONDS)
    assert (model.connected, model.closed, model.close_calls) == (False, True, 1)


# -- messages survive hostile values -----------------------------------------------------------


class HostileRepr:
    def __repr__(self) -> str:
        raise RuntimeError("repr exploded")


@pytest.mark.asyncio
async def test_error_messages_survive_values_whose_repr_raises_or_is_huge() -> None:
    class Predicate:
        def __call__(self, event: Any) -> bool:
            return False

        def __repr__(self) -> str:
            raise RuntimeError("repr exploded")

    model = ScriptedRealtimeModel([RealtimeStep(expect=Predicate())])
    hostile: Any = {"type": "message", "role": "user", "content": [HostileRepr(), 10**5000]}

    async with await runner_for(model).run() as session:
        with pytest.raises(UnexpectedRealtimeSend) as caught:
            await session.send_message(hostile)

    assert "Send #1 was a RealtimeModelSendUserInput;" in str(caught.value)
    assert "Predicate() accepts" in str(caught.value)
    assert len(str(caught.value)) < 1000
    with pytest.raises(UnconsumedRealtimeSteps) as unconsumed:
        model.assert_complete()
    assert "1 scripted Realtime step" in str(unconsumed.value)
    assert "RealtimeStep(" in repr(model.pending_steps[0])


@pytest.mark.parametrize(
    "error",
    [
        InvalidRealtimeStep(
            "bad", reason="invalid_event", input_index=2, field="emit", event_field="delta"
        ),
        UnexpectedRealtimeSend(
            "no match",
            actual=HELLO,
            expected=RealtimeModelSendInterrupt,
            send_index=3,
            step_index=1,
        ),
    ],
)
def test_structured_errors_survive_pickling_with_their_fields(error: Exception) -> None:
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error)
    assert vars(copy) == vars(error)
    assert str(copy) == str(error)


@pytest.mark.parametrize("condition", [False, True])
@pytest.mark.asyncio
async def test_a_conditional_send_after_close_is_refused_before_its_condition_is_asked(
    condition: bool,
) -> None:
    """As the SDK's own double: a model that is not connected refuses ``send_event_if``
    at once (RT-3), whatever the condition would have said; it is never asked."""
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO)])
    asked: list[bool] = []

    def send_if() -> bool:
        asked.append(condition)
        return condition

    async with await runner_for(model).run():
        pass

    with pytest.raises(
        RealtimeScriptError,
        match=r"^Cannot send an event while the scripted model is disconnected\. .* after close",
    ):
        await model.send_event_if(HELLO, send_if)
    assert (asked, model.sent_events) == ([], ())


def test_none_for_emit_and_connect_events_means_no_events() -> None:
    step = RealtimeStep(expect=HELLO, emit=None)  # type: ignore[arg-type]
    model = ScriptedRealtimeModel([step], connect_events=None)  # type: ignore[arg-type]
    assert step.emit == ()
    assert model.pending_steps == (step,)
