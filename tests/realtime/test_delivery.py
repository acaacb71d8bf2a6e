"""The delivery queue: events reach the listeners one delivery after another, in the order
their calls were made, whatever the callers do meanwhile.

Listeners block on ``asyncio.Event``s the tests release; every wait is bounded, so a
regression fails the test instead of hanging it.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest
from agents import function_tool
from agents.realtime import (
    RealtimeAgent,
    RealtimeModelSendEvent,
    RealtimeModelSendInterrupt,
    RealtimeModelSendToolOutput,
    RealtimeModelSendUserInput,
    RealtimeModelToolCallEvent,
    RealtimeModelTranscriptDeltaEvent,
    RealtimeRawModelEvent,
    RealtimeRunConfig,
    RealtimeRunner,
    RealtimeSession,
)
from agents.realtime.model import RealtimeModelListener

from agents_testing.realtime import (
    RealtimeAlreadyConnected,
    RealtimeScriptError,
    RealtimeStep,
    ScriptedRealtimeModel,
    UnexpectedRealtimeSend,
)

T = TypeVar("T")

HELLO = RealtimeModelSendUserInput(user_input="Hello")
BYE = RealtimeModelSendUserInput(user_input="Bye")


def delta(text: str) -> RealtimeModelTranscriptDeltaEvent:
    return RealtimeModelTranscriptDeltaEvent(item_id="item_1", delta=text, response_id="resp_1")


ONE, TWO, GREETING = delta("one"), delta("two"), delta("welcome")


async def bounded(awaitable: Awaitable[T]) -> T:
    """Await with a bound: a regression that hangs fails here instead."""
    return await asyncio.wait_for(awaitable, timeout=5)


class Recorder(RealtimeModelListener):
    """A listener that records what it is given."""

    def __init__(self) -> None:
        self.events: list[Any] = []

    async def on_event(self, event: Any) -> None:
        self.events.append(event)


class Blocker(Recorder):
    """A listener that records events and holds the first one until released."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = asyncio.Event()
        self.release = asyncio.Event()

    async def on_event(self, event: Any) -> None:
        self.events.append(event)
        if len(self.events) == 1:
            self.entered.set()
            await self.release.wait()


class Reacting(Recorder):
    """A listener that runs ``react`` on the first event it gets, from inside the delivery."""

    def __init__(self, react: Callable[[], Awaitable[Any]]) -> None:
        super().__init__()
        self._react = react
        self.outcome: list[Any] = []

    async def on_event(self, event: Any) -> None:
        self.events.append(event)
        if len(self.events) == 1:
            try:
                self.outcome.append(await self._react())
            except Exception as error:
                self.outcome.append(error)


def committed(signal: asyncio.Event, expected: RealtimeModelSendEvent) -> Any:
    """An expectation equal to ``expected`` that sets ``signal`` when it is matched."""

    def matches(event: RealtimeModelSendEvent) -> bool:
        if event == expected:
            signal.set()
            return True
        return False

    return matches


async def connected(model: ScriptedRealtimeModel, *listeners: Any) -> None:
    for listener in listeners:
        model.add_listener(listener)
    await bounded(model.connect({}))


def runner_for(model: ScriptedRealtimeModel, **config: Any) -> RealtimeRunner:
    settings: RealtimeRunConfig = {"tracing_disabled": True, **config}  # type: ignore[typeddict-item]
    return RealtimeRunner(RealtimeAgent(name="Assistant"), model=model, config=settings)


async def raw_events(session: RealtimeSession, count: int) -> list[Any]:
    async def scan() -> list[Any]:
        seen: list[Any] = []
        async for event in session:
            if isinstance(event, RealtimeRawModelEvent):
                seen.append(event.data)
                if len(seen) == count:
                    break
        return seen

    return await bounded(scan())


# -- one FIFO, in commit order ---------------------------------------------------------


