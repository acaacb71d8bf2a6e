"""Speed of the scripted sandbox session, side by side with the SDK's built-in one.

Two workloads: 10,000 scripted ``exec`` calls made straight on the session, and a
100-turn ``SandboxAgent`` run (one ``exec_command`` tool call per turn), timed whole and
inside the session's ``exec`` alone (the runner's own work is most of a run, and the
same for both sides). Each
measurement runs in one subprocess with the import bridge off, alternating ours
(``agents_testing.sandbox``) with the SDK's own double (0.21 and later, through its
public ``agents.testing`` API), so machine noise hits both sides alike. Both runs use
the same model double, so the ratio isolates the session. Times are CPU time of the
measuring process (the work is single-threaded), so load from other processes on the
machine does not leak into the ratio.

Run: ``uv run --no-sync python benchmarks/bench_sandbox.py``
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

EXEC_CALLS = 10_000
TURNS = 100
REPEATS = 15


def _session_factory(which: str) -> Callable[..., Any]:
    if which == "ours":
        from agents_testing.sandbox import scripted_sandbox_session

        return scripted_sandbox_session
    # The SDK's own double, through its documented public API only.
    from agents.testing import scripted_sandbox_session as builtin

    return builtin  # type: ignore[no-any-return]


async def _exec_calls(factory: Callable[..., Any]) -> float:
    from agents.sandbox import ExecResult

    result = ExecResult(stdout=b"ok\n", stderr=b"", exit_code=0)
    sandbox = factory([{"method": "exec", "result": result} for _ in range(EXEC_CALLS)])
    async with sandbox:
        start = time.process_time()
        for index in range(EXEC_CALLS):
            await sandbox.exec("echo", str(index))
        elapsed = time.process_time() - start
    sandbox.assert_complete()
    return elapsed


async def _agent_run(factory: Callable[..., Any]) -> tuple[float, float]:
    from agents import RunConfig, Runner
    from agents.run_config import SandboxRunConfig
    from agents.sandbox import ExecResult, SandboxAgent
    from agents.sandbox.capabilities import Shell

    from agents_testing.model import ScriptedModel, assistant_message, function_call

    result = ExecResult(stdout=b"ok\n", stderr=b"", exit_code=0)
    sandbox = factory([{"method": "exec", "result": result} for _ in range(TURNS)])
    model = ScriptedModel(
        [
            *(
                [function_call("exec_command", {"cmd": f"echo {turn}"}, call_id=f"c{turn}")]
                for turn in range(TURNS)
            ),
            [assistant_message("done")],
        ]
    )
    agent = SandboxAgent(name="bench", model=model, capabilities=[Shell()])
    config = RunConfig(sandbox=SandboxRunConfig(session=sandbox), tracing_disabled=True)
    inside = [0.0]
    exec_ = sandbox.exec

    async def timed_exec(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return await exec_(*args, **kwargs)
        finally:
            inside[0] += time.process_time() - start

    # An instance attribute shadows the method the capability looks up.
    sandbox.exec = timed_exec
    async with sandbox:
        start = time.process_time()
        await Runner.run(agent, "go", run_config=config, max_turns=TURNS + 5)
        elapsed = time.process_time() - start
    sandbox.assert_complete()
    return elapsed, inside[0]


def _measure(sides: list[str]) -> dict[str, dict[str, float]]:
    factories = {side: _session_factory(side) for side in sides}
    best: dict[str, dict[str, float]] = {side: {} for side in sides}
    for repeat in range(REPEATS):
        # Alternate which side goes first, and start each from a collected heap.
        for side in sides if repeat % 2 == 0 else sides[::-1]:
            gc.collect()
            timings = {"exec": asyncio.run(_exec_calls(factories[side]))}
            gc.collect()
            timings["run"], timings["run-exec"] = asyncio.run(_agent_run(factories[side]))
            for key, elapsed in timings.items():
                best[side][key] = min(elapsed, best[side].get(key, elapsed))
    return best


def _child(sides: list[str]) -> dict[str, dict[str, float]]:
    env = dict(os.environ, AGENTS_TESTING_BRIDGE="0")
    done = subprocess.run(
        [sys.executable, __file__, "--child", *sides],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        raise SystemExit("the benchmark subprocess failed")
    payload: dict[str, dict[str, float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return payload


def main() -> None:
    from agents_testing.core import compat

    sides = ["ours", "builtin"] if compat.has_builtin_testing() else ["ours"]
    timings = _child(sides)
    ours = timings["ours"]
    builtin = timings.get("builtin")
    print(f"openai-agents {'.'.join(map(str, compat.sdk_version()))}; best of {REPEATS}")
    rows = [
        (f"{EXEC_CALLS:,} exec calls on the session", "exec"),
        (f"{TURNS}-turn SandboxAgent run", "run"),
        ("  of which inside the session's exec", "run-exec"),
    ]
    print(f"{'workload':<38}{'ours':>12}{'built-in':>12}{'built-in/ours':>15}")
    for label, key in rows:
        if builtin is None:
            print(f"{label:<38}{ours[key] * 1000:>10.1f}ms{'(none)':>12}{'-':>15}")
            continue
        ratio = builtin[key] / ours[key]
        print(
            f"{label:<38}{ours[key] * 1000:>10.1f}ms{builtin[key] * 1000:>10.1f}ms{ratio:>14.2f}x"
        )


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        print(json.dumps(_measure(sys.argv[2:])))
    else:
        main()
