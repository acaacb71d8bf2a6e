"""The root README's shell blocks work as written, from a fresh clone.

Each block the README marks ``<!-- run by tests/packaging/test_readme_commands.py: NAME -->``
is run here, line by line, by bash, in a fresh clone of the repository (the working
copy's uncommitted changes included) and with none of this run's environment variables
that point uv at an environment.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from ..release.conftest import clone_repository

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
_MARKED = re.compile(
    r"<!-- run by tests/packaging/test_readme_commands\.py: ([\w-]+) -->\n```sh\n(.*?)```",
    re.S,
)

FIRST_TESTS = """
import pytest

from agents import Agent, RunConfig, Runner
from agents.testing import ScriptedModel, assistant_message


@pytest.mark.asyncio
async def test_fixed_response() -> None:
    model = ScriptedModel([[assistant_message("Paris is the capital of France.")]])
    agent = Agent(name="Geography assistant", model=model)
    result = await Runner.run(agent, "Capital?", run_config=RunConfig(tracing_disabled=True))
    assert result.final_output == "Paris is the capital of France."


@pytest.mark.asyncio
async def test_with_the_fixture(scripted_model) -> None:
    model = scripted_model([[assistant_message("Paris.")]])
    result = await Runner.run(Agent(name="Geo", model=model), "Capital of France?")
    assert result.final_output == "Paris."
"""


def _blocks() -> dict[str, str]:
    return dict(_MARKED.findall(README.read_text(encoding="utf-8")))


def _clean_env() -> dict[str, str]:
    # UV_PYTHON (which .ci/run exports) would make `uv pip install` install into that
    # interpreter instead of the user's .venv.
    drop = (
        "VIRTUAL_ENV",
        "UV_PROJECT_ENVIRONMENT",
        "UV_PYTHON",
        "UV_SYSTEM_PYTHON",
        "PYTEST_XDIST_WORKER",
        "PYTEST_ADDOPTS",
    )
    return {k: v for k, v in os.environ.items() if k not in drop}


def _bash(block: str, cwd: Path) -> str:
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", block],
        cwd=cwd,
        env=_clean_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, f"{block}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_the_readme_marks_the_blocks_this_file_runs() -> None:
    assert set(_blocks()) == {
        "install-from-clone",
        "install-from-wheels",
        "uv-project-from-clone",
        "uv-project-from-wheels",
        "main-command",
        "developing",
    }


@pytest.fixture(scope="module")
def fresh_clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh clone at ``<tmp>/agents-testing``, where the README's user has it."""
    return clone_repository(tmp_path_factory.mktemp("readme") / "agents-testing")


def test_the_main_command_runs_the_example_suite_from_a_fresh_clone(fresh_clone: Path) -> None:
    out = _bash(_blocks()["main-command"], fresh_clone)

    assert re.search(r"\b\d+ passed\b", out), out
    assert " failed" not in out
    # The first `uv run` installed the default groups: the release tools that
    # `uv run pytest -m slow` needs are there.
    _bash("uv run --no-sync python -c 'import twine, pypiserver'", fresh_clone)


def test_the_developing_commands_are_what_ci_runs_on_a_fresh_clone() -> None:
    # .ci/run runs in a fresh clone of the repository: the README's test commands are
    # proven there, one by one (running the whole suite inside itself here would not add
    # anything but time).
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    commands = [line for line in _blocks()["developing"].splitlines() if line.strip()]

    assert commands[0] == "python -m pip install uv"
    assert "python -m pip install --quiet uv" in ci
    for command in commands[1:]:
        assert command in ci, command


@pytest.mark.parametrize("block", ["install-from-clone", "install-from-wheels"])
def test_an_install_before_pypi_runs_the_readme_tests(fresh_clone: Path, block: str) -> None:
    # The user's project, next to the clone (the README's ``../agents-testing``).
    project = fresh_clone.parent / block
    project.mkdir()
    shutil.rmtree(fresh_clone / "dist", ignore_errors=True)
    _bash("uv venv -q .venv", project)

    _bash(_blocks()[block], project)

    (project / "test_first.py").write_text(FIRST_TESTS)
    (project / "pytest.ini").write_text(
        "[pytest]\nasyncio_mode = strict\nasyncio_default_fixture_loop_scope = function\n"
    )
    out = _bash(".venv/bin/python -m pytest -p no:cacheprovider -q", project)
    assert "2 passed" in out, out


# The ini section the README shows for pytest-asyncio, and a check that it is shown.
PYTEST_SECTION = '[tool.pytest.ini_options]\nasyncio_default_fixture_loop_scope = "function"\n'


@pytest.mark.parametrize("block", ["uv-project-from-clone", "uv-project-from-wheels"])
def test_a_uv_project_adds_the_packages_and_keeps_working_with_later_uv_commands(
    fresh_clone: Path, block: str
) -> None:
    assert f"```toml\n{PYTEST_SECTION}```" in README.read_text(encoding="utf-8")
    project = fresh_clone.parent / block
    project.mkdir()
    shutil.rmtree(fresh_clone / "dist", ignore_errors=True)
    _bash("uv init -q --bare --no-workspace .", project)

    _bash(_blocks()[block], project)
    # Whatever the project adds next still resolves the packages from where they are.
    _bash("uv add --dev -q iniconfig", project)

    with (project / "pyproject.toml").open("a", encoding="utf-8") as file:
        file.write("\n" + PYTEST_SECTION)
    (project / "test_first.py").write_text(FIRST_TESTS)
    out = _bash("uv run -q pytest -p no:cacheprovider -q -W error::DeprecationWarning", project)
    assert "2 passed" in out, out
    assert "asyncio_default_fixture_loop_scope" not in out
