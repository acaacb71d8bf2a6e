"""Scripted connection faults, seen through ``RealtimeRunner`` / ``RealtimeSession``.

What a drop looks like was read off the SDK's own ``OpenAIRealtimeWebSocketModel``
against a real socket dropped mid-session (0.14.8 and 0.24.0 alike): the listeners get a
``RealtimeModelExceptionEvent`` holding ``websockets``' ``ConnectionClosedError``, the
session's iteration raises it (and closes the session), a send before that raises it
too, and after ``close()`` the same model connects again. Every delay runs on the
virtual clock.
"""

from __future__ import annotations

import asyncio
import pickle
import random
from typing import Any, cast

import pytest
from agents.realtime import (
    RealtimeAgent,
    RealtimeModelSendUserInput,
    RealtimeModelTranscriptDeltaEvent,
    RealtimeRawModelEvent,
    RealtimeRunner,
    RealtimeSession,
    model_events,
)
from agents.realtime.model import RealtimeModelListener
from websockets.exceptions import ConnectionClosedError, ConnectionClosedOK

from agents_testing.core import ClockWait, VirtualClock
from agents_testing.realtime import (
    DeliveredEvent,
    InvalidRealtimeStep,
    RealtimeAlreadyConnected,
    RealtimeFault,
    RealtimeScriptError,
    RealtimeStep,
    ScriptedRealtimeModel,
)

GUARD_SECONDS = 10.0
HELLO = RealtimeModelSendUserInput(user_input="Hello")
AGAIN = RealtimeModelSendUserInput(user_input="Again")


def delta(text: str) -> RealtimeModelTranscriptDeltaEvent:
    return RealtimeModelTranscriptDeltaEvent(item_id="item_1", delta=text, response_id="resp_1")


def runner_for(model: ScriptedRealtimeModel) -> RealtimeRunner:
    return RealtimeRunner(
        RealtimeAgent(name="Concierge"), model=model, config={"tracing_disabled": True}
    )


async def raw_events(session: RealtimeSession, count: int | None = None) -> list[Any]:
    """The model events the session yields, until ``count`` of them (or the end)."""
    seen: list[Any] = []

    async def scan() -> None:
        async for event in session:
            if isinstance(event, RealtimeRawModelEvent):
                seen.append(event.data)
                if count is not None and len(seen) == count:
                    return

    await asyncio.wait_for(scan(), GUARD_SECONDS)
    return seen


def text(event: object) -> str:
    """The text of a transcript delta (the events' union type has no ``delta`` in general)."""
    return str(getattr(event, "delta"))  # noqa: B009


def deltas(events: tuple[DeliveredEvent, ...]) -> list[str]:
    return [text(entry.event) for entry in events if entry.event.type == "transcript_delta"]


# -- a dropped connection ---------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_connection_that_drops_mid_reply_fails_the_session_as_a_lost_socket_does() -> None:
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(
                expect=HELLO,
                emit=[delta("Your booking"), delta(" BK1 is"), delta(" confirmed.")],
                faults=[RealtimeFault.drop(after=2)],
            )
        ]
    )

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")
        with pytest.raises(ConnectionClosedError) as raised:
            await raw_events(session)

    assert str(raised.value) == "no close frame received or sent"
    assert [entry.source for entry in model.delivered_events] == ["send", "send", "drop"]
    assert deltas(model.delivered_events) == ["Your booking", " BK1 is"]
    drop = model.delivered_events[2].event
    assert isinstance(drop, model_events.RealtimeModelExceptionEvent)
    assert drop.context == "WebSocket connection closed unexpectedly"
    assert drop.exception is raised.value
    # The session closed the model when it raised, as it closes the SDK's own model.
    assert (model.closed, model.connected, model.dropped) == (True, False, False)
    model.assert_complete()


@pytest.mark.asyncio
async def test_a_send_on_a_dropped_connection_raises_what_the_socket_raises_unrecorded() -> None:
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(expect=HELLO, faults=[RealtimeFault.drop()]),
            RealtimeStep(expect=AGAIN, emit=[delta("Welcome back.")]),
        ]
    )

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")
        assert model.dropped is True
        with pytest.raises(ConnectionClosedError, match="no close frame received or sent"):
            await session.send_message("Again")
        # The SDK's model refuses to connect again until the dead connection is closed.
        with pytest.raises(RealtimeAlreadyConnected, match="after the connection dropped"):
            await model.connect({})
        with pytest.raises(RealtimeScriptError, match="after the connection dropped"):
            await model.emit(delta("too late"))

    assert list(model.sent_events) == [HELLO]
    assert model.remaining_steps == 1

    # A new session on the same model connects again and the script goes on.
    async with await runner_for(model).run() as session:
        await session.send_message("Again")
        assert [event.delta for event in await raw_events(session, 1)] == ["Welcome back."]

    assert model.sent_events == (HELLO, AGAIN)
    assert len(model.connect_calls) == 2
    model.assert_complete()


