"""Built wheels and fresh virtualenvs, shared by the packaging tests of one session.

The wheels are built once per run (``uv build --all-packages --no-sources``), even
with pytest-xdist: the first worker builds them under a lock in the run's shared
temporary directory, the others reuse them. Virtualenvs are made with the same SDK
and ``openai`` releases as the running environment, so running these tests in the
lowest-SDK environment checks the lowest SDK.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
BOUNDARIES = ("core", "model", "sandbox", "realtime", "voice", "mcp")


def uv() -> str:
    found = shutil.which("uv")
    assert found is not None, "uv is needed to build and install the wheels"
    return found


def call(*args: str | Path, cwd: Path | None = None) -> str:
    """Run a command outside the workspace's environment; fail the test if it fails."""
    env = {
        k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "UV_PROJECT_ENVIRONMENT")
    }
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def run_python(
    python: Path, code: str, *, bridge: str | None = None, flags: tuple[str, ...] = ()
) -> Any:
    """Run ``code`` with ``python -I`` (and ``flags``) and return the JSON it prints."""
    env = {k: v for k, v in os.environ.items() if k != "AGENTS_TESTING_BRIDGE"}
    if bridge is not None:
        env["AGENTS_TESTING_BRIDGE"] = bridge
    done = subprocess.run(
        [str(python), "-I", *flags, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def sdk_requirement(extras: str = "voice,realtime") -> list[str]:
    """The SDK and ``openai`` releases of the running environment, as requirements."""
    sdk = f"openai-agents[{extras}]" if extras else "openai-agents"
    return [f"{sdk}=={version('openai-agents')}", f"openai=={version('openai')}"]


def make_venv(path: Path, *requirements: str | Path) -> Path:
    """A fresh virtualenv at ``path`` with ``requirements`` installed; its python."""
    call(uv(), "venv", "-q", "--python", sys.executable, path)
    python = path / "bin" / "python"
    call(uv(), "pip", "install", "-q", "--python", python, *requirements)
    return python


@contextmanager
def _shared(name: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A directory shared by every xdist worker of this run, held under a lock."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    with open(base / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield base / name
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One wheel per package, built once per run."""
    with _shared("dist", tmp_path_factory) as out:
        if not (out / "built").exists():
            call(
                uv(),
                "build",
                "--all-packages",
                "--wheel",
                "--no-sources",
                "-q",
                "-o",
                out,
                cwd=ROOT,
            )
            (out / "built").touch()
    built = {}
    for boundary in BOUNDARIES:
        (wheel,) = out.glob(f"agents_testing_{boundary}-*.whl")
        built[boundary] = wheel
    return built


@pytest.fixture(scope="session")
def full_venv(tmp_path_factory: pytest.TempPathFactory, wheels: dict[str, Path]) -> Path:
    """Every package, the SDK with its voice and realtime extras, pytest: read-only use."""
    with _shared("full-venv", tmp_path_factory) as path:
        python = path / "bin" / "python"
        if not (path / "ready").exists():
            shutil.rmtree(path, ignore_errors=True)
            make_venv(
                path,
                *sdk_requirement(),
                *wheels.values(),
                f"pytest=={version('pytest')}",
                f"pytest-asyncio=={version('pytest-asyncio')}",
                f"mypy=={version('mypy')}",
            )
            (path / "ready").touch()
    return python
