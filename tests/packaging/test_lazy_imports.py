"""Loading our code costs only our code: the plugins import no SDK, a module's import
builds no pydantic model and imports nothing heavy, and every name still resolves.

The facts come from one fresh interpreter (``_import_probe.py``): the plugins must be
loaded before anything else, and every fresh interpreter that imports the SDK costs
seconds.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

BOUNDARIES = ("model", "sandbox", "realtime", "voice", "mcp")
PROBE = Path(__file__).with_name("_import_probe.py")


@pytest.fixture(scope="module")
def probe() -> Any:
    done = subprocess.run([sys.executable, str(PROBE)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_run_using_none_of_our_fixtures_imports_neither_the_sdk_nor_a_boundary_module(
    probe: Any,
) -> None:
    loaded = probe["after_plugins"]

    assert probe["plain_run"] == 0
    for boundary in ("core", *BOUNDARIES):
        assert f"agents_testing.{boundary}.pytest_plugin" in probe["plugins"]

    assert not [name for name in loaded if name == "agents" or name.startswith("agents.")]
    assert not [name for name in loaded if name.startswith(("pydantic", "openai", "numpy"))]
    for boundary in BOUNDARIES:
        assert not [name for name in loaded if name.startswith(f"agents_testing.{boundary}._")]


def test_no_module_of_ours_builds_a_pydantic_model_or_imports_a_heavy_module_at_import(
    probe: Any,
) -> None:
    # Each entry names what the module's import did beyond defining its own code: a
    # pydantic schema built or a model validated (a module-level constant made at import
    # instead of on first use), or a module outside the standard library and the SDK.
    assert probe["costs"] == {}
    assert len(probe["modules"]) > 100  # every module was imported


def test_a_public_name_shows_its_package_however_its_module_was_first_imported(
    probe: Any,
) -> None:
    # Each module was imported directly, not through its package, as the package's own
    # code imports it; a traceback of an error defined there names the package.
    assert probe["unpublished"] == [], (
        "end each module listed with `_publish_module(globals())` "
        "(agents_testing.core.lazy.publish_module), as the others do"
    )


@pytest.mark.parametrize("boundary", BOUNDARIES)
def test_names_are_imported_on_first_use(probe: Any, boundary: str) -> None:
    names = probe["names"][boundary]

    assert set(names["exported"]) <= set(names["listed"])
    assert names["resolved"] is True


def test_an_unknown_name_is_an_attribute_error() -> None:
    import agents_testing.voice

    with pytest.raises(AttributeError, match="no attribute 'ScriptedNothing'"):
        agents_testing.voice.ScriptedNothing  # type: ignore[attr-defined]  # noqa: B018