@pytest.mark.asyncio
async def test_a_server_closing_with_an_error_code_reports_the_code_and_reason() -> None:
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=HELLO, faults=[RealtimeFault.drop(code=1011, reason="overloaded")])]
    )

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")
        with pytest.raises(ConnectionClosedError) as raised:
            await raw_events(session)

    # Word for word what websockets says for a 1011 close the server started.
    assert str(raised.value) == (
        "received 1011 (internal error) overloaded; then sent 1011 (internal error) overloaded"
    )
    assert raised.value.rcvd is not None
    assert raised.value.rcvd.code == 1011


@pytest.mark.asyncio
async def test_a_clean_close_by_the_server_is_reported_as_the_installed_sdk_reports_it() -> None:
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=HELLO, faults=[RealtimeFault.drop(code=1000, reason="bye")])]
    )

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")
        with pytest.raises(ConnectionClosedOK):
            await session.send_message("Still there?")
        if hasattr(model_events, "RealtimeModelEndOfStreamEvent"):
            # 0.21.1 and later: a status event and the end of the stream end iteration.
            assert [event.type for event in await raw_events(session)] == [
                "connection_status",
                "end_of_stream",
            ]
        else:
            # Earlier releases report a clean close with no event at all.
            assert model.delivered_events == ()

    assert model.dropped is False
    assert model.closed is True


@pytest.mark.asyncio
async def test_replies_queued_behind_a_drop_never_come_and_their_sends_return() -> None:
    class Holding(RealtimeModelListener):
        """Holds the first event until released, so a second send queues behind it."""

        def __init__(self) -> None:
            self.entered, self.release = asyncio.Event(), asyncio.Event()
            self.events: list[Any] = []

        async def on_event(self, event: Any) -> None:
            self.events.append(event)
            if len(self.events) == 1:
                self.entered.set()
                await self.release.wait()

    model = ScriptedRealtimeModel(
        [
            RealtimeStep(expect=HELLO, emit=[delta("first")], faults=[RealtimeFault.drop()]),
            RealtimeStep(expect=AGAIN, emit=[delta("never heard")]),
        ]
    )
    listener = Holding()
    model.add_listener(listener)
    await model.connect({})
    first = asyncio.ensure_future(model.send_event(HELLO))
    await asyncio.wait_for(listener.entered.wait(), GUARD_SECONDS)
    second = asyncio.ensure_future(model.send_event(AGAIN))  # committed before the drop
    await asyncio.sleep(0)
    listener.release.set()

    await asyncio.wait_for(asyncio.gather(first, second), GUARD_SECONDS)

    assert [event.type for event in listener.events] == ["transcript_delta", "exception"]
    assert list(model.sent_events) == [HELLO, AGAIN]
    model.assert_complete()
    await model.close()


# -- a failure of the next send ----------------------------------------------------------


@pytest.mark.asyncio
async def test_the_next_send_meets_a_connection_that_dropped_unnoticed() -> None:
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(
                expect=HELLO, emit=[delta("Hi.")], faults=[RealtimeFault.fail_next_send()]
            ),
            RealtimeStep(expect=AGAIN, emit=[delta("Welcome back.")]),
        ]
    )

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")
        with pytest.raises(ConnectionClosedError):
            await session.send_message("Again")
        with pytest.raises(ConnectionClosedError):
            await raw_events(session)

    assert model.sent_events == (HELLO,)
    assert model.remaining_steps == 1
    assert [(entry.source, entry.send_index) for entry in model.delivered_events] == [
        ("send", 0),
        ("drop", None),
    ]

    async with await runner_for(model).run() as session:
        await session.send_message("Again")
        await raw_events(session, 1)
    model.assert_complete()


