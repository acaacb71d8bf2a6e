"""The layout shows the architecture: no module of a package imports one that imports it back."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGES = Path(__file__).resolve().parents[2] / "packages"
BOUNDARIES = sorted(path.name.removeprefix("testing-") for path in PACKAGES.glob("testing-*"))


def _modules(boundary: str) -> dict[str, Path]:
    root = PACKAGES / f"testing-{boundary}" / "src" / "agents_testing" / boundary
    modules = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(["agents_testing", boundary, *parts])] = path
    return modules


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Every module of ``known`` that ``path`` imports, type-only imports included."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            candidates = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        else:
            continue
        found.update(candidate for candidate in candidates if candidate in known)
    found.discard(name)
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


@pytest.mark.parametrize("boundary", BOUNDARIES)
def test_no_module_imports_one_that_imports_it_back(boundary: str) -> None:
    modules = _modules(boundary)
    graph = {name: _imports(name, path, set(modules)) for name, path in modules.items()}
    assert _cycles(graph) == []


@pytest.mark.parametrize("boundary", BOUNDARIES)
def test_every_feature_folder_says_what_it_holds(boundary: str) -> None:
    root = PACKAGES / f"testing-{boundary}" / "src" / "agents_testing" / boundary
    for folder in root.iterdir():
        if folder.is_dir() and folder.name != "__pycache__":
            docstring = ast.get_docstring(ast.parse((folder / "__init__.py").read_text()))
            assert docstring, f"{folder.name}/__init__.py has no docstring"
            assert "\n" not in docstring.strip(), f"{folder.name}: one line says what it holds"


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]
