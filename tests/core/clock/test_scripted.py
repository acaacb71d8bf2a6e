"""Scripted waits: a double's delay passes on the loop's clock and is listed apart."""

from __future__ import annotations

import asyncio
import math
import time

import pytest

from agents_testing.core import ClockWait, VirtualClock, delay_problem, scripted_wait


@pytest.mark.asyncio
async def test_a_scripted_wait_passes_at_once_and_is_listed_as_scripted_not_as_a_sleep(
    virtual_clock: VirtualClock,
) -> None:
    start = time.perf_counter()

    await scripted_wait(30.0)
    await asyncio.sleep(1.0)

    assert virtual_clock.now == 31.0
    assert virtual_clock.waits == [ClockWait("scripted", 0.0, 30.0), ClockWait("sleep", 30.0, 1.0)]
    assert virtual_clock.sleeps == [1.0]
    assert time.perf_counter() - start < 5.0


@pytest.mark.asyncio
async def test_a_scripted_wait_resolved_early_ends_at_once_and_drops_its_timer(
    virtual_clock: VirtualClock,
) -> None:
    wait = scripted_wait(100.0)
    asyncio.get_running_loop().call_soon(wait.set_result, None)

    await wait

    assert virtual_clock.now == 0.0
    # The timer went with it: nothing is left for the clock to jump to.
    await asyncio.sleep(1.0)
    assert virtual_clock.now == 1.0


@pytest.mark.asyncio
async def test_cancelling_the_waiter_cancels_the_scripted_wait(virtual_clock: VirtualClock) -> None:
    waiter = asyncio.ensure_future(scripted_wait(50.0))

    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(waiter, 5.0)

    assert waiter.cancelled()
    assert virtual_clock.now == 5.0


@pytest.mark.asyncio
async def test_without_a_clock_a_short_scripted_wait_takes_its_real_time() -> None:
    loop = asyncio.get_running_loop()
    start = loop.time()

    await scripted_wait(0.01)

    assert loop.time() - start >= 0.009


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        (-1, ">= 0 (time only moves forward), got -1"),
        (math.nan, "finite"),
        (math.inf, "finite"),
        (True, "a number of seconds, got bool True"),
        ("5", "a number of seconds, got str '5'"),
        (None, "a number of seconds, got NoneType None"),
    ],
)
def test_a_delay_is_a_finite_number_of_seconds_not_below_zero(value: object, problem: str) -> None:
    found = delay_problem(value)

    assert found is not None
    assert problem in found


@pytest.mark.parametrize("value", [0, 0.0, 2, 2.5])
def test_zero_and_positive_delays_are_accepted(value: float) -> None:
    assert delay_problem(value) is None