@pytest.mark.asyncio
async def test_a_send_failing_with_a_scripted_error_leaves_the_connection_up_for_a_retry() -> None:
    broken = OSError("write failed")
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(expect=HELLO, faults=[RealtimeFault.fail_next_send(broken)]),
            RealtimeStep(expect=AGAIN, emit=[delta("Got it.")]),
        ]
    )

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")
        with pytest.raises(OSError, match="write failed") as raised:
            await session.send_message("Again")
        assert raised.value is broken
        await session.send_message("Again")  # the retry reaches the script
        assert [event.delta for event in await raw_events(session, 1)] == ["Got it."]

    assert model.sent_events == (HELLO, AGAIN)
    model.assert_complete()


@pytest.mark.asyncio
async def test_a_send_failure_armed_on_one_connection_is_gone_on_the_next() -> None:
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(expect=HELLO, faults=[RealtimeFault.fail_next_send(OSError("x"))]),
            RealtimeStep(expect=AGAIN, emit=[delta("Fresh line.")]),
        ]
    )

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")
    async with await runner_for(model).run() as session:
        await session.send_message("Again")  # a new connection: nothing is broken
        assert [event.delta for event in await raw_events(session, 1)] == ["Fresh line."]

    model.assert_complete()


# -- delayed, duplicated and reordered events --------------------------------------------


@pytest.mark.asyncio
async def test_a_late_reply_comes_on_the_clock_after_the_send_returned(
    virtual_clock: VirtualClock,
) -> None:
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(
                expect=HELLO, emit=[delta("Sorry for the wait.")], faults=[RealtimeFault.delay(3.0)]
            )
        ]
    )

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")
        assert virtual_clock.now == 0.0  # a send returns once it is sent
        # The application's own watchdog gives up after two seconds...
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(raw_events(session, 1), 2.0)
        assert virtual_clock.now == 2.0
        # ...and the reply still comes, three seconds after the send.
        assert [event.delta for event in await raw_events(session, 1)] == ["Sorry for the wait."]

    assert [(entry.at, text(entry.event)) for entry in model.delivered_events] == [
        (3.0, "Sorry for the wait.")
    ]
    assert ClockWait("scripted", 0.0, 3.0) in virtual_clock.waits
    assert virtual_clock.sleeps == []


@pytest.mark.asyncio
async def test_a_delay_before_each_event_paces_the_reply(virtual_clock: VirtualClock) -> None:
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(
                expect=HELLO,
                emit=[delta("a"), delta("b"), delta("c")],
                faults=[RealtimeFault.delay(0.5, before="each")],
            )
        ]
    )

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")
        await raw_events(session, 3)

    assert [(entry.at, text(entry.event)) for entry in model.delivered_events] == [
        (0.5, "a"),
        (1.0, "b"),
        (1.5, "c"),
    ]


@pytest.mark.asyncio
async def test_a_duplicated_event_reaches_the_session_twice_as_two_copies() -> None:
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(
                expect=HELLO,
                emit=[delta("Hel"), delta("lo")],
                faults=[RealtimeFault.duplicate(1)],
            )
        ]
    )

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")
        received = await raw_events(session, 3)

    assert [event.delta for event in received] == ["Hel", "lo", "lo"]
    assert received[1] == received[2]
    assert received[1] is not received[2]
    assert deltas(model.delivered_events) == ["Hel", "lo", "lo"]


@pytest.mark.asyncio
async def test_reordered_events_arrive_with_each_window_reversed() -> None:
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(
                expect=HELLO,
                emit=[delta(letter) for letter in "abcde"],
                faults=[RealtimeFault.reorder(2)],
            )
        ]
    )

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")
        received = await raw_events(session, 5)

    assert [event.delta for event in received] == ["b", "a", "d", "c", "e"]


@pytest.mark.asyncio
async def test_a_seeded_reorder_shuffles_each_window_as_random_would() -> None:
    letters = list("abcdefgh")
    expected: list[str] = []
    shuffle = random.Random(7).shuffle
    for start in range(0, len(letters), 4):
        window = letters[start : start + 4]
        shuffle(window)
        expected.extend(window)
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(
                expect=HELLO,
                emit=[delta(letter) for letter in letters],
                faults=[RealtimeFault.reorder(4, seed=7)],
            )
        ]
    )

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")
        received = await raw_events(session, 8)

    assert [event.delta for event in received] == expected
    assert expected != letters


