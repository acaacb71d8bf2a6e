"""Installing some boundary packages never breaks a test of another boundary.

For sets of installed boundary wheels (none, each alone, all but each one, all), in a
fresh virtualenv with the running environment's SDK: a bridged name of an installed
boundary is ours; of one not installed, the SDK's own module where the SDK has one (0.21
and later); otherwise the import fails with :class:`MissingBoundaryError` naming the
package to install.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agents_testing.core import compat

from .conftest import call, make_venv, run_python, sdk_requirement, uv

pytestmark = pytest.mark.slow

OURS = ("model", "sandbox", "realtime", "voice")
SINGLE = {
    "agents.testing.model": "model",
    "agents.testing.sandbox": "sandbox",
    "agents.realtime.testing": "realtime",
    "agents.voice.testing": "voice",
    "agents.mcp.testing": "mcp",
}
# Boundaries for which no SDK release has a testing module of its own.
NEVER_IN_SDK = frozenset({"mcp"})
SYMBOLS = {"ScriptedModel": "model", "scripted_sandbox_session": "sandbox"}

PROBE = """
import importlib, json
out = {}
def failure(error):
    return [type(error).__name__, getattr(error, "name", None), str(error)]
for name in ["agents.testing", "agents.testing.model", "agents.testing.sandbox",
             "agents.realtime.testing", "agents.voice.testing", "agents.mcp.testing"]:
    try:
        origin = importlib.import_module(name).__spec__.origin or ""
        out[name] = ["ours" if "/agents_testing/" in origin else "sdk"]
    except ImportError as error:
        out[name] = failure(error)
for symbol in ["ScriptedModel", "scripted_sandbox_session"]:
    try:
        module = getattr(importlib.import_module("agents.testing"), symbol).__module__
        out[symbol] = ["ours" if module.startswith("agents_testing.") else "sdk"]
    except ImportError as error:
        out[symbol] = failure(error)
print(json.dumps(out))
"""


def _package(boundary: str) -> str:
    return f"agents-testing-{boundary}"


def _expected(installed: set[str], sdk_has_testing: bool) -> dict[str, list[Any]]:
    def served(boundary: str) -> list[Any]:
        if boundary in installed:
            return ["ours"]
        if sdk_has_testing and boundary not in NEVER_IN_SDK:
            return ["sdk"]
        return ["MissingBoundaryError", _package(boundary)]

    expected = {name: served(boundary) for name, boundary in SINGLE.items()}
    expected |= {symbol: served(boundary) for symbol, boundary in SYMBOLS.items()}
    # agents.testing itself is ours (the union) unless only the SDK's can serve; with
    # neither, it is an empty union whose names raise the hint of their own package.
    if installed & {"model", "sandbox"} or not sdk_has_testing:
        expected["agents.testing"] = ["ours"]
    else:
        expected["agents.testing"] = ["sdk"]
    return expected


def _outcome(probe: dict[str, list[Any]]) -> dict[str, list[Any]]:
    # Errors are compared by kind and package; the message is checked separately.
    return {name: result[:2] for name, result in probe.items()}


def _combinations() -> list[tuple[str, ...]]:
    """None, each boundary alone, all but each one, all: every boundary installed and not,
    beside none and beside all of the others (what serves a name depends only on whether
    its own package is there, and for ``agents.testing`` on model and sandbox)."""
    alone = [(boundary,) for boundary in OURS]
    all_but = [tuple(b for b in OURS if b != left_out) for left_out in OURS]
    return [(), *alone, *all_but, OURS]


def test_installed_boundaries_serve_ours_and_the_others_the_sdks_or_the_hint(
    wheels: dict[str, Path], tmp_path: Path
) -> None:
    python = make_venv(tmp_path / "venv", *sdk_requirement(), wheels["core"])
    sdk_has_testing = compat.has_builtin_testing()

    outcomes: dict[str, Any] = {}
    expectations: dict[str, Any] = {}
    for combination in _combinations():
        present = [_package(b) for b in OURS if b not in combination]
        if present:
            call(uv(), "pip", "uninstall", "-q", "--python", python, *present)
        if combination:
            chosen = [wheels[b] for b in combination]
            call(uv(), "pip", "install", "-q", "--no-deps", "--python", python, *chosen)
        probe = run_python(python, PROBE)
        key = "+".join(combination) or "core only"
        outcomes[key] = _outcome(probe)
        expectations[key] = _expected(set(combination), sdk_has_testing)
        for result in probe.values():
            if result[0] == "MissingBoundaryError":
                assert f"pip install {result[1]}" in result[2]

    assert outcomes == expectations

    # The MCP package is independent of the others: installed, it serves its module.
    call(uv(), "pip", "install", "-q", "--no-deps", "--python", python, wheels["mcp"])
    assert _outcome(run_python(python, PROBE))["agents.mcp.testing"] == ["ours"]


def test_without_numpy_asking_for_the_voice_module_names_the_voice_package(
    wheels: dict[str, Path], tmp_path: Path
) -> None:
    # The SDK without its voice extra, and only our model package: numpy is missing,
    # so neither the SDK's voice module nor ours could serve.
    python = make_venv(tmp_path / "venv", *sdk_requirement(""), wheels["core"], wheels["model"])

    result = run_python(
        python,
        """
import json
out = {}
try:
    from agents.voice.testing import ScriptedSTTModel
except ImportError as error:
    out["testing"] = [type(error).__name__, error.name, str(error),
                      type(error.__cause__).__name__]
try:
    import agents.voice
except ImportError as error:
    out["voice"] = [type(error).__name__, str(error)]
from agents.testing import ScriptedModel
out["model"] = ScriptedModel.__module__
print(json.dumps(out))
""",
    )

    kind, package, message, cause = result["testing"]
    assert (kind, package, cause) == ("MissingBoundaryError", "agents-testing-voice", "ImportError")
    assert "pip install agents-testing-voice" in message
    assert "numpy" in message  # why the SDK's own module could not serve
    # Importing the SDK's voice package itself still gives the SDK's own error.
    assert result["voice"][0] == "ImportError"
    assert "openai-agents[voice]" in result["voice"][1]
    assert result["model"] == "agents_testing.model"
