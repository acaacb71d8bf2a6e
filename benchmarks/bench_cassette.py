"""Cost of replaying a cassette, against the same steps written as a ``ScriptedModel`` script.

1. A tool loop of N turns (N function calls, then a final answer: N + 1 model calls) is
   recorded once into a cassette (the recorded model is a ``ScriptedModel`` running the
   same script, with usage and response ids as a provider gives them, so no provider is
   needed). Then, side by side in one run, the loop runs
   through ``Runner.run`` and ``Runner.run_streamed`` with ``ScriptedModel(script)`` and
   with ``ModelCassette(path).replay()``. The figure is the time spent inside the
   model's methods (the replay also compares every request with the recorded one);
   the target is at most 1.2x.
2. A 1,000-call cassette (100 conversations of 10 model calls each) is loaded with
   ``ModelCassette(path).replay()`` and then replayed; the target is a load time under
   10% of the replayed runs' wall time.

Run: ``uv run --no-sync python benchmarks/bench_cassette.py [--turns 200] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _stopwatch import Stopwatch

LIMIT_REPLAY = 1.2
LIMIT_LOAD = 0.10


def _script(turns: int, tag: str = "") -> list[Any]:
    """The loop's steps as a provider answers them: output, usage and a response id.

    A recording always holds usage and a response id, so the script carries them too:
    the replay and the script then run exactly the same steps.
    """
    from agents.usage import Usage

    from agents_testing.model import ModelStep, assistant_message, function_call

    outputs: list[Any] = [
        [function_call("step", {"n": n}, call_id=f"call{tag}_{n}")] for n in range(turns)
    ]
    outputs.append([assistant_message("done")])
    return [
        ModelStep(
            output=output,
            usage=Usage(requests=1, input_tokens=20 + n, output_tokens=5, total_tokens=25 + n),
            response_id=f"resp{tag}_{n}",
        )
        for n, output in enumerate(outputs)
    ]


async def _run(model: Any, turns: int, mode: str, text: str = "loop") -> None:
    from agents import Agent, RunConfig, Runner, function_tool

    @function_tool
    def step(n: int) -> str:
        """One step of the loop."""
        return f"step {n} ok"

    agent = Agent(name="Looper", model=model, tools=[step])
    config = RunConfig(tracing_disabled=True)
    if mode == "run":
        result: Any = await Runner.run(agent, text, run_config=config, max_turns=turns + 5)
    else:
        result = Runner.run_streamed(agent, text, run_config=config, max_turns=turns + 5)
        async for _ in result.stream_events():
            pass
    if result.final_output != "done":
        raise SystemExit(f"unexpected final output {result.final_output!r}")


def _record(path: Path, turns: int, mode: str) -> None:
    from agents_testing.model import ModelCassette, ScriptedModel

    cassette = ModelCassette(path)
    asyncio.run(_run(cassette.record(ScriptedModel(_script(turns))), turns, mode))
    cassette.save()


def _inside(make: Callable[[], Any], turns: int, mode: str) -> float:
    model = make()
    watch = Stopwatch(model)
    gc.collect()
    asyncio.run(_run(model, turns, mode))
    return watch.seconds


def bench_replay(folder: Path, turns: int, repeat: int) -> list[tuple[str, float, float]]:
    from agents_testing.model import ModelCassette, ScriptedModel

    rows = []
    for mode in ("run", "run_streamed"):
        path = folder / f"loop-{mode}.json"
        _record(path, turns, mode)
        scripted, replayed = [], []
        for _ in range(repeat):
            scripted.append(_inside(lambda: ScriptedModel(_script(turns)), turns, mode))
            replayed.append(_inside(lambda p=path: ModelCassette(p).replay(), turns, mode))
        rows.append((mode, min(scripted), min(replayed)))
    return rows


def bench_load(folder: Path, conversations: int, turns: int) -> tuple[int, float, float]:
    from agents_testing.model import ModelCassette, ScriptedModel

    path = folder / "thousand.json"
    cassette = ModelCassette(path)
    steps: list[Any] = []
    for index in range(conversations):
        steps.extend(_script(turns - 1, tag=f"_{index}"))
    recorder = cassette.record(ScriptedModel(steps))

    async def all_runs(model: Any) -> None:
        for index in range(conversations):
            await _run(model, turns - 1, "run", text=f"conversation {index}")

    asyncio.run(all_runs(recorder))
    cassette.save()

    gc.collect()
    start = time.perf_counter()
    model = ModelCassette(path).replay()
    load = time.perf_counter() - start
    start = time.perf_counter()
    asyncio.run(all_runs(model))
    wall = time.perf_counter() - start
    model.assert_complete()
    return model.recorded_calls, load, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    failed = False
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        print(f"Replay vs ScriptedModel, {options.turns}-turn tool loop (s inside the model)")
        print(f"{'mode':<14}{'script':>10}{'replay':>10}{'ratio':>8}  limit {LIMIT_REPLAY}x")
        for mode, scripted, replayed in bench_replay(folder, options.turns, options.repeat):
            ratio = replayed / scripted
            failed |= ratio > LIMIT_REPLAY
            print(f"{mode:<14}{scripted:>10.4f}{replayed:>10.4f}{ratio:>7.2f}x")
        calls, load, wall = bench_load(folder, 100, 10)
        share = load / wall
        failed |= share > LIMIT_LOAD
        print(f"\nLoading a {calls}-call cassette vs replaying it (wall s)")
        print(f"{'load':>10}{'replay':>10}{'share':>8}  limit {LIMIT_LOAD:.0%}")
        print(f"{load:>10.4f}{wall:>10.4f}{share:>7.1%}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
