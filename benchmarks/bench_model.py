"""Time and memory of ``ScriptedModel`` in long tool loops, against a floor and the SDK's own.

A tool loop of N turns (each turn one function call, then a final answer: N + 1 model
calls) runs through ``Runner.run`` and ``Runner.run_streamed`` for each N, side by side
in one benchmark run, with three models:

- ``floor``: a bare ``Model`` subclass that returns prebuilt responses (prebuilt
  stream events when streamed) and records nothing;
- ``ours``: ``agents_testing.model.ScriptedModel``;
- ``builtin``: the SDK's own ``agents.testing.ScriptedModel`` with the import bridge
  off (``AGENTS_TESTING_BRIDGE=0``), only where the installed SDK ships one, used
  purely through its documented public API.

The floor prebuilds only what the measured mode consumes, so it holds nothing of its
own after the run: what it holds then is what the SDK itself keeps.

The runner's own cost dominates the wall time (and is itself quadratic in N), so the
figures that matter are the time spent inside the model's methods (awaiting
``get_response``; creating the ``stream_response`` iterator and each step of it) and
the memory still held after the run by the model and its recorded calls
(``tracemalloc``, minus what the floor holds). Time and memory come from separate
runs, so tracing allocations does not distort the timings. Each model runs in its own
worker process.

Timings on a shared machine drift by tens of percent from one minute to the next, so
each model is timed in ``--rounds`` rounds (three by default), the three models taking
turns within a round, and the fastest run of each counts, as ``timeit`` advises.

``--bound`` adds a fourth, time-only model, ``bound``: ours made to trust that every
call's conversation starts with the one its last call saw, so it checks and copies only
the items that are new. That is wrong (a changed earlier item would be recorded as it
was), so it is only a measurement: the time no exact check of the conversation can go
below, since an exact one must look at every item again.

Run: ``uv run --no-sync python benchmarks/bench_model.py [--quick] [--sizes 50,100] [--bound]``.
The full run takes about twelve minutes on an idle two-core machine, most of it in the
runs at N = 400 (``tracemalloc`` slows a run about fivefold); ``--quick`` (N = 50 and
200) takes about four, ``--sizes 200`` about three and a half.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import importlib
import json
import os
import subprocess
import sys
import time
import tracemalloc
from collections import deque
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from _stopwatch import Stopwatch

SIZES = (50, 100, 200, 400)
QUICK_SIZES = (50, 200)
MODES = ("run", "run_streamed")
KINDS = ("floor", "ours", "builtin")
BOUND = "bound"
CHECKED_SIZES = (200, 400)
LIMIT = 0.10
ROUNDS = 3


# -- worker side ------------------------------------------------------------------------


def _floor_model(turns: int, mode: str) -> Any:
    from agents import ModelResponse, Usage
    from openai.types.responses import (
        Response,
        ResponseCompletedEvent,
        ResponseCreatedEvent,
        ResponseFunctionToolCall,
        ResponseOutputItemAddedEvent,
        ResponseOutputItemDoneEvent,
        ResponseOutputMessage,
        ResponseOutputText,
        ResponseUsage,
    )
    from openai.types.responses.response_usage import InputTokensDetails, OutputTokensDetails

    outputs: list[Any] = [
        ResponseFunctionToolCall(
            type="function_call",
            name="step",
            arguments=f'{{"n": {n}}}',
            call_id=f"call_{n}",
            status="completed",
        )
        for n in range(turns)
    ]
    outputs.append(
        ResponseOutputMessage(
            id="msg_final",
            type="message",
            role="assistant",
            status="completed",
            content=[ResponseOutputText(type="output_text", text="done", annotations=[])],
        )
    )
    usage = ResponseUsage(
        input_tokens=0,
        output_tokens=0,
        total_tokens=0,
        input_tokens_details=InputTokensDetails.model_construct(cached_tokens=0),
        output_tokens_details=OutputTokensDetails.model_construct(reasoning_tokens=0),
    )

    def events(index: int, item: Any) -> list[Any]:
        def response(output: list[Any], status: str) -> Response:
            return Response.model_construct(
                id=f"resp_{index}",
                object="response",
                created_at=0.0,
                model="floor",
                output=output,
                parallel_tool_calls=False,
                tool_choice="auto",
                tools=[],
                status=status,
                usage=usage if output else None,
            )

        return [
            ResponseCreatedEvent.model_construct(
                type="response.created", sequence_number=0, response=response([], "in_progress")
            ),
            ResponseOutputItemAddedEvent.model_construct(
                type="response.output_item.added", sequence_number=1, output_index=0, item=item
            ),
            ResponseOutputItemDoneEvent.model_construct(
                type="response.output_item.done", sequence_number=2, output_index=0, item=item
            ),
            ResponseCompletedEvent.model_construct(
                type="response.completed",
                sequence_number=3,
                response=response([item], "completed"),
            ),
        ]

    # Only what the mode consumes, so that nothing is left in the floor after the run.
    if mode == "run":
        responses = [
            ModelResponse(output=[item], usage=Usage(requests=1), response_id=f"resp_{i}")
            for i, item in enumerate(outputs)
        ]
        return _floor_class()(responses, [])
    return _floor_class()([], [events(i, item) for i, item in enumerate(outputs)])


def _floor_class() -> type[Any]:
    from agents.models.interface import Model

    class FloorModel(Model):
        """Returns prebuilt responses in order and records nothing.

        It keeps only the queues, which are empty after the run, so what it holds
        afterwards is what the SDK itself retains.
        """

        def __init__(self, responses: list[Any], streams: list[list[Any]]) -> None:
            self.responses = deque(responses)
            self.streams = deque(streams)

        async def get_response(self, *args: Any, **kwargs: Any) -> Any:
            return self.responses.popleft()

        async def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
            for event in self.streams.popleft():
                yield event

    return FloorModel


def _scripted_model(kind: str, turns: int) -> Any:
    if kind == "ours":
        testing: Any = importlib.import_module("agents_testing.model")
    else:
        # The SDK's own double, imported with the bridge off; public API only.
        testing = importlib.import_module("agents.testing")
    steps: list[Any] = [
        [testing.function_call("step", {"n": n}, call_id=f"call_{n}")] for n in range(turns)
    ]
    steps.append([testing.assistant_message("done")])
    return testing.ScriptedModel(steps)


def _make_model(kind: str, turns: int, mode: str) -> Any:
    if kind == "floor":
        return _floor_model(turns, mode)
    return _scripted_model("ours" if kind == BOUND else kind, turns)


def _trust_earlier_items() -> None:
    """Make ours check and copy only the items its last call did not see (``--bound``).

    Wrong on purpose, for measurement only: an earlier item that changed would be
    recorded as it was before.
    """
    from agents_testing.core._detach import cache

    flat: Any = cache._Flat
    check = flat.grow

    def grow(self: Any, items: Any, *, plain: bool) -> str:
        count = len(self.sizes)
        if not count or len(items) < count:
            return check(self, items, plain=plain)  # type: ignore[no-any-return]
        tail = flat()
        found: str = check(tail, items[count:], plain=plain)
        if found is cache._GROWN:
            self.extend(tail)
        return found

    flat.grow = grow


async def _run_loop(model: Any, turns: int, mode: str) -> None:
    from agents import Agent, RunConfig, Runner, function_tool

    @function_tool
    def step(n: int) -> str:
        """One step of the loop."""
        return f"step {n} ok"

    agent = Agent(name="Looper", model=model, tools=[step])
    config = RunConfig(tracing_disabled=True)
    if mode == "run":
        result: Any = await Runner.run(agent, "loop", run_config=config, max_turns=turns + 5)
    else:
        result = Runner.run_streamed(agent, "loop", run_config=config, max_turns=turns + 5)
        async for _ in result.stream_events():
            pass
    if result.final_output != "done":
        raise SystemExit(f"unexpected final output {result.final_output!r}")


def _measure_time(kind: str, turns: int, mode: str) -> tuple[float, float]:
    model = _make_model(kind, turns, mode)
    watch = Stopwatch(model)
    gc.collect()
    # Cyclic collections would charge the runner's garbage to whichever code happens
    # to allocate when one triggers; without them the model's time is its own.
    gc.disable()
    try:
        start = time.perf_counter()
        asyncio.run(_run_loop(model, turns, mode))
        wall = time.perf_counter() - start
    finally:
        gc.enable()
    return watch.seconds, wall


def _measure_memory(kind: str, turns: int, mode: str) -> int:
    gc.collect()
    tracemalloc.start()
    gc.disable()  # as in the timed run; the collection below finds every cycle
    try:
        model = _make_model(kind, turns, mode)
        asyncio.run(_run_loop(model, turns, mode))
    finally:
        gc.enable()
    gc.collect()
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    if kind != "floor" and len(model.calls) != turns + 1:
        raise SystemExit(f"{kind} recorded {len(model.calls)} calls, expected {turns + 1}")
    del model
    return held


def _worker(kind: str, metric: str, sizes: tuple[int, ...]) -> None:
    if kind == "builtin":
        from agents_testing.core import compat

        if not compat.has_builtin_testing():
            print(json.dumps({"unavailable": True}), flush=True)
            return
    if kind == BOUND:
        _trust_earlier_items()
    for mode in MODES:
        for turns in sizes:
            _measure_time(kind, 5, mode)  # warm imports and caches before measuring
            row: dict[str, Any] = {"mode": mode, "turns": turns}
            if metric == "time":
                row["inside"], row["wall"] = _measure_time(kind, turns, mode)
            else:
                row["held"] = _measure_memory(kind, turns, mode)
            print(json.dumps(row), flush=True)


# -- coordinator side -----------------------------------------------------------------


def _worker_rows(kind: str, metric: str, sizes: tuple[int, ...]) -> list[dict[str, Any]]:
    env = dict(os.environ)
    env["AGENTS_TESTING_BRIDGE"] = "0" if kind == "builtin" else "1"
    command = [sys.executable, __file__, "--worker", kind, "--metric", metric]
    command += ["--sizes", ",".join(map(str, sizes))]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{kind} {metric} worker failed:\n{done.stderr}")
    return [json.loads(line) for line in done.stdout.splitlines()]


def _collect(
    jobs: list[tuple[str, str]], sizes: tuple[int, ...], parallel: int
) -> dict[str, dict[tuple[str, int], dict[str, float]]]:
    """Run the workers, ``parallel`` at a time; merge their rows per model kind.

    A kind's job may be listed more than once (rounds): each figure keeps its lowest.
    """
    results: dict[str, dict[tuple[str, int], dict[str, float]]] = {
        kind: {} for kind in (*KINDS, BOUND)
    }
    unavailable: set[str] = set()
    with ThreadPoolExecutor(max_workers=parallel) as pool:
        futures = [(job, pool.submit(_worker_rows, *job, sizes)) for job in jobs]
    for (kind, _metric), future in futures:
        for row in future.result():
            if row.get("unavailable"):
                unavailable.add(kind)
                break
            known = results[kind].setdefault((row["mode"], row["turns"]), {})
            for name, value in row.items():
                known[name] = min(value, known.get(name, value))
    for kind in unavailable:
        results[kind] = {}
    return results


def _mb(value: float) -> str:
    return f"{value / 1e6:7.2f}"


def _ratio(value: float, reference: float) -> str:
    return f"{value / reference:6.3f}" if reference > 0 else "   n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"only N in {QUICK_SIZES}")
    parser.add_argument("--sizes", help="comma-separated N values, e.g. 50,100")
    parser.add_argument(
        "--parallel", type=int, default=2, help="memory workers at a time (default 2)"
    )
    parser.add_argument(
        "--rounds", type=int, default=ROUNDS, help=f"timing rounds (default {ROUNDS})"
    )
    parser.add_argument(
        "--bound",
        action="store_true",
        help="also time ours checking only the new items of each call (a lower bound)",
    )
    parser.add_argument("--worker", choices=(*KINDS, BOUND), help=argparse.SUPPRESS)
    parser.add_argument("--metric", choices=("time", "memory"), help=argparse.SUPPRESS)
    options = parser.parse_args()
    sizes: tuple[int, ...] = QUICK_SIZES if options.quick else SIZES
    if options.sizes:
        sizes = tuple(int(part) for part in options.sizes.split(","))
    if options.worker:
        _worker(options.worker, options.metric or "time", sizes)
        return

    from importlib.metadata import version

    # Timing workers run one at a time, alone, so no other worker disturbs the CPU
    # caches they measure; the memory workers (tracemalloc is slow) then share the cores.
    timed_kinds = (*KINDS, BOUND) if options.bound else KINDS
    timed = _collect(
        [(kind, "time") for _ in range(max(1, options.rounds)) for kind in timed_kinds], sizes, 1
    )
    held = _collect([(kind, "memory") for kind in KINDS], sizes, max(1, options.parallel))
    results = {
        kind: {
            key: {**timed[kind].get(key, {}), **held[kind].get(key, {})}
            for key in timed[kind].keys() | held[kind].keys()
        }
        for kind in KINDS
    }
    builtin = results["builtin"]
    print(f"openai-agents {version('openai-agents')}; N turns = N + 1 model calls")
    print("inside = seconds inside the model's methods; held = MB retained after the run")
    print("held for scripted models is net of the floor's; ratios are ours / built-in")
    print(f"times are the fastest of {max(1, options.rounds)} interleaved rounds")
    header = (
        f"{'mode':<13}{'N':>5} | {'floor in':>8} {'ours in':>8} {'built in':>8} "
        f"{'ratio':>6} | {'ours MB':>7} {'bi MB':>7} {'ratio':>6} | {'ours wall':>9} "
        f"{'bi wall':>8}"
    )
    print(header)
    print("-" * len(header))
    failures: list[str] = []
    for mode in MODES:
        for turns in sizes:
            floor = results["floor"][(mode, turns)]
            ours = results["ours"][(mode, turns)]
            ours_held = ours["held"] - floor["held"]
            line = f"{mode:<13}{turns:>5} | {floor['inside']:8.3f} {ours['inside']:8.3f} "
            if builtin:
                theirs = builtin[(mode, turns)]
                theirs_held = theirs["held"] - floor["held"]
                time_ratio = ours["inside"] / theirs["inside"]
                held_ratio = ours_held / theirs_held if theirs_held > 0 else 0.0
                line += (
                    f"{theirs['inside']:8.3f} {_ratio(ours['inside'], theirs['inside'])} | "
                    f"{_mb(ours_held)} {_mb(theirs_held)} {_ratio(ours_held, theirs_held)} | "
                    f"{ours['wall']:9.2f} {theirs['wall']:8.2f}"
                )
                if turns in CHECKED_SIZES and (time_ratio > LIMIT or held_ratio > LIMIT):
                    failures.append(f"{mode} N={turns}")
            else:
                line += (
                    f"{'-':>8} {'-':>6} | {_mb(ours_held)} {'-':>7} {'-':>6} | "
                    f"{ours['wall']:9.2f} {'-':>8}"
                )
            print(line)
    if not builtin:
        print("The installed SDK has no built-in ScriptedModel; compared with the floor only.")
    elif failures:
        print(f"Above {LIMIT:.2f} of the built-in at: {', '.join(failures)}")
    else:
        checked = [n for n in sizes if n in CHECKED_SIZES]
        if checked:
            print(f"Within {LIMIT:.2f} of the built-in in time and memory at N = {checked}.")
    if options.bound and builtin:
        print()
        print("bound = ours checking and copying only each call's new items: wrong, a floor")
        print(f"{'mode':<13}{'N':>5} | {'bound in':>8} {'built in':>8} {'ratio':>6}")
        for mode in MODES:
            for turns in sizes:
                floor_time = timed[BOUND][(mode, turns)]["inside"]
                their_time = builtin[(mode, turns)]["inside"]
                print(
                    f"{mode:<13}{turns:>5} | {floor_time:8.3f} {their_time:8.3f} "
                    f"{_ratio(floor_time, their_time)}"
                )


if __name__ == "__main__":
    main()