@pytest.mark.asyncio
async def test_a_send_made_during_a_broadcast_is_committed_at_once_and_delivered_after_it() -> None:
    second_committed = asyncio.Event()
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(expect=HELLO, emit=[ONE]),
            RealtimeStep(expect=committed(second_committed, BYE), emit=[TWO]),
        ]
    )
    blocker, recorder = Blocker(), Recorder()
    await connected(model, blocker, recorder)

    first = asyncio.ensure_future(model.send_event(HELLO))
    await bounded(blocker.entered.wait())
    second = asyncio.ensure_future(model.send_event(BYE))
    await bounded(second_committed.wait())

    # Recorded and consumed right away, but nothing overtakes the blocked broadcast.
    assert (model.sent_events, model.remaining_steps) == ((HELLO, BYE), 0)
    assert recorder.events == []
    assert not first.done()
    assert not second.done()

    blocker.release.set()
    assert list(await bounded(asyncio.gather(first, second))) == [None, None]
    assert blocker.events == recorder.events == [ONE, TWO]


@pytest.mark.asyncio
async def test_the_session_gets_replies_in_the_order_the_sends_were_made() -> None:
    """Shows RT-7."""
    second_committed = asyncio.Event()
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(expect=HELLO, emit=[ONE]),
            RealtimeStep(expect=committed(second_committed, BYE), emit=[TWO]),
        ]
    )
    blocker = Blocker()
    model.add_listener(blocker)  # before the session's own listener

    async with await runner_for(model).run() as session:
        first = asyncio.ensure_future(session.send_message("Hello"))
        await bounded(blocker.entered.wait())
        second = asyncio.ensure_future(session.send_message("Bye"))
        await bounded(second_committed.wait())
        blocker.release.set()
        await bounded(asyncio.gather(first, second))
        assert await raw_events(session, 2) == [ONE, TWO]

    model.assert_complete()


@pytest.mark.asyncio
async def test_every_event_goes_to_every_listener_re_reading_the_listeners_per_event() -> None:
    late = Recorder()

    class Inviting(Recorder):
        async def on_event(self, event: Any) -> None:
            self.events.append(event)
            model.add_listener(late)

    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO, emit=[ONE, TWO])])
    inviting = Inviting()
    await connected(model, inviting)

    await bounded(model.send_event(HELLO))

    assert inviting.events == [ONE, TWO]
    assert late.events == [TWO]  # joined during ONE's broadcast, so it gets the next event


@pytest.mark.asyncio
async def test_a_listener_error_is_raised_by_the_call_whose_delivery_it_broke() -> None:
    failure = LookupError("listener bug")

    class Failing(RealtimeModelListener):
        async def on_event(self, event: Any) -> None:
            raise failure

    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO, emit=[ONE, TWO])])
    recorder = Recorder()
    await connected(model, Failing(), recorder)

    with pytest.raises(LookupError) as caught:
        await bounded(model.send_event(HELLO))

    assert caught.value is failure
    assert recorder.events == []  # the delivery stopped at the failing listener
    assert model.sent_events == (HELLO,)
    assert model._delivery_worker is None


class Halt(BaseException):
    """An exception outside ``Exception``, as some frameworks raise to unwind."""


@pytest.mark.parametrize("waits", [False, True], ids=["at-once", "after-waiting"])
@pytest.mark.asyncio
async def test_a_listener_raising_a_base_exception_fails_its_caller_instead_of_hanging(
    waits: bool,
) -> None:
    halt = Halt("unwind")

    class Halting(RealtimeModelListener):
        async def on_event(self, event: Any) -> None:
            if waits:
                await asyncio.sleep(0)
            raise halt

    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=HELLO, emit=[ONE]), RealtimeStep(expect=BYE, emit=[TWO])]
    )
    halting, recorder = Halting(), Recorder()
    await connected(model, halting, recorder)

    with pytest.raises(Halt) as caught:
        await bounded(model.send_event(HELLO))

    assert caught.value is halt
    assert recorder.events == []
    assert model._delivery_worker is None
    model.remove_listener(halting)
    await bounded(model.send_event(BYE))  # the queue goes on
    assert recorder.events == [TWO]