@pytest.mark.asyncio
async def test_faults_combine_duplicate_then_reorder_then_drop_with_the_delays_on_the_timeline(
    virtual_clock: VirtualClock,
) -> None:
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(
                expect=HELLO,
                emit=[delta("a"), delta("b"), delta("c")],
                faults=[
                    RealtimeFault.duplicate(1),  # a b b c
                    RealtimeFault.reorder(2),  # b a c b
                    RealtimeFault.drop(after=3),  # b a c, then the drop
                    RealtimeFault.delay(2.0),
                    RealtimeFault.delay(1.0, before=3),
                ],
            )
        ]
    )

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")
        with pytest.raises(ConnectionClosedError):
            await raw_events(session)

    assert [
        (entry.at, entry.source, getattr(entry.event, "delta", entry.event.type))
        for entry in model.delivered_events
    ] == [(2.0, "send", "b"), (2.0, "send", "a"), (2.0, "send", "c"), (3.0, "drop", "exception")]


# -- the record of deliveries ------------------------------------------------------------


@pytest.mark.asyncio
async def test_every_delivery_is_recorded_with_its_source_and_a_copy_of_the_event() -> None:
    class Scribbler(RealtimeModelListener):
        async def on_event(self, event: Any) -> None:
            if isinstance(event, RealtimeModelTranscriptDeltaEvent):
                event.delta = "scribbled"

    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=HELLO, emit=[delta("reply")])], connect_events=[delta("welcome")]
    )
    model.add_listener(Scribbler())
    await model.connect({})
    await model.send_event(HELLO)
    await model.emit(delta("pushed"))
    await model.close()

    assert [
        (entry.source, entry.send_index, text(entry.event)) for entry in model.delivered_events
    ] == [
        ("connect", None, "welcome"),
        ("send", 0, "reply"),
        ("emit", None, "pushed"),
    ]
    first = model.delivered_events[0].event
    assert isinstance(first, RealtimeModelTranscriptDeltaEvent)
    first.delta = "changed by the test"
    assert text(model.delivered_events[0].event) == "welcome"


@pytest.mark.asyncio
async def test_closing_during_a_delay_stops_the_rest_and_lets_the_model_connect_again(
    virtual_clock: VirtualClock,
) -> None:
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=HELLO, emit=[delta("late")], faults=[RealtimeFault.delay(60.0)])],
        connect_events=[delta("welcome")],
    )

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")
        await raw_events(session, 1)  # the greeting

    await asyncio.sleep(0)  # the woken delivery ends on the loop's next pass
    async with await runner_for(model).run() as session:
        await raw_events(session, 1)

    assert [text(entry.event) for entry in model.delivered_events] == ["welcome", "welcome"]
    assert virtual_clock.now < 60.0


@pytest.mark.asyncio
async def test_a_listener_error_after_a_delay_is_raised_by_the_next_call(
    virtual_clock: VirtualClock,
) -> None:
    failure = RuntimeError("listener broke")

    class Fragile(RealtimeModelListener):
        async def on_event(self, event: Any) -> None:
            if getattr(event, "delta", None) == "late":
                raise failure

    model = ScriptedRealtimeModel(
        [
            RealtimeStep(expect=HELLO, emit=[delta("late")], faults=[RealtimeFault.delay(1.0)]),
            RealtimeStep(expect=AGAIN),
        ]
    )
    model.add_listener(Fragile())
    await model.connect({})
    await model.send_event(HELLO)  # returns before the delayed event
    await asyncio.sleep(2.0)

    with pytest.raises(RuntimeError) as raised:
        await model.send_event(AGAIN)

    assert raised.value is failure
    assert model.sent_events == (HELLO, AGAIN)  # the call did its own work first
    await model.close()


@pytest.mark.asyncio
async def test_the_fixture_model_with_extra_checks_takes_faults_too(
    scripted_realtime_model: Any,
) -> None:
    model = scripted_realtime_model(
        [
            RealtimeStep(
                expect=HELLO, emit=[delta("a"), delta("b")], faults=[RealtimeFault.reorder(2)]
            )
        ]
    )

    async with await runner_for(model).run() as session:
        await session.send_message("Hello")
        assert [event.delta for event in await raw_events(session, 2)] == ["b", "a"]


