"""What ships works outside the workspace: wheels built with ``uv build``, installed in
fresh virtualenvs with no editable paths, then imported with ``python -I``."""

from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

import pytest

from .conftest import ROOT, run_python

pytestmark = pytest.mark.slow


def test_wheels_carry_the_bridge_and_typing_markers(wheels: dict[str, Path]) -> None:
    core = zipfile.ZipFile(wheels["core"]).namelist()
    assert "agents-testing-bridge.pth" in core
    assert "agents-testing-bridge.start" in core
    assert "_agents_testing_bridge.py" in core
    # The partial stub package that types the bridged names (PEP 561).
    with zipfile.ZipFile(wheels["core"]) as archive:
        assert archive.read("agents-stubs/py.typed").decode() == "partial\n"
    for stub in (
        "testing/__init__",
        "testing/model",
        "realtime/testing",
        "voice/testing",
        "mcp/testing",
    ):
        assert f"agents-stubs/{stub}.pyi" in core
    for boundary, wheel in wheels.items():
        names = zipfile.ZipFile(wheel).namelist()
        assert f"agents_testing/{boundary}/py.typed" in names
        # A namespace package: no distribution owns agents_testing/__init__.py.
        assert "agents_testing/__init__.py" not in names


def test_the_wheel_ships_a_pep_829_start_file_beside_the_pth(wheels: dict[str, Path]) -> None:
    with zipfile.ZipFile(wheels["core"]) as archive:
        pth = archive.read("agents-testing-bridge.pth").decode("utf-8")
        start = archive.read("agents-testing-bridge.start").decode("utf-8")

    # Same name, same folder (the site-packages root): Python 3.15+ runs the entry
    # point and skips the .pth import line; older Pythons run only the .pth.
    entries = [line for line in start.splitlines() if line and not line.startswith("#")]
    assert entries == ["_agents_testing_bridge:start"]
    (line,) = pth.splitlines()
    assert line.startswith("import os;")
    assert "_agents_testing_bridge" in line


def test_the_start_entry_point_installs_the_bridge_from_the_installed_wheel(
    full_venv: Path,
) -> None:
    site = run_python(
        full_venv, "import sysconfig, json; print(json.dumps(sysconfig.get_paths()['purelib']))"
    )
    # Python 3.15's start-up, in an interpreter that skips site processing: the
    # site-packages folder on sys.path, then each entry point of the .start file called.
    state = run_python(
        full_venv,
        f"""
import sys, json, os, pkgutil, importlib
site = {site!r}
sys.path.append(site)
with open(os.path.join(site, "agents-testing-bridge.start"), encoding="utf-8-sig") as f:
    entries = [l.strip() for l in f if l.strip() and not l.startswith("#")]
for entry in entries:
    pkgutil.resolve_name(entry)()
origin = importlib.import_module("agents.testing").__spec__.origin
finders = [type(f).__name__ for f in sys.meta_path].count("BridgeFinder")
print(json.dumps({{"finders": finders, "origin": origin, "site": site}}))
""",
        flags=("-S",),
    )

    assert state["finders"] == 1
    assert Path(state["origin"]).resolve().is_relative_to(Path(state["site"]).resolve())


def test_every_wheel_ships_the_license_and_project_urls(wheels: dict[str, Path]) -> None:
    for boundary, wheel in wheels.items():
        with zipfile.ZipFile(wheel) as archive:
            names = archive.namelist()
            (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
            text = archive.read(metadata).decode()
        assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), boundary
        assert "License-Expression: MIT" in text, boundary
        assert (
            "Project-URL: Repository, https://github.com/agents-testing/agents-testing" in text
        ), boundary
        # The README is the PyPI description: every link in it must be absolute.
        description = text.partition("\n\n")[2]
        assert "](../" not in description, boundary
        assert "](./" not in description, boundary


def test_bridge_works_from_installed_wheels(full_venv: Path) -> None:
    site = run_python(
        full_venv, "import sysconfig, json; print(json.dumps(sysconfig.get_paths()['purelib']))"
    )

    origins = run_python(
        full_venv,
        """
import json, importlib
names = ["agents.testing", "agents.testing.model", "agents.testing.sandbox",
         "agents.realtime.testing", "agents.voice.testing", "agents.mcp.testing"]
mods = {n: importlib.import_module(n) for n in names}
import agents_testing.realtime, agents_testing.voice, agents_testing.mcp
print(json.dumps({
    "origins": {n: m.__spec__.origin for n, m in mods.items()},
    "alias": mods["agents.realtime.testing"] is agents_testing.realtime
             and mods["agents.voice.testing"] is agents_testing.voice
             and mods["agents.mcp.testing"] is agents_testing.mcp,
}))
""",
    )

    assert origins["alias"] is True
    for name, origin in origins["origins"].items():
        assert Path(origin).resolve().is_relative_to(Path(site).resolve()), name
        assert not Path(origin).resolve().is_relative_to(ROOT / "packages"), name

    off = run_python(
        full_venv,
        "import sys, json; print(json.dumps([type(f).__name__ for f in sys.meta_path]))",
        bridge="0",
    )
    assert "BridgeFinder" not in off


STRICT_TEST = """
import pytest
from agents import Agent, RunConfig, Runner
from agents.testing import ScriptedModel, assistant_message


@pytest.mark.asyncio
async def test_fixed_response(scripted_model):
    model = scripted_model([[assistant_message("Paris.")]])
    result = await Runner.run(
        Agent(name="Geo", model=model), "Capital?", run_config=RunConfig(tracing_disabled=True)
    )
    assert result.final_output == "Paris."
    assert isinstance(model, ScriptedModel)
"""


@pytest.mark.parametrize("how", ["-W error", "filterwarnings = error"])
def test_strict_warning_settings_work_with_the_installed_packages(
    full_venv: Path, tmp_path: Path, how: str
) -> None:
    (tmp_path / "test_strict.py").write_text(STRICT_TEST)
    ini = "[pytest]\nasyncio_mode = strict\nasyncio_default_fixture_loop_scope = function\n"
    if how == "filterwarnings = error":
        ini += "filterwarnings = error\n"
    (tmp_path / "pytest.ini").write_text(ini)
    args = ["-W", "error"] if how == "-W error" else []

    done = subprocess.run(
        [str(full_venv), "-m", "pytest", "-p", "no:cacheprovider", "-q", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )

    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
    assert "PytestAssertRewriteWarning" not in done.stdout + done.stderr