# -- re-entrant calls ----------------------------------------------------------------------


@pytest.mark.parametrize("conditional", [False, True], ids=["send_event", "send_event_if"])
@pytest.mark.asyncio
async def test_a_send_from_a_listener_returns_at_once_and_its_reply_follows_the_event(
    conditional: bool,
) -> None:
    """Shows RT-8."""
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=HELLO, emit=[ONE])], connect_events=[GREETING]
    )
    sender = Reacting(
        (lambda: model.send_event_if(HELLO, lambda: True))
        if conditional
        else (lambda: model.send_event(HELLO))
    )
    recorder = Recorder()

    await connected(model, sender, recorder)

    # connect() returned only after the reply, which reached both listeners after the greeting.
    assert sender.outcome == [True if conditional else None]
    assert sender.events == recorder.events == [GREETING, ONE]
    assert model.remaining_steps == 0


@pytest.mark.asyncio
async def test_a_tool_output_sent_while_the_session_handles_a_call_is_delivered_after_it() -> None:
    """Shows RT-8."""

    @function_tool
    def lookup_order(order_id: str) -> str:
        """Look up an order by ID."""
        return f"Order {order_id} has shipped."

    call = RealtimeModelToolCallEvent(
        name="lookup_order", call_id="call_1", arguments='{"order_id":"o1"}'
    )

    def output_of_call_1(event: RealtimeModelSendEvent) -> bool:
        return (
            isinstance(event, RealtimeModelSendToolOutput) and event.tool_call.call_id == "call_1"
        )

    model = ScriptedRealtimeModel([RealtimeStep(expect=output_of_call_1, emit=[ONE])])
    agent = RealtimeAgent(name="Orders", tools=[lookup_order])
    runner = RealtimeRunner(
        agent, model=model, config={"tracing_disabled": True, "async_tool_calls": False}
    )
    recorder = Recorder()

    async with await runner.run() as session:
        model.add_listener(recorder)  # after the session: it sees what follows the session
        await bounded(model.emit(call))
        # The session ran the tool and sent its output inside the delivery of the call;
        # the reply reached the next listener only after the call itself.
        assert recorder.events == [call, ONE]
        assert await raw_events(session, 2) == [call, ONE]

    model.assert_complete()


@pytest.mark.asyncio
async def test_a_listener_whose_send_matches_an_error_step_lets_the_outer_send_raise_it() -> None:
    failure = ConnectionResetError("scripted")
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=HELLO, emit=[ONE]), RealtimeStep(expect=BYE, error=failure)]
    )
    sender = Reacting(lambda: model.send_event(BYE))
    recorder = Recorder()
    await connected(model, sender, recorder)

    with pytest.raises(ConnectionResetError) as caught:
        await bounded(model.send_event(HELLO))

    assert caught.value is failure
    assert sender.outcome == [None]
    assert recorder.events == [ONE]  # the event being broadcast still reached listener 2
    assert model.sent_events == (HELLO, BYE)
    model.assert_complete()


@pytest.mark.asyncio
async def test_a_mismatched_send_from_a_listener_raises_right_there() -> None:
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO, emit=[ONE])])
    sender = Reacting(lambda: model.send_event(RealtimeModelSendInterrupt()))
    recorder = Recorder()
    await connected(model, sender, recorder)

    await bounded(model.send_event(HELLO))

    (error,) = sender.outcome
    assert isinstance(error, UnexpectedRealtimeSend)
    assert error.actual == RealtimeModelSendInterrupt()
    assert recorder.events == [ONE]
    assert model.sent_events == (HELLO,)


@pytest.mark.asyncio
async def test_a_listener_that_closes_the_model_and_then_sends_is_refused_right_there() -> None:
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=HELLO, emit=[ONE]), RealtimeStep(expect=BYE, emit=[TWO])]
    )

    async def close_then_send() -> None:
        await model.close()
        await model.send_event(BYE)

    closer = Reacting(close_then_send)
    await connected(model, closer)

    await bounded(model.send_event(HELLO))

    (error,) = closer.outcome
    assert isinstance(error, RealtimeScriptError)
    assert "Cannot send an event while the scripted model is disconnected" in str(error)
    assert (model.sent_events, model.remaining_steps) == ((HELLO,), 1)
    assert closer.events == [ONE]


