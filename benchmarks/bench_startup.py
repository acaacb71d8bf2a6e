"""Start-up cost of the import bridge and of the pytest plugins.

Builds the wheels, installs them (with the running environment's SDK, openai and pytest
releases, byte-code compiled as ``pip install`` does) into a scratch virtualenv, and
measures side by side in one run:

1. interpreter start-up (``python -c pass``) with the ``.pth`` (and its PEP 829
   ``.start`` twin) installed, with them present but turned off
   (``AGENTS_TESTING_BRIDGE=0``), and with both removed;
2. the first ``import agents.testing`` and the first
   ``from agents.testing import ScriptedModel`` (after ``import agents``) through the
   bridge, against the SDK's own module where the installed SDK ships one;
3. ``pytest --collect-only`` of a test file that uses nothing of ours, with our six
   plugins loaded and with each turned off (``-p no:...``).

Each variant is run ``--runs`` times, interleaved so that drift on the machine hits every
variant alike; the medians are printed. The default (10 runs) takes about a minute and a
half on a two-core machine; ``--runs 40`` gives steadier figures in about five minutes.

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
from collections.abc import Sequence
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
PLUGINS = ("core", "model", "sandbox", "realtime", "voice", "mcp")
NO_PLUGINS = tuple(arg for name in PLUGINS for arg in ("-p", f"no:agents_testing_{name}"))


def _progress(message: str) -> None:
    print(f"[bench_startup] {message}", file=sys.stderr, flush=True)


def _env(bridge: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("AGENTS_TESTING_BRIDGE", "VIRTUAL_ENV")}
    # Byte-code caching on, as in a normal install.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if bridge is not None:
        env["AGENTS_TESTING_BRIDGE"] = bridge
    return env


def _wall(python: Path, args: Sequence[str], env: dict[str, str], cwd: Path | None = None) -> float:
    start = time.perf_counter()
    subprocess.run([str(python), *args], env=env, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
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
    _progress("building the wheels")
    subprocess.run(
        [uv, "build", "--all-packages", "--wheel", "--no-sources", "-q", "-o", str(dist)],
        cwd=ROOT,
        check=True,
    )
    venv = tmp / "venv"
    subprocess.run([uv, "venv", "-q", "--python", sys.executable, str(venv)], check=True)
    python = venv / "bin" / "python"
    # The same SDK, client and pytest releases as the running environment.
    pins = [
        f"openai-agents[voice,realtime]=={version('openai-agents')}",
        f"openai=={version('openai')}",
        f"pytest=={version('pytest')}",
    ]
    wheels = [str(w) for w in dist.glob("*.whl")]
    _progress("installing them with the SDK into a scratch virtualenv")
    subprocess.run(
        [uv, "pip", "install", "-q", "--compile-bytecode", "--python", str(python), *pins, *wheels],
        check=True,
    )
    return python


def _ratio(ours: list[float], theirs: list[float]) -> str:
    return f"{statistics.median(ours) / statistics.median(theirs):.2f}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    runs = args.runs

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
            _wall(python, ["-I", "-c", "pass"], _env(None))
        for run in range(runs):
            _progress(f"interpreter start-up, run {run + 1} of {runs}")
            pth.write_text(kept)
            start.write_text(kept_start)
            on.append(_wall(python, ["-I", "-c", "pass"], _env(None)))
            off.append(_wall(python, ["-I", "-c", "pass"], _env("0")))
            pth.unlink()
            start.unlink()
            absent.append(_wall(python, ["-I", "-c", "pass"], _env(None)))
        pth.write_text(kept)
        start.write_text(kept_start)

        ours, builtin, ours_model, builtin_model, import_agents = [], [], [], [], []
        has_builtin = (Path(purelib) / "agents" / "testing").is_dir()
        for run in range(runs):
            _progress(f"first imports, run {run + 1} of {runs}")
            ours.append(_inner(python, FIRST_IMPORT, _env(None)))
            ours_model.append(_inner(python, FIRST_MODEL, _env(None)))
            if has_builtin:
                builtin.append(_inner(python, FIRST_IMPORT, _env("0")))
                builtin_model.append(_inner(python, FIRST_MODEL, _env("0")))
            import_agents.append(
                _inner(
                    python,
                    "import time; t = time.perf_counter(); import agents; "
                    "print(time.perf_counter() - t)",
                    _env(None),
                )
            )

        project = Path(tmp) / "project"
        project.mkdir()
        (project / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
        (project / "test_plain.py").write_text("def test_plain():\n    assert True\n")
        collect = ["-m", "pytest", "-q", "--collect-only", "-p", "no:cacheprovider"]
        with_plugins, without_plugins = [], []
        for _ in range(2):  # warm pytest's own caches
            _wall(python, collect, _env(None), cwd=project)
        for run in range(runs):
            _progress(f"pytest start-up, run {run + 1} of {runs}")
            with_plugins.append(_wall(python, collect, _env(None), cwd=project))
            without_plugins.append(_wall(python, [*collect, *NO_PLUGINS], _env(None), cwd=project))

    med = statistics.median
    print(f"openai-agents {version('openai-agents')}, Python {sys.version.split()[0]}")
    print(f"interpreter start-up, median of {runs} runs (`python -I -c pass`):")
    print(f"  without the .pth        {med(absent) * 1e3:7.2f} ms   1.00x")
    print(f"  .pth, bridge off (=0)   {med(off) * 1e3:7.2f} ms   {_ratio(off, absent)}")
    print(f"  .pth, bridge on         {med(on) * 1e3:7.2f} ms   {_ratio(on, absent)}")
    print(f"  bridge on costs         {(med(on) - med(absent)) * 1e3:+7.2f} ms")
    print(f"first `import agents.testing` after `import agents`, median of {runs}:")
    print(f"  import agents itself    {med(import_agents) * 1e3:7.2f} ms")
    print(f"  ours (bridge on)        {med(ours) * 1e3:7.2f} ms")
    if builtin:
        print(
            f"  SDK built-in (bridge 0) {med(builtin) * 1e3:7.2f} ms   "
            f"ours/built-in {_ratio(ours, builtin)}"
        )
    else:
        print("  SDK built-in            (this SDK release has none)")
    print(
        f"first `from agents.testing import ScriptedModel` after `import agents`, median of {runs}:"
    )
    print(f"  ours (bridge on)        {med(ours_model) * 1e3:7.2f} ms")
    if builtin_model:
        print(
            f"  SDK built-in (bridge 0) {med(builtin_model) * 1e3:7.2f} ms   "
            f"ours/built-in {_ratio(ours_model, builtin_model)}"
        )
    print(f"`pytest --collect-only` of a file that uses nothing of ours, median of {runs}:")
    print(f"  our six plugins off     {med(without_plugins) * 1e3:7.2f} ms")
    print(f"  our six plugins on      {med(with_plugins) * 1e3:7.2f} ms")
    print(f"  the plugins cost        {(med(with_plugins) - med(without_plugins)) * 1e3:+7.2f} ms")


if __name__ == "__main__":
    main()
