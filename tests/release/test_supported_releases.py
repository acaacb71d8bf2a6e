"""What each package's README states it supports is what the release checks test: the
SDK releases of the compatibility matrix and the core range in its metadata."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SUPPORTED: dict[str, str] = runpy.run_path(str(ROOT / "scripts" / "sdk_releases.py"))["SUPPORTED"]


def _section(package: str) -> str:
    readme = (ROOT / "packages" / f"testing-{package}" / "README.md").read_text()
    assert "\n## Supported releases\n" in readme, f"{package}'s README has no such section"
    return " ".join(readme.split("\n## Supported releases\n", 1)[1].split())


@pytest.mark.parametrize("package", ["core", "model", "sandbox", "realtime", "voice", "mcp"])
def test_readme_names_every_sdk_release_the_matrix_tests(package: str) -> None:
    section = _section(package)

    listed = re.findall(r"\b0\.\d+\.\d+\b", section.split("Core:")[0].split("Boundaries:")[0])

    assert listed == list(SUPPORTED.values())
    assert "`openai<2.45`" in section


@pytest.mark.parametrize("package", ["model", "sandbox", "realtime", "voice", "mcp"])
def test_readme_states_the_core_range_the_package_declares(package: str) -> None:
    pyproject = (ROOT / "packages" / f"testing-{package}" / "pyproject.toml").read_text()
    (declared,) = re.findall(r'"agents-testing-core([^"]+)"', pyproject)

    assert f"`agents-testing-core{declared}`" in _section(package)