@pytest.mark.asyncio
async def test_emit_from_a_listener_is_deferred_and_awaited_by_the_outer_call() -> None:
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO, emit=[ONE])])
    emitter = Reacting(lambda: model.emit(TWO))
    recorder = Recorder()
    await connected(model, emitter, recorder)

    await bounded(model.send_event(HELLO))

    assert emitter.outcome == [None]
    assert emitter.events == recorder.events == [ONE, TWO]


# -- cancelled callers ------------------------------------------------------------------


@pytest.mark.asyncio
async def test_cancelling_a_sender_never_cancels_its_delivery_nor_the_ones_after_it() -> None:
    """Shows RT-9."""
    second_committed = asyncio.Event()
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(expect=HELLO, emit=[ONE]),
            RealtimeStep(expect=committed(second_committed, BYE), emit=[TWO]),
        ]
    )
    blocker, recorder = Blocker(), Recorder()
    await connected(model, blocker, recorder)

    first = asyncio.ensure_future(model.send_event(HELLO))
    await bounded(blocker.entered.wait())
    second = asyncio.ensure_future(model.send_event(BYE))
    await bounded(second_committed.wait())
    first.cancel()
    with pytest.raises(asyncio.CancelledError):
        await bounded(first)

    blocker.release.set()
    await bounded(second)
    assert recorder.events == [ONE, TWO]
    assert first.cancelled()


@pytest.mark.asyncio
async def test_cancelling_a_sender_whose_delivery_is_still_queued_delivers_it_all_the_same() -> (
    None
):
    second_committed = asyncio.Event()
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(expect=HELLO, emit=[ONE]),
            RealtimeStep(expect=committed(second_committed, BYE), emit=[TWO]),
        ]
    )
    blocker, recorder = Blocker(), Recorder()
    await connected(model, blocker, recorder)

    first = asyncio.ensure_future(model.send_event(HELLO))
    await bounded(blocker.entered.wait())
    second = asyncio.ensure_future(model.send_event(BYE))
    await bounded(second_committed.wait())
    second.cancel()
    with pytest.raises(asyncio.CancelledError):
        await bounded(second)

    blocker.release.set()
    await bounded(first)
    worker = model._delivery_worker
    if worker is not None:
        await bounded(asyncio.shield(worker))
    assert recorder.events == [ONE, TWO]


@pytest.mark.asyncio
async def test_cancelling_an_emit_caller_never_cancels_its_delivery_nor_the_ones_after_it() -> None:
    second_committed = asyncio.Event()
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=committed(second_committed, BYE), emit=[TWO])]
    )
    blocker, recorder = Blocker(), Recorder()
    await connected(model, blocker, recorder)

    emitting = asyncio.ensure_future(model.emit(ONE))
    await bounded(blocker.entered.wait())
    sending = asyncio.ensure_future(model.send_event(BYE))
    await bounded(second_committed.wait())
    emitting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await bounded(emitting)
    assert recorder.events == []

    blocker.release.set()
    await bounded(sending)
    assert blocker.events == recorder.events == [ONE, TWO]
    assert emitting.cancelled()


