"""Start-up cost of the import bridge.

Builds the wheels, installs them into a scratch virtualenv, and measures side by side
in one run:

1. interpreter start-up (``python -c pass``) with the ``.pth`` (and its PEP 829
   ``.start`` twin) installed, with them present but turned off
   (``AGENTS_TESTING_BRIDGE=0``), and with both removed;
2. the first ``import agents.testing`` (after ``import agents``) through the bridge,
   against the SDK's own ``agents.testing`` where the installed SDK ships one.

Run: ``uv run python benchmarks/bench_startup.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

FIRST_IMPORT = (
    "import time; import agents; t = time.perf_counter(); import agents.testing; "
    "print(time.perf_counter() - t)"
)
FIRST_MODEL = (
    "import time; import agents; t = time.perf_counter(); "
    "from agents.testing import ScriptedModel; print(time.perf_counter() - t)"
)


def _env(bridge: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("AGENTS_TESTING_BRIDGE", "VIRTUAL_ENV")}
    # Byte-code caching on, as in a normal install.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if bridge is not None:
        env["AGENTS_TESTING_BRIDGE"] = bridge
    return env


def _wall(python: Path, code: str, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([str(python), "-I", "-c", code], env=env, check=True)
    return time.perf_counter() - start


def _inner(python: Path, code: str, env: dict[str, str]) -> float:
    done = subprocess.run(
        [str(python), "-I", "-c", code], env=env, check=True, capture_output=True, text=True
    )
    return float(done.stdout)


def _scratch_venv(tmp: Path) -> Path:
    uv = shutil.which("uv")
    if uv is None:
        raise SystemExit("uv is needed: python -m pip install uv")
    dist = tmp / "dist"
    subprocess.run(
        [uv, "build", "--all-packages", "--wheel", "--no-sources", "-q", "-o", str(dist)],
        cwd=ROOT,
        check=True,
    )
    venv = tmp / "venv"
    subprocess.run([uv, "venv", "-q", "--python", sys.executable, str(venv)], check=True)
    python = venv / "bin" / "python"
    # The same SDK and client releases as the running environment.
    sdk = f"openai-agents[voice,realtime]=={version('openai-agents')}"
    client = f"openai=={version('openai')}"
    wheels = [str(w) for w in dist.glob("*.whl")]
    subprocess.run(
        [
            uv,
            "pip",
            "install",
            "-q",
            "--compile-bytecode",
            "--python",
            str(python),
            sdk,
            client,
            *wheels,
        ],
        check=True,
    )
    return python


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        python = _scratch_venv(Path(tmp))
        purelib = subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        pth = Path(purelib) / "agents-testing-bridge.pth"
        kept = pth.read_text()
        # Its PEP 829 twin, which Python 3.15+ runs instead of the .pth line: the
        # variant "without" leaves out both.
        start = Path(purelib) / "agents-testing-bridge.start"
        kept_start = start.read_text()

        on, off, absent = [], [], []
        for _ in range(3):  # warm the byte-code and file caches
            _wall(python, "pass", _env(None))
        for _ in range(args.runs):
            # Interleaved, so drift on the machine hits every variant alike.
            pth.write_text(kept)
            start.write_text(kept_start)
            on.append(_wall(python, "pass", _env(None)))
            off.append(_wall(python, "pass", _env("0")))
            pth.unlink()
            start.unlink()
            absent.append(_wall(python, "pass", _env(None)))
        pth.write_text(kept)
        start.write_text(kept_start)

        ours, builtin, ours_model, builtin_model = [], [], [], []
        has_builtin = (Path(purelib) / "agents" / "testing").is_dir()
        for _ in range(max(5, args.runs // 4)):
            ours.append(_inner(python, FIRST_IMPORT, _env(None)))
            ours_model.append(_inner(python, FIRST_MODEL, _env(None)))
            if has_builtin:
                builtin.append(_inner(python, FIRST_IMPORT, _env("0")))
                builtin_model.append(_inner(python, FIRST_MODEL, _env("0")))
        import_agents = [
            _inner(
                python,
                "import time; t = time.perf_counter(); import agents; "
                "print(time.perf_counter() - t)",
                _env(None),
            )
            for _ in range(max(5, args.runs // 4))
        ]

    med = statistics.median
    print(f"openai-agents {version('openai-agents')}, Python {sys.version.split()[0]}")
    print(f"interpreter start-up, median of {args.runs} runs (`python -I -c pass`):")
    print(f"  without the .pth        {med(absent) * 1e3:7.2f} ms   1.00x")
    print(f"  .pth, bridge off (=0)   {med(off) * 1e3:7.2f} ms   {med(off) / med(absent):.2f}x")
    print(f"  .pth, bridge on         {med(on) * 1e3:7.2f} ms   {med(on) / med(absent):.2f}x")
    print(f"  bridge on costs         {(med(on) - med(absent)) * 1e3:+7.2f} ms")
    print("first `import agents.testing` after `import agents`, median:")
    print(f"  import agents itself    {med(import_agents) * 1e3:7.2f} ms")
    print(f"  ours (bridge on)        {med(ours) * 1e3:7.2f} ms")
    if builtin:
        print(
            f"  SDK built-in (bridge 0) {med(builtin) * 1e3:7.2f} ms   "
            f"ours/built-in {med(ours) / med(builtin):.2f}x"
        )
    else:
        print("  SDK built-in            (this SDK release has none)")
    print("first `from agents.testing import ScriptedModel` after `import agents`, median:")
    print(f"  ours (bridge on)        {med(ours_model) * 1e3:7.2f} ms")
    if builtin_model:
        print(
            f"  SDK built-in (bridge 0) {med(builtin_model) * 1e3:7.2f} ms   "
            f"ours/built-in {med(ours_model) / med(builtin_model):.2f}x"
        )


if __name__ == "__main__":
    main()
