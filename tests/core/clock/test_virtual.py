"""The virtual clock: sleeps and timeouts pass at once, in order, on the loop's own time."""

from __future__ import annotations

import asyncio
import time
import warnings

import pytest
from agents import Agent, RunConfig, Runner, function_tool

from agents_testing.core import ClockWait, VirtualClock, VirtualClockError, virtual_clock
from agents_testing.model import ScriptedModel, assistant_message, function_call


@pytest.mark.asyncio
async def test_sleeps_pass_at_once_and_the_loop_time_is_what_they_add_up_to() -> None:
    loop = asyncio.get_running_loop()
    start = time.perf_counter()

    with virtual_clock() as clock:
        assert loop.time() == 0.0
        await asyncio.sleep(1.0)
        await asyncio.sleep(2.0)
        await asyncio.sleep(4.0)
        assert loop.time() == 7.0

    assert clock.now == 7.0
    assert clock.sleeps == [1.0, 2.0, 4.0]
    assert clock.waits == [
        ClockWait("sleep", 0.0, 1.0),
        ClockWait("sleep", 1.0, 2.0),
        ClockWait("sleep", 3.0, 4.0),
    ]
    assert time.perf_counter() - start < 5.0  # far less than 7 s, even on a busy machine


@pytest.mark.asyncio
async def test_a_timeout_fires_at_its_time_and_concurrent_sleeps_overlap() -> None:
    with virtual_clock() as clock:
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.sleep(100), timeout=30)
        assert clock.now == 30.0
        await asyncio.gather(asyncio.sleep(5), asyncio.sleep(3))

    assert clock.now == 35.0
    assert [(wait.kind, wait.at, wait.seconds) for wait in clock.waits] == [
        ("timeout", 0.0, 30.0),
        ("sleep", 0.0, 100.0),
        ("sleep", 30.0, 5.0),
        ("sleep", 30.0, 3.0),
    ]


@pytest.mark.asyncio
async def test_work_in_a_thread_takes_its_real_time_and_moves_no_timer_early() -> None:
    with virtual_clock() as clock:
        timer = asyncio.ensure_future(asyncio.sleep(10))
        await asyncio.to_thread(time.sleep, 0.05)
        assert not timer.done()  # the clock did not jump while the thread worked
        assert clock.now == 0.0
        await timer

    assert clock.now == 10.0


@pytest.mark.asyncio
async def test_a_timer_set_before_the_clock_keeps_its_distance_and_is_put_back_after() -> None:
    loop = asyncio.get_running_loop()
    fired: list[float] = []
    handle = loop.call_later(50, lambda: fired.append(loop.time()))

    with virtual_clock() as clock:
        await asyncio.sleep(60)

    assert fired == [pytest.approx(50.0, abs=0.5)]  # on the clock, 50 s after it began
    assert clock.now == 60.0
    late = loop.call_later(5, lambda: None)
    assert late.when() - loop.time() == pytest.approx(5, abs=0.5)  # real time again
    late.cancel()
    handle.cancel()


def test_around_asyncio_run_the_loop_is_adopted_when_it_first_reads_its_time() -> None:
    async def main() -> float:
        await asyncio.sleep(90)
        return asyncio.get_running_loop().time()

    with virtual_clock() as clock:
        assert asyncio.run(main()) == 90.0

    assert clock.sleeps == [90.0]


@pytest.mark.asyncio
async def test_advance_moves_the_time_on_by_hand() -> None:
    with virtual_clock() as clock:
        waiter = asyncio.ensure_future(asyncio.sleep(10))
        await asyncio.sleep(0)
        clock.advance(4)
        assert clock.now == 4.0
        clock.advance(6)
        await waiter

    assert clock.now == 10.0  # the sleep was due when advanced to: no further jump

    with pytest.raises(VirtualClockError, match="only moves forward"):
        VirtualClock().advance(-1)


@pytest.mark.asyncio
async def test_two_clocks_at_once_are_refused() -> None:
    with virtual_clock(), pytest.raises(VirtualClockError, match="already on"):
        virtual_clock().__enter__()


@function_tool
def lookup(city: str) -> str:
    """Look up a city."""
    return f"{city}: open"


@pytest.mark.asyncio
async def test_the_fixture_keeps_a_whole_run_on_the_clock(virtual_clock: VirtualClock) -> None:
    @function_tool
    async def slow_lookup(city: str) -> str:
        """Look up a city, slowly."""
        await asyncio.sleep(30)
        return f"{city}: open"

    model = ScriptedModel(
        [
            [function_call("slow_lookup", {"city": "Oslo"}, call_id="c1")],
            [assistant_message("Oslo is open.")],
        ]
    )
    start = time.perf_counter()

    result = await Runner.run(
        Agent(name="Desk", model=model, tools=[slow_lookup]),
        "Oslo?",
        run_config=RunConfig(tracing_disabled=True),
    )

    assert result.final_output == "Oslo is open."
    assert virtual_clock.sleeps == [30.0]
    assert virtual_clock.now == 30.0
    assert time.perf_counter() - start < 10.0


@pytest.mark.asyncio(loop_scope="module")
async def test_the_fixture_adopts_a_loop_shared_by_the_module(
    virtual_clock: VirtualClock,
) -> None:
    await asyncio.sleep(3600)

    assert virtual_clock.now == 3600.0
    assert virtual_clock.loop is asyncio.get_running_loop()


@pytest.mark.asyncio(loop_scope="module")
async def test_the_next_test_on_that_loop_gets_a_clock_of_its_own(
    virtual_clock: VirtualClock,
) -> None:
    await asyncio.sleep(1)

    assert virtual_clock.sleeps == [1.0]
    assert asyncio.get_running_loop().time() == 1.0


def test_a_loop_that_used_its_executor_shuts_it_down_in_real_time_under_the_clock() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, time.sleep, 0.01)
        await asyncio.sleep(5.0)

    with warnings.catch_warnings():
        # From Python 3.12 the loop waits for its executor's threads with a timeout of
        # 300 s on its own time: a clock that jumped would end the wait at once and warn.
        warnings.simplefilter("error", RuntimeWarning)
        with virtual_clock() as clock:
            asyncio.run(main())

    assert clock.sleeps == [5.0]
    assert clock.now == 5.0
