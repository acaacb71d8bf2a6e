"""Scripted send/emit round trips through a real ``RealtimeSession``.

Each round trip is ``session.send_message(...)``, the scripted model matching the send
against its next step, emitting one incoming event, and the test reading that event
back from the session. ``ScriptedRealtimeModel`` from this project runs side by side
with the SDK's built-in scripted realtime model where the installed SDK has one
(0.21 and later), each in its own subprocess: the SDK's with ``AGENTS_TESTING_BRIDGE=0``
so that ``agents.realtime.testing`` is the SDK's own module, used through its public
API only. Runs alternate between the two; the best of several runs counts.

Run: ``uv run --no-sync python benchmarks/bench_realtime.py [--round-trips N] [--runs R]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from typing import Any

KINDS = ("value", "class", "predicate")


def _bare() -> tuple[Any, Any]:
    """The floor: a hand-written model that neither matches nor records sends."""
    from collections import deque

    from agents.realtime.model import RealtimeModel

    class BareStep:
        def __init__(self, expect: Any, emit: list[Any]) -> None:
            self.emit = emit

    class BareModel(RealtimeModel):
        def __init__(self, steps: list[BareStep]) -> None:
            self._steps = deque(steps)
            self._listeners: list[Any] = []

        async def connect(self, options: Any) -> None:
            pass

        def add_listener(self, listener: Any) -> None:
            self._listeners.append(listener)

        def remove_listener(self, listener: Any) -> None:
            self._listeners.remove(listener)

        async def send_event(self, event: Any) -> None:
            for incoming in self._steps.popleft().emit:
                for listener in self._listeners:
                    await listener.on_event(incoming)

        async def close(self) -> None:
            pass

        def assert_complete(self) -> None:
            assert not self._steps

    return BareStep, BareModel


def _load(impl: str) -> tuple[Any, Any]:
    if impl == "bare":
        return _bare()
    if impl == "sdk":
        from agents.realtime import testing as builtin

        if builtin.__name__ != "agents.realtime.testing" or "agents_testing" in repr(builtin):
            raise SystemExit("the bridge is on: run the SDK worker with AGENTS_TESTING_BRIDGE=0")
        return builtin.RealtimeStep, builtin.ScriptedRealtimeModel
    from agents_testing.realtime import RealtimeStep, ScriptedRealtimeModel

    return RealtimeStep, ScriptedRealtimeModel


async def _round_trips(impl: str, kind: str, count: int) -> float:
    from agents.realtime import (
        RealtimeAgent,
        RealtimeModelOtherEvent,
        RealtimeModelSendUserInput,
        RealtimeRawModelEvent,
        RealtimeRunner,
    )

    step_class, model_class = _load(impl)
    messages = [f"message {index}" for index in range(count)]
    replies = [RealtimeModelOtherEvent(data=index) for index in range(count)]

    def expectation(message: str) -> Any:
        if kind == "value":
            return RealtimeModelSendUserInput(user_input=message)
        if kind == "class":
            return RealtimeModelSendUserInput
        return lambda event: (
            isinstance(event, RealtimeModelSendUserInput) and event.user_input == message
        )

    steps = [
        step_class(expect=expectation(message), emit=[reply])
        for message, reply in zip(messages, replies, strict=True)
    ]
    model = model_class(steps)
    runner = RealtimeRunner(
        RealtimeAgent(name="Bench"), model=model, config={"tracing_disabled": True}
    )
    async with await runner.run() as session:
        events = session.__aiter__()
        started = time.perf_counter()
        for message, reply in zip(messages, replies, strict=True):
            await session.send_message(message)
            while True:
                event = await events.__anext__()
                if isinstance(event, RealtimeRawModelEvent) and event.data == reply:
                    break
        elapsed = time.perf_counter() - started
        await events.aclose()
    model.assert_complete()
    return elapsed


def _worker(impl: str, count: int) -> None:
    timings = {kind: asyncio.run(_round_trips(impl, kind, count)) for kind in KINDS}
    print(json.dumps(timings))


def _run_worker(impl: str, count: int) -> dict[str, float]:
    env = dict(os.environ)
    if impl == "sdk":
        env["AGENTS_TESTING_BRIDGE"] = "0"
    command = [sys.executable, __file__, "--worker", impl, "--round-trips", str(count)]
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"{impl} worker failed:\n{result.stderr}")
    timings: dict[str, float] = json.loads(result.stdout.strip().splitlines()[-1])
    return timings


def _has_builtin() -> bool:
    from agents_testing.core import compat

    return compat.has_builtin_testing()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--round-trips", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--worker", choices=("bare", "ours", "sdk"))
    args = parser.parse_args()
    if args.worker:
        _worker(args.worker, args.round_trips)
        return

    from agents_testing.core import compat

    version = ".".join(map(str, compat.sdk_version()))
    impls = ("bare", "ours", "sdk") if _has_builtin() else ("bare", "ours")
    count = args.round_trips
    print(f"openai-agents {version}: {count:,} send/emit round trips per run, ", end="")
    print(f"best of {args.runs} runs")
    if len(impls) == 2:
        print("(this SDK release has no built-in scripted realtime model to compare with)")
    print("bare = a hand-written model that neither matches nor records (the session's own cost)")
    header = (
        f"{'expect':<10} {'bare µs/rt':>11} {'ours (s)':>9} {'ours µs/rt':>11} {'ours/bare':>10}"
    )
    if len(impls) == 3:
        header += f" {'sdk (s)':>9} {'sdk µs/rt':>10} {'sdk/ours':>9}"
    print(header)
    best = {(impl, kind): float("inf") for impl in impls for kind in KINDS}
    for _ in range(args.runs):
        # Alternate the implementations so drift in machine load hits both alike.
        for impl in impls:
            for kind, elapsed in _run_worker(impl, count).items():
                best[impl, kind] = min(best[impl, kind], elapsed)
    slower = False
    for kind in KINDS:
        ours, bare = best["ours", kind], best["bare", kind]
        line = f"{kind:<10} {bare / count * 1e6:>11.1f} {ours:>9.3f} {ours / count * 1e6:>11.1f}"
        line += f" {ours / bare:>9.2f}x"
        if len(impls) == 3:
            sdk = best["sdk", kind]
            slower = slower or sdk < ours
            line += f" {sdk:>9.3f} {sdk / count * 1e6:>10.1f} {sdk / ours:>8.2f}x"
        print(line)
    if slower:
        print("ours is slower than the SDK's built-in model for at least one kind")
        sys.exit(1)


if __name__ == "__main__":
    main()