@pytest.mark.asyncio
async def test_a_session_send_cancelled_while_its_tool_runs_lets_the_tool_finish() -> None:
    entered, release = asyncio.Event(), asyncio.Event()

    @function_tool
    async def slow_lookup() -> str:
        """Wait until the test releases it."""
        entered.set()
        await release.wait()
        return "found"

    call = RealtimeModelToolCallEvent(name="slow_lookup", call_id="call_1", arguments="{}")

    def output_found(event: RealtimeModelSendEvent) -> bool:
        return isinstance(event, RealtimeModelSendToolOutput) and event.output == "found"

    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=HELLO, emit=[call]), RealtimeStep(expect=output_found)]
    )
    agent = RealtimeAgent(name="Assistant", tools=[slow_lookup])
    runner = RealtimeRunner(
        agent, model=model, config={"tracing_disabled": True, "async_tool_calls": False}
    )

    async with await runner.run() as session:
        sending = asyncio.ensure_future(session.send_message("Hello"))
        await bounded(entered.wait())
        sending.cancel()
        with pytest.raises(asyncio.CancelledError):
            await bounded(sending)
        # The tool runs inside the delivery of the call, which the cancellation left alone.
        worker = model._delivery_worker
        assert worker is not None
        release.set()
        await bounded(asyncio.shield(worker))
        assert model._delivery_worker is None

    assert [type(event) for event in model.sent_events] == [
        RealtimeModelSendUserInput,
        RealtimeModelSendToolOutput,
    ]
    model.assert_complete()


# -- close() during a delivery ----------------------------------------------------------------


@pytest.mark.asyncio
async def test_close_stops_the_broadcast_before_the_next_listener_and_fails_what_is_queued() -> (
    None
):
    """Shows RT-10."""
    second_committed = asyncio.Event()
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(expect=HELLO, emit=[ONE]),
            RealtimeStep(expect=committed(second_committed, BYE)),
        ]
    )
    blocker, recorder = Blocker(), Recorder()
    await connected(model, blocker, recorder)

    first = asyncio.ensure_future(model.send_event(HELLO))
    await bounded(blocker.entered.wait())
    second = asyncio.ensure_future(model.send_event(BYE))
    await bounded(second_committed.wait())
    await model.close()
    blocker.release.set()

    await bounded(first)
    # The SDK's own double says this of a delivery whose turn came after close().
    with pytest.raises(
        RealtimeScriptError,
        match=r"^Cannot emit events while the scripted model is disconnected\. ",
    ) as caught:
        await bounded(second)
    assert "RealtimeModelSendUserInput send" in str(caught.value)
    assert recorder.events == []
    # Both sends stay recorded and their steps consumed.
    assert (model.sent_events, model.remaining_steps) == ((HELLO, BYE), 0)


@pytest.mark.asyncio
async def test_an_emit_queued_behind_a_delivery_fails_after_close_and_delivers_nothing() -> None:
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO, emit=[ONE])])
    blocker, recorder = Blocker(), Recorder()
    await connected(model, blocker, recorder)

    first = asyncio.ensure_future(model.send_event(HELLO))
    await bounded(blocker.entered.wait())
    emitting = asyncio.ensure_future(model.emit(TWO))
    await asyncio.sleep(0)  # emit() has queued its copies
    await model.close()
    blocker.release.set()

    await bounded(first)  # returns normally
    with pytest.raises(
        RealtimeScriptError,
        match=r"^Cannot emit events while the scripted model is disconnected\. ",
    ) as caught:
        await bounded(emitting)
    assert "emit()" in str(caught.value)
    assert blocker.events == [ONE]
    assert recorder.events == []


@pytest.mark.asyncio
async def test_a_queued_error_step_raises_its_own_error_after_close() -> None:
    failure = TimeoutError("scripted")
    error_committed = asyncio.Event()
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(expect=HELLO, emit=[ONE]),
            RealtimeStep(expect=committed(error_committed, BYE), error=failure),
        ]
    )
    blocker = Blocker()
    await connected(model, blocker)

    first = asyncio.ensure_future(model.send_event(HELLO))
    await bounded(blocker.entered.wait())
    second = asyncio.ensure_future(model.send_event(BYE))
    await bounded(error_committed.wait())
    await model.close()
    blocker.release.set()

    with pytest.raises(TimeoutError) as caught:
        await bounded(second)
    assert caught.value is failure
    await bounded(first)


@pytest.mark.asyncio
async def test_a_listener_that_closes_the_model_stops_delivery_to_the_following_ones() -> None:
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO, emit=[ONE, TWO])])
    closer = Reacting(model.close)
    recorder = Recorder()
    await connected(model, closer, recorder)

    await bounded(model.send_event(HELLO))

    assert closer.events == [ONE]
    assert recorder.events == []
    assert (model.connected, model.closed) == (False, True)


