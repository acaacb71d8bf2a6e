"""What ships works outside the workspace: wheels built with ``uv build``, installed in
fresh virtualenvs with no editable paths, then imported with ``python -I``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
BOUNDARIES = ("core", "model", "sandbox", "realtime", "voice")


def _uv() -> str:
    found = shutil.which("uv")
    assert found is not None, "uv is needed to build and install the wheels"
    return found


def _call(*args: str | Path, cwd: Path | None = None) -> None:
    env = {
        k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "UV_PROJECT_ENVIRONMENT")
    }
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("dist")
    _call(_uv(), "build", "--all-packages", "--wheel", "--no-sources", "-o", out, cwd=ROOT)
    built = {}
    for boundary in BOUNDARIES:
        (wheel,) = out.glob(f"agents_testing_{boundary}-*.whl")
        built[boundary] = wheel
    return built


def _venv(tmp: Path, wheels: list[Path]) -> Path:
    venv = tmp / "venv"
    _call(_uv(), "venv", "-q", "--python", sys.executable, venv)
    python = venv / "bin" / "python"
    # The same SDK and client releases as the running environment.
    sdk = f"openai-agents[voice,realtime]=={version('openai-agents')}"
    client = f"openai=={version('openai')}"
    _call(_uv(), "pip", "install", "-q", "--python", python, sdk, client, *wheels)
    return python


def _run(python: Path, code: str, *, bridge: str | None = None) -> Any:
    env = {k: v for k, v in os.environ.items() if k != "AGENTS_TESTING_BRIDGE"}
    if bridge is not None:
        env["AGENTS_TESTING_BRIDGE"] = bridge
    done = subprocess.run(
        [str(python), "-I", "-c", code], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_wheels_carry_the_bridge_and_typing_markers(wheels: dict[str, Path]) -> None:
    import zipfile

    core = zipfile.ZipFile(wheels["core"]).namelist()
    assert "agents-testing-bridge.pth" in core
    assert "_agents_testing_bridge.py" in core
    # The partial stub package that types the bridged names (PEP 561).
    with zipfile.ZipFile(wheels["core"]) as archive:
        assert archive.read("agents-stubs/py.typed").decode() == "partial\n"
    for stub in ("testing/__init__", "testing/model", "realtime/testing", "voice/testing"):
        assert f"agents-stubs/{stub}.pyi" in core
    for boundary, wheel in wheels.items():
        names = zipfile.ZipFile(wheel).namelist()
        assert f"agents_testing/{boundary}/py.typed" in names
        # A namespace package: no distribution owns agents_testing/__init__.py.
        assert "agents_testing/__init__.py" not in names


def test_bridge_works_from_installed_wheels(wheels: dict[str, Path], tmp_path: Path) -> None:
    python = _venv(tmp_path, list(wheels.values()))
    site = _run(
        python, "import sysconfig, json; print(json.dumps(sysconfig.get_paths()['purelib']))"
    )

    origins = _run(
        python,
        """
import json, importlib
names = ["agents.testing", "agents.testing.model", "agents.testing.sandbox",
         "agents.realtime.testing", "agents.voice.testing"]
mods = {n: importlib.import_module(n) for n in names}
import agents_testing.realtime, agents_testing.voice
print(json.dumps({
    "origins": {n: m.__spec__.origin for n, m in mods.items()},
    "alias": mods["agents.realtime.testing"] is agents_testing.realtime
             and mods["agents.voice.testing"] is agents_testing.voice,
}))
""",
    )

    assert origins["alias"] is True
    for name, origin in origins["origins"].items():
        assert Path(origin).resolve().is_relative_to(Path(site).resolve()), name
        assert not Path(origin).resolve().is_relative_to(ROOT / "packages"), name

    off = _run(
        python,
        "import sys, json; print(json.dumps([type(f).__name__ for f in sys.meta_path]))",
        bridge="0",
    )
    assert "BridgeFinder" not in off


def test_missing_boundary_names_the_package_to_install(
    wheels: dict[str, Path], tmp_path: Path
) -> None:
    python = _venv(tmp_path, [wheels["core"], wheels["model"]])

    errors = _run(
        python,
        """
import json, importlib
out = {}
for name in ["agents.testing.sandbox", "agents.realtime.testing", "agents.voice.testing"]:
    try:
        importlib.import_module(name)
        out[name] = None
    except ModuleNotFoundError as error:
        out[name] = [type(error).__name__, error.name, str(error)]
try:
    from agents.testing import scripted_sandbox_session
    out["symbol"] = None
except ImportError as error:
    out["symbol"] = [type(error).__name__, error.name, str(error)]
from agents.testing import ScriptedModel
out["model"] = ScriptedModel.__module__
print(json.dumps(out))
""",
    )

    assert errors["agents.testing.sandbox"][1] == "agents-testing-sandbox"
    assert errors["agents.realtime.testing"][1] == "agents-testing-realtime"
    assert errors["agents.voice.testing"][1] == "agents-testing-voice"
    for name, package in (
        ("agents.testing.sandbox", "agents-testing-sandbox"),
        ("agents.realtime.testing", "agents-testing-realtime"),
        ("agents.voice.testing", "agents-testing-voice"),
        ("symbol", "agents-testing-sandbox"),
    ):
        kind, _, message = errors[name]
        assert kind == "MissingBoundaryError"
        assert f"pip install {package}" in message
    assert errors["model"].startswith("agents_testing.model")
