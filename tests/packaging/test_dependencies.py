"""Every package declares the distributions its code imports.

Read from the source (every ``import`` and ``from ... import`` of each package's
``src``, including the ones inside functions and ``TYPE_CHECKING`` blocks), mapped to
the distributions that provide them in this environment, and compared with the
package's ``[project].dependencies``. Every package folder found is checked, so a new
one is covered the day it appears.
"""

from __future__ import annotations

import ast
import re
import sys
from functools import lru_cache
from importlib.metadata import distributions, version
from pathlib import Path

import pytest
from packaging.requirements import Requirement

if sys.version_info >= (3, 11):
    import tomllib
else:  # pytest's own TOML reader on Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = sorted(path.parent for path in (ROOT / "packages").glob("*/pyproject.toml"))

# Imported without being declared, on purpose: the pytest plugin modules run only
# inside pytest (loaded through the ``pytest11`` entry point), so they need no pytest
# of their own; the user's test environment brings it.
_PYTEST_PLUGIN_MODULES = re.compile(r"(^|/)(pytest_plugin|pytest_support|cassette_pytest)\.py$")


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _declared(package: Path) -> set[str]:
    """The dependencies, and those of the extras (imported only where an extra's feature
    is used, inside a function, as the lazy-import tests check)."""
    project = tomllib.loads((package / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    lines = list(project.get("dependencies", []))
    for extra in project.get("optional-dependencies", {}).values():
        lines.extend(extra)
    return {_canonical(Requirement(line).name) for line in lines}


def _distribution(package: Path) -> str:
    project = tomllib.loads((package / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return _canonical(project["name"])


def _imports(source: str) -> set[str]:
    """Absolute imports of a module: ``agents_testing.core`` kept whole, others top-level."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            parts = name.split(".")
            found.add(".".join(parts[:2]) if parts[0] == "agents_testing" else parts[0])
    return found


def _provided_by(module: str) -> set[str]:
    """The distributions that provide ``module`` (``agents_testing.x``: the workspace's)."""
    if module.startswith("agents_testing."):
        return {f"agents-testing-{module.split('.')[1]}"}
    if module == "_agents_testing_bridge":
        return {"agents-testing-core"}
    return _providers().get(module, set())


@lru_cache(maxsize=1)
def _providers() -> dict[str, set[str]]:
    """Top-level module -> distributions, as ``packages_distributions()`` of Python 3.11+.

    Python 3.10's version reads only setuptools' ``top_level.txt``, which wheels built
    by other backends lack; the files a distribution installed say it on every Python.
    """
    found: dict[str, set[str]] = {}
    for dist in distributions():
        name = _canonical(dist.metadata["Name"])
        tops = set((dist.read_text("top_level.txt") or "").split())
        for file in dist.files or ():
            if file.suffix == ".py":
                tops.add(file.parts[0] if len(file.parts) > 1 else file.stem)
        for top in tops:
            found.setdefault(top, set()).add(name)
    return found


def _undeclared(package: Path) -> dict[str, list[str]]:
    """Each imported module that no declared dependency (nor the package itself) provides."""
    declared = _declared(package) | {_distribution(package)}
    missing: dict[str, list[str]] = {}
    for path in sorted((package / "src").rglob("*.py")):
        relative = path.relative_to(package / "src").as_posix()
        for module in _imports(path.read_text(encoding="utf-8")):
            if module in sys.stdlib_module_names or module == "__future__":
                continue
            if module == "pytest" and _PYTEST_PLUGIN_MODULES.search(relative):
                continue
            providers = _provided_by(module)
            if not providers & declared:
                missing.setdefault(module, []).append(relative)
    return missing


def test_every_package_folder_is_checked() -> None:
    names = {package.name for package in PACKAGES}
    assert {"testing-core", "testing-model", "testing-sandbox"} <= names
    assert {"testing-realtime", "testing-voice"} <= names


@pytest.mark.parametrize("package", PACKAGES, ids=lambda package: package.name)
def test_every_imported_distribution_is_declared(package: Path) -> None:
    missing = _undeclared(package)

    assert not missing, "\n".join(
        f"{package.name} imports {module} ({', '.join(files)}) but does not declare "
        f"{' or '.join(sorted(_provided_by(module))) or 'a distribution that provides it'}"
        for module, files in missing.items()
    )


@pytest.mark.parametrize("package", PACKAGES, ids=lambda package: package.name)
def test_the_declared_bounds_hold_for_the_installed_sdk(package: Path) -> None:
    # Run in each CI environment (newest and lowest SDK, every Python): the bounds
    # must admit what that SDK release brings with it.
    project = tomllib.loads((package / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for line in project.get("dependencies", []):
        requirement = Requirement(line)
        if requirement.marker is not None and not requirement.marker.evaluate():
            continue
        installed = version(requirement.name)
        assert requirement.specifier.contains(installed, prereleases=True), (
            f"{package.name} requires {requirement}, but this environment has {installed}"
        )


def test_an_undeclared_import_is_found(tmp_path: Path) -> None:
    package = tmp_path / "testing-demo"
    (package / "src" / "agents_testing" / "demo").mkdir(parents=True)
    (package / "pyproject.toml").write_text(
        '[project]\nname = "agents-testing-demo"\ndependencies = ["openai-agents>=0.14"]\n'
    )
    (package / "src" / "agents_testing" / "demo" / "__init__.py").write_text(
        "import json\nfrom agents import Agent\nfrom agents_testing.demo import x\n"
        "def f():\n    from pydantic import BaseModel\n"
        "    import agents_testing.core\n"
    )

    missing = _undeclared(package)

    assert sorted(missing) == ["agents_testing.core", "pydantic"]