@pytest.mark.asyncio
async def test_leaving_the_session_while_a_delivery_blocks_stops_it_before_the_session() -> None:
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO, emit=[ONE])])
    blocker = Blocker()
    model.add_listener(blocker)

    async with await runner_for(model).run() as session:
        sending = asyncio.ensure_future(session.send_message("Hello"))
        await bounded(blocker.entered.wait())

    assert (model.connected, model.closed) == (False, True)
    blocker.release.set()
    await bounded(sending)
    assert model._delivery_worker is None
    model.assert_complete()


# -- connect() while a delivery is pending, failed and cancelled connects -----------------------


@pytest.mark.asyncio
async def test_connect_is_refused_at_once_while_an_old_delivery_is_pending() -> None:
    model = ScriptedRealtimeModel(connect_events=[GREETING])
    blocker = Blocker()
    model.add_listener(blocker)

    connecting = asyncio.ensure_future(model.connect({}))
    await bounded(blocker.entered.wait())
    await model.close()
    with pytest.raises(AssertionError, match="Already connected") as caught:
        await bounded(model.connect({"call_id": "again"}))

    assert isinstance(caught.value, RealtimeAlreadyConnected)
    assert len(model.connect_calls) == 1
    assert blocker.events == [GREETING]  # nothing emitted for the refused connect

    blocker.release.set()
    await bounded(connecting)
    await bounded(model.connect({}))
    assert (model.connected, model.closed, len(model.connect_calls)) == (True, False, 2)
    assert blocker.events == [GREETING, GREETING]


@pytest.mark.parametrize("pending", ["send", "emit"])
@pytest.mark.asyncio
async def test_connect_is_refused_while_a_delivery_closed_mid_broadcast_is_still_running(
    pending: str,
) -> None:
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=HELLO, emit=[ONE])], connect_events=[GREETING]
    )
    recorder = Recorder()
    await connected(model, recorder)
    blocker = Blocker()
    model.add_listener(blocker)

    delivering = asyncio.ensure_future(
        model.send_event(HELLO) if pending == "send" else model.emit(ONE)
    )
    await bounded(blocker.entered.wait())
    await model.close()
    assert (model.connected, model.closed) == (False, True)
    for _ in range(2):
        with pytest.raises(AssertionError, match="Already connected"):
            await bounded(model.connect({}))
    assert len(model.connect_calls) == 1
    assert recorder.events == [GREETING, ONE]
    assert blocker.events == [ONE]

    blocker.release.set()
    await bounded(delivering)  # returns normally
    assert model._delivery_worker is None
    await bounded(model.connect({}))
    assert (model.connected, model.closed, len(model.connect_calls)) == (True, False, 2)
    assert recorder.events == [GREETING, ONE, GREETING]
    assert blocker.events == [ONE, GREETING]


@pytest.mark.asyncio
async def test_a_new_session_is_refused_at_once_while_the_last_ones_delivery_runs() -> None:
    """Shows RT-2."""
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=HELLO, emit=[ONE])], connect_events=[GREETING]
    )
    runner = runner_for(model)
    blocker = Blocker()

    async with await runner.run() as first:
        model.add_listener(blocker)  # after the session: it blocks the reply's delivery
        sending = asyncio.ensure_future(first.send_message("Hello"))
        await bounded(blocker.entered.wait())

    second = await runner.run()
    with pytest.raises(AssertionError, match="Already connected"):
        await bounded(second.enter())
    assert len(model.connect_calls) == 1
    assert blocker.events == [ONE]  # the refused connect emitted nothing
    await second.close()

    blocker.release.set()
    await bounded(sending)
    async with await runner.run() as third:
        assert await raw_events(third, 1) == [GREETING]
    assert len(model.connect_calls) == 2
    assert blocker.events == [ONE, GREETING]
    model.assert_complete()


