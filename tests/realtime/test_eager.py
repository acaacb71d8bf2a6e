"""Deliveries start at once: one whose listeners never wait is done before its call returns,
and one whose listeners wait goes on in a task of its own, as any task would."""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Awaitable
from typing import Any, TypeVar

import pytest
from agents.realtime import RealtimeModelSendUserInput, RealtimeModelTranscriptDeltaEvent
from agents.realtime.model import RealtimeModelListener

from agents_testing.realtime import RealtimeStep, ScriptedRealtimeModel

T = TypeVar("T")
HELLO = RealtimeModelSendUserInput(user_input="Hello")
ONE = RealtimeModelTranscriptDeltaEvent(item_id="item_1", delta="one", response_id="resp_1")
TOLD = contextvars.ContextVar("TOLD", default="nothing")


async def bounded(awaitable: Awaitable[T]) -> T:
    return await asyncio.wait_for(awaitable, timeout=5)


async def connected_with(listener: RealtimeModelListener) -> ScriptedRealtimeModel:
    model = ScriptedRealtimeModel([RealtimeStep(expect=HELLO, emit=[ONE])])
    model.add_listener(listener)
    await bounded(model.connect({}))
    return model


@pytest.mark.asyncio
async def test_a_delivery_that_never_waits_is_done_without_a_turn_of_the_loop() -> None:
    received: list[Any] = []
    turns: list[str] = []

    class Quick(RealtimeModelListener):
        async def on_event(self, event: Any) -> None:
            received.append(event)

    model = await connected_with(Quick())
    other = asyncio.get_running_loop().call_soon(turns.append, "a turn of the loop")

    await model.send_event(HELLO)

    assert received == [ONE]
    assert turns == []  # nothing else ran in between
    assert model._delivery_worker is None
    other.cancel()


@pytest.mark.parametrize("waits", [False, True])
@pytest.mark.asyncio
async def test_a_listeners_context_changes_stay_inside_the_delivery(waits: bool) -> None:
    seen: list[str] = []
    entered, go = asyncio.Event(), asyncio.Event()

    class Teller(RealtimeModelListener):
        async def on_event(self, event: Any) -> None:
            TOLD.set("by the listener")
            if waits:
                entered.set()
                await go.wait()
            seen.append(TOLD.get())

    model = await connected_with(Teller())
    TOLD.set("by the caller")

    sending = asyncio.ensure_future(model.send_event(HELLO))
    if waits:
        await bounded(entered.wait())
        assert TOLD.get() == "by the caller"
        go.set()
    await bounded(sending)

    assert seen == ["by the listener"]
    assert TOLD.get() == "by the caller"


@pytest.mark.asyncio
async def test_a_listener_that_waits_goes_on_in_the_delivery_worker() -> None:
    entered, release = asyncio.Event(), asyncio.Event()
    after: list[asyncio.Task[Any] | None] = []

    class Waiting(RealtimeModelListener):
        async def on_event(self, event: Any) -> None:
            entered.set()
            await release.wait()
            after.append(asyncio.current_task())

    model = await connected_with(Waiting())
    sending = asyncio.ensure_future(model.send_event(HELLO))
    await bounded(entered.wait())
    worker = model._delivery_worker
    assert worker is not None
    assert worker is not sending

    release.set()
    await bounded(sending)
    assert after == [worker]


@pytest.mark.asyncio
async def test_a_listener_gets_the_outcome_of_what_it_waited_on() -> None:
    loop = asyncio.get_running_loop()
    failing: asyncio.Future[str] = loop.create_future()
    cancelled: asyncio.Future[str] = loop.create_future()
    outcomes: list[str] = []
    first, second = asyncio.Event(), asyncio.Event()

    class Waiting(RealtimeModelListener):
        async def on_event(self, event: Any) -> None:
            first.set()
            try:
                await failing
            except LookupError as error:
                outcomes.append(f"raised {error}")
            second.set()
            try:
                await cancelled
            except asyncio.CancelledError:
                outcomes.append("cancelled")

    model = await connected_with(Waiting())
    sending = asyncio.ensure_future(model.send_event(HELLO))
    await bounded(first.wait())
    failing.set_exception(LookupError("missing"))
    await bounded(second.wait())
    cancelled.cancel()

    await bounded(sending)
    assert outcomes == ["raised missing", "cancelled"]


@pytest.mark.asyncio
async def test_cancelling_the_worker_itself_ends_the_waiting_calls_and_frees_the_model() -> None:
    entered = asyncio.Event()

    class Stuck(RealtimeModelListener):
        async def on_event(self, event: Any) -> None:
            entered.set()
            await asyncio.Event().wait()

    model = await connected_with(Stuck())
    sending = asyncio.ensure_future(model.send_event(HELLO))
    await bounded(entered.wait())
    worker = model._delivery_worker
    assert worker is not None

    worker.cancel()
    with pytest.raises(asyncio.CancelledError):
        await bounded(sending)
    assert worker.cancelled()
    assert model._delivery_worker is None
    assert sending.done()
