"""The Pythons every package claims are the ones CI runs the suite on."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = sorted(path.parent for path in (ROOT / "packages").glob("*/pyproject.toml"))


def _ci_pythons() -> set[str]:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    (locked,) = re.findall(r'^LOCKED_PYTHON="(3\.\d+)"$', script, re.M)
    (lowest,) = re.findall(r'^LOWEST_PYTHON="(3\.\d+)"$', script, re.M)
    (others,) = re.findall(r"^OTHER_PYTHONS=\(([^)]*)\)$", script, re.M)
    return {locked, lowest, *others.split()}


def _minor_key(version: str) -> tuple[int, int]:
    major, minor = version.split(".")
    return int(major), int(minor)


@pytest.mark.parametrize("package", PACKAGES, ids=lambda package: package.name)
def test_classifiers_and_requires_python_name_what_ci_runs(package: Path) -> None:
    text = (package / "pyproject.toml").read_text(encoding="utf-8")
    classified = set(re.findall(r'"Programming Language :: Python :: (3\.\d+)"', text))
    (requires,) = re.findall(r'^requires-python = ">=(3\.\d+)"$', text, re.M)
    ran = _ci_pythons()

    assert classified == ran
    assert requires == min(ran, key=_minor_key)