@pytest.mark.asyncio
async def test_a_cancelled_connect_leaves_the_model_closed_and_refuses_to_reconnect_meanwhile() -> (
    None
):
    model = ScriptedRealtimeModel(connect_events=[GREETING])
    blocker, recorder = Blocker(), Recorder()
    model.add_listener(blocker)
    model.add_listener(recorder)

    connecting = asyncio.ensure_future(model.connect({}))
    await bounded(blocker.entered.wait())
    connecting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await bounded(connecting)

    assert (model.connected, model.closed) == (False, True)
    with pytest.raises(AssertionError, match="Already connected"):
        await bounded(model.connect({}))
    with pytest.raises(RealtimeScriptError, match="disconnected"):
        await model.send_event(HELLO)

    blocker.release.set()
    worker = model._delivery_worker
    assert worker is not None
    await bounded(asyncio.shield(worker))
    assert recorder.events == []  # the cancelled connect's delivery stopped there
    await bounded(model.connect({}))
    assert model.connected is True


@pytest.mark.asyncio
async def test_cancelling_a_session_entry_leaves_the_model_closed_until_its_delivery_ends() -> None:
    """Shows RT-3."""
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO)], connect_events=[GREETING])
    runner = runner_for(model)
    blocker = Blocker()
    model.add_listener(blocker)  # before the session: it holds the greeting

    first = await runner.run()
    entering = asyncio.ensure_future(first.enter())
    await bounded(blocker.entered.wait())
    entering.cancel()
    with pytest.raises(asyncio.CancelledError):
        await bounded(entering)
    assert (model.connected, model.closed) == (False, True)
    with pytest.raises(RealtimeScriptError, match="disconnected"):
        await first.send_message("Hello")
    with pytest.raises(AssertionError, match="Already connected"):
        await bounded((await runner.run()).enter())

    blocker.release.set()
    worker = model._delivery_worker
    assert worker is not None
    await bounded(asyncio.shield(worker))
    async with await runner.run() as session:
        await bounded(session.send_message("Hello"))
    assert len(model.connect_calls) == 2
    assert blocker.events == [GREETING, GREETING]
    model.assert_complete()


@pytest.mark.asyncio
async def test_a_connect_whose_listener_fails_leaves_the_model_closed() -> None:
    failure = LookupError("listener bug")

    class Failing(RealtimeModelListener):
        async def on_event(self, event: Any) -> None:
            raise failure

    model = ScriptedRealtimeModel(connect_events=[GREETING], close_error=OSError("close"))
    model.add_listener(Failing())

    with pytest.raises(LookupError) as caught:
        await bounded(model.connect({}))

    assert caught.value is failure
    assert (model.connected, model.closed) == (False, True)
    with pytest.raises(RealtimeScriptError, match="disconnected"):
        await model.send_event(HELLO)
    with pytest.raises(RealtimeScriptError, match="disconnected"):
        await model.send_event_if(HELLO, lambda: True)
    with pytest.raises(RealtimeScriptError, match="disconnected"):
        await model.emit(ONE)
    # Closing what is no longer open only counts: no close_error.
    await model.close()
    assert (model.close_calls, model.closed) == (1, True)


@pytest.mark.asyncio
async def test_a_session_whose_connect_events_fail_leaves_the_model_closed() -> None:
    """Shows RT-3."""
    failure = LookupError("listener bug")

    class Failing(RealtimeModelListener):
        async def on_event(self, event: Any) -> None:
            raise failure

    model = ScriptedRealtimeModel(connect_events=[GREETING])
    failing = Failing()
    model.add_listener(failing)
    session = await runner_for(model).run()

    with pytest.raises(LookupError) as caught:
        await bounded(session.enter())

    assert caught.value is failure
    assert (model.connected, model.closed) == (False, True)


# -- emit() copies when called ------------------------------------------------------------


class Flagged(RealtimeModelTranscriptDeltaEvent):
    """An event that counts its deep copies and signals each one."""

    copies = 0
    copied = asyncio.Event()

    def __deepcopy__(self, memo: dict[int, Any]) -> Flagged:
        type(self).copies += 1
        type(self).copied.set()
        fresh = copy.copy(self)
        fresh.delta = str(self.delta)
        return fresh