# -- building faults ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: RealtimeFault.delay(-1.0), "time only moves forward"),
        (lambda: RealtimeFault.delay(float("nan")), "finite"),
        (lambda: RealtimeFault.delay(1.0, before=-1), "before=...\\) must be at least 0"),
        (lambda: RealtimeFault.delay(1.0, before=cast(Any, "all")), "must be an int"),
        (lambda: RealtimeFault.reorder(1), "window=...\\) must be at least 2"),
        (lambda: RealtimeFault.reorder(2, seed=cast(Any, "x")), "seed"),
        (lambda: RealtimeFault.duplicate(), "at least one event"),
        (lambda: RealtimeFault.duplicate(-1), "must be at least 0"),
        (lambda: RealtimeFault.duplicate(0, 0), "names a position twice"),
        (lambda: RealtimeFault.drop(after=-1), "must be at least 0"),
        (lambda: RealtimeFault.drop(code=999), "no close code a server sends"),
        (lambda: RealtimeFault.drop(code=1006, reason="x"), "carries no reason"),
        (lambda: RealtimeFault.drop(code=1011, reason="x" * 124), "123 bytes"),
        (lambda: RealtimeFault.fail_next_send(cast(Any, "boom")), "fail_next_send\\(error=...\\)"),
    ],
)
def test_a_fault_with_a_bad_argument_is_refused_when_made(build: Any, message: str) -> None:
    with pytest.raises(InvalidRealtimeStep, match=message) as raised:
        build()

    assert (raised.value.reason, raised.value.field) == ("invalid_fault", "faults")


@pytest.mark.parametrize(
    ("faults", "emit", "reason", "message"),
    [
        (
            [RealtimeFault.drop(after=3)],
            2,
            "invalid_fault",
            "after more events than the step delivers \\(2\\)",
        ),
        ([RealtimeFault.duplicate(2)], 2, "invalid_fault", "emits 2 event"),
        ([RealtimeFault.delay(1.0, before=2)], 2, "invalid_fault", "does not deliver"),
        ([RealtimeFault.delay(1.0)], 0, "invalid_fault", "delivers nothing"),
        ([RealtimeFault.drop(), RealtimeFault.drop()], 1, "invalid_fault", "one drop fault"),
        (
            [RealtimeFault.delay(1.0, before="each"), RealtimeFault.delay(1.0)],
            1,
            "invalid_fault",
            "cannot be combined",
        ),
        (RealtimeFault.drop(), 1, "invalid_fault", "wrap the fault in"),
        (["drop"], 1, "invalid_fault", "fault 1 is a str"),
    ],
)
def test_faults_that_do_not_fit_their_step_are_refused_when_the_step_is_made(
    faults: Any, emit: int, reason: str, message: str
) -> None:
    with pytest.raises(InvalidRealtimeStep, match=message) as raised:
        RealtimeStep(expect=HELLO, emit=[delta(str(n)) for n in range(emit)], faults=faults)

    assert (raised.value.reason, raised.value.field) == (reason, "faults")


def test_a_fault_that_does_not_fit_is_reported_at_its_position_in_faults() -> None:
    with pytest.raises(
        InvalidRealtimeStep, match="duplicate\\(\\) names event position 5"
    ) as raised:
        RealtimeStep(
            expect=HELLO,
            emit=[delta("a")],
            faults=[RealtimeFault.delay(1.0), RealtimeFault.duplicate(5)],
        )

    assert raised.value.input_index == 1


def test_a_duplicate_counts_toward_the_events_a_drop_may_come_after() -> None:
    step = RealtimeStep(
        expect=HELLO,
        emit=[delta("a"), delta("b")],
        faults=[RealtimeFault.duplicate(0), RealtimeFault.drop(after=3)],
    )

    assert step.faults == (RealtimeFault.duplicate(0), RealtimeFault.drop(after=3))


def test_a_step_with_an_error_takes_no_faults() -> None:
    with pytest.raises(InvalidRealtimeStep, match="takes no faults") as raised:
        RealtimeStep(expect=HELLO, error=RuntimeError("x"), faults=[RealtimeFault.drop()])

    assert raised.value.reason == "conflicting_outcomes"


def test_steps_and_faults_compare_by_value_hash_pickle_and_show_their_faults() -> None:
    def make() -> RealtimeStep:
        return RealtimeStep(
            expect=HELLO,
            emit=[delta("a")],
            faults=[RealtimeFault.delay(1.5), RealtimeFault.drop(code=1011, reason="x")],
        )

    step = make()

    assert step == make()
    assert hash(step) == hash(make())
    assert step != RealtimeStep(expect=HELLO, emit=[delta("a")])
    assert pickle.loads(pickle.dumps(step)) == step
    assert "faults=[RealtimeFault.delay(before=0, seconds=1.5)" in repr(step)
    assert RealtimeStep(expect=HELLO).faults == ()
    with pytest.raises(AttributeError):
        step.faults[0].kind = "drop"  # type: ignore[misc]