@pytest.fixture
def flagged() -> type[Flagged]:
    Flagged.copies = 0
    Flagged.copied = asyncio.Event()
    return Flagged


@pytest.mark.asyncio
async def test_emit_copies_its_events_when_called_even_behind_a_blocked_delivery(
    flagged: type[Flagged],
) -> None:
    """Shows RT-11."""
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO, emit=[ONE])])
    blocker, recorder = Blocker(), Recorder()
    await connected(model, blocker, recorder)
    event = flagged(item_id="item_1", delta="as emitted", response_id="resp_1")

    sending = asyncio.ensure_future(model.send_event(HELLO))
    await bounded(blocker.entered.wait())
    emitting = asyncio.ensure_future(model.emit(event))
    await bounded(flagged.copied.wait())
    event.delta = "changed while waiting"

    blocker.release.set()
    await bounded(asyncio.gather(sending, emitting))
    assert [received.delta for received in recorder.events] == ["one", "as emitted"]
    assert flagged.copies == 1


def test_connect_events_are_copied_when_built_and_again_at_every_connect(
    flagged: type[Flagged],
) -> None:
    async def scenario() -> None:
        event = flagged(item_id="item_1", delta="welcome", response_id="resp_1")
        model = ScriptedRealtimeModel(connect_events=[event])
        assert flagged.copies == 1
        event.delta = "changed after building"
        recorder = Recorder()
        await connected(model, recorder)
        await model.close()
        await bounded(model.connect({}))
        assert flagged.copies == 3
        assert [received.delta for received in recorder.events] == ["welcome", "welcome"]
        assert recorder.events[0] is not recorder.events[1]

    asyncio.run(scenario())


@pytest.mark.asyncio
async def test_a_steps_events_are_copied_once_when_the_model_is_built(
    flagged: type[Flagged],
) -> None:
    event = flagged(item_id="item_1", delta="as scripted", response_id="resp_1")
    step = RealtimeStep(expect=HELLO, emit=[event])
    model = ScriptedRealtimeModel([step])
    assert flagged.copies == 1
    event.delta = "changed after building"
    recorder = Recorder()
    await connected(model, recorder)

    await bounded(model.send_event(HELLO))

    assert flagged.copies == 1
    assert [received.delta for received in recorder.events] == ["as scripted"]
    assert recorder.events[0] is not event


# -- the worker -----------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_the_delivery_worker_is_none_when_idle_and_the_running_task_otherwise() -> None:
    """Shows RT-13."""
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO, emit=[ONE])])
    blocker = Blocker()
    await connected(model, blocker)
    assert model._delivery_worker is None

    sending = asyncio.ensure_future(model.send_event(HELLO))
    await bounded(blocker.entered.wait())
    worker = model._delivery_worker
    assert isinstance(worker, asyncio.Task)
    assert not worker.done()

    blocker.release.set()
    await bounded(asyncio.shield(worker))
    assert model._delivery_worker is None
    await bounded(sending)


@pytest.mark.asyncio
async def test_awaiting_the_worker_never_raises_what_a_delivery_raised() -> None:
    class Failing(Blocker):
        async def on_event(self, event: Any) -> None:
            await super().on_event(event)
            raise LookupError("listener bug")

    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO, emit=[ONE])])
    failing = Failing()
    await connected(model, failing)

    sending = asyncio.ensure_future(model.send_event(HELLO))
    await bounded(failing.entered.wait())
    worker = model._delivery_worker
    assert worker is not None
    failing.release.set()

    await bounded(worker)
    with pytest.raises(LookupError):
        await bounded(sending)


@pytest.mark.asyncio
async def test_a_send_with_nothing_to_deliver_leaves_no_worker_behind() -> None:
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO)])
    await connected(model, Recorder())

    await bounded(model.send_event(HELLO))

    assert model._delivery_worker is None
    model.assert_complete()
