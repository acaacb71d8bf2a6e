"""The import bridge in the environment the tests run in (the editable workspace install).

Every check runs a fresh interpreter, because the bridge acts at start-up.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agents_testing.core import compat

from ..._once import computed_once

PACKAGES = Path(__file__).resolve().parents[3] / "packages"


def _run(code: str, *, bridge: str | None = None) -> Any:
    env = dict(os.environ)
    env.pop("AGENTS_TESTING_BRIDGE", None)
    if bridge is not None:
        env["AGENTS_TESTING_BRIDGE"] = bridge
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


# What one interpreter with the bridge on shows, in the order a user meets it: the union
# loads no boundary until one of its names is asked for; then every bridged name, where it
# comes from, and whether it is the package module itself. One process for all of it: each
# fresh interpreter imports the whole SDK.
BRIDGED = """
import importlib, json, sys
import agents.testing

def loaded(prefix):
    return any(name.startswith(prefix) for name in sys.modules)

state = {"before": [loaded("agents_testing.model._"), loaded("agents_testing.sandbox._")]}
from agents.testing import ScriptedModel
state["after_model"] = [loaded("agents_testing.model._"), loaded("agents_testing.sandbox._")]
state["ours_after_model"] = sorted(
    name for name in sys.modules if name.startswith("agents_testing")
)
state["listed"] = "scripted_sandbox_session" in dir(agents.testing)

names = ["agents.testing", "agents.testing.model", "agents.testing.sandbox",
         "agents.realtime.testing", "agents.voice.testing", "agents.mcp.testing"]
state["origins"] = {n: importlib.import_module(n).__spec__.origin for n in names}

import agents.testing.model, agents_testing.model
import agents.testing.sandbox, agents_testing.sandbox
import agents.realtime.testing, agents_testing.realtime
import agents.voice.testing, agents_testing.voice
import agents.mcp.testing, agents_testing.mcp
import agents.realtime, agents.voice
state["same"] = [
    agents.mcp.testing is agents_testing.mcp,
    agents.testing.model is agents_testing.model,
    agents.testing.sandbox is agents_testing.sandbox,
    agents.realtime.testing is agents_testing.realtime,
    agents.voice.testing is agents_testing.voice,
    agents_testing.realtime.__name__ == "agents_testing.realtime",
    agents_testing.realtime.__spec__.name == "agents_testing.realtime",
]

members = {**{n: getattr(agents_testing.sandbox, n) for n in agents_testing.sandbox.__all__},
           **{n: getattr(agents_testing.model, n) for n in agents_testing.model.__all__}}
state["union"] = {
    "all": sorted(agents.testing.__all__),
    "expected": sorted(members),
    "identical": all(getattr(agents.testing, n) is obj for n, obj in members.items()),
    "top_level_clean": not any(hasattr(__import__("agents"), n) for n in members),
}
print(json.dumps(state))
"""

# The same with the bridge off: no finder, and the SDK's own modules where it has them.
UNBRIDGED = """
import importlib, json, sys
finders = [type(f).__name__ for f in sys.meta_path]
origins = {}
for name in ["agents.testing", "agents.realtime.testing", "agents.voice.testing"]:
    try:
        origins[name] = importlib.import_module(name).__spec__.origin
    except ModuleNotFoundError:
        origins[name] = None
import agents_testing.model
print(json.dumps({"finders": finders, "origins": origins}))
"""


@pytest.fixture(scope="session")
def bridged(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return computed_once(tmp_path_factory, "bridged", lambda: _run(BRIDGED))


@pytest.fixture(scope="session")
def unbridged(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return computed_once(tmp_path_factory, "unbridged", lambda: _run(UNBRIDGED, bridge="0"))


def test_bridged_names_come_from_this_project(bridged: Any) -> None:
    for name, origin in bridged["origins"].items():
        assert Path(origin).resolve().is_relative_to(PACKAGES), (name, origin)


def test_boundary_modules_are_the_package_modules_themselves(bridged: Any) -> None:
    assert bridged["same"] == [True] * 7


def test_agents_testing_is_the_union_of_model_and_sandbox(bridged: Any) -> None:
    union = bridged["union"]

    assert union["all"] == union["expected"]
    assert union["identical"] is True
    assert union["top_level_clean"] is True


def test_agents_testing_imports_each_boundary_only_when_its_names_are_used(
    bridged: Any,
) -> None:
    assert bridged["before"] == [False, False]
    assert bridged["after_model"] == [True, False]
    assert bridged["listed"] is True
    # ScriptedModel's module makes only the class: what a model works with is imported
    # when one is made, so the first import costs no more than the SDK's own.
    assert bridged["ours_after_model"] == [
        "agents_testing",
        "agents_testing.core",
        "agents_testing.core._bridge",
        "agents_testing.core._bridge.resolve",
        "agents_testing.core.lazy",
        "agents_testing.model",
        "agents_testing.model._scripted_model",
        "agents_testing.sandbox",
    ]


def test_finder_is_installed_at_start_up_without_importing_anything_heavy() -> None:
    on = _run(
        "import sys, json; "
        "print(json.dumps([type(sys.meta_path[0]).__name__, sorted(sys.modules)]))"
    )
    off = _run("import sys, json; print(json.dumps(sorted(sys.modules)))", bridge="0")

    assert on[0] == "BridgeFinder"
    added = set(on[1]) - set(off)
    assert added == {"_agents_testing_bridge"}
    assert "agents" not in on[1]
    assert "importlib.metadata" not in on[1]


def test_bridge_can_be_turned_off(unbridged: Any) -> None:
    assert "BridgeFinder" not in unbridged["finders"]
    origin = unbridged["origins"]["agents.testing"]
    if compat.has_builtin_testing():
        assert not Path(origin).resolve().is_relative_to(PACKAGES)
        assert Path(origin).parts[-3:] == ("agents", "testing", "__init__.py")
    else:
        assert origin is None


@pytest.mark.skipif(
    not compat.has_builtin_testing(),
    reason="the SDK ships its own testing modules from 0.21",
)
def test_bridge_takes_precedence_over_the_sdk_testing_modules(bridged: Any, unbridged: Any) -> None:
    for name, sdk_origin in unbridged["origins"].items():
        assert not Path(sdk_origin).resolve().is_relative_to(PACKAGES)
        assert Path(bridged["origins"][name]).resolve().is_relative_to(PACKAGES)


def test_installing_twice_keeps_one_finder() -> None:
    count = _run(
        """
import sys, json, _agents_testing_bridge as bridge
bridge.install(); bridge.install()
n = sum(isinstance(f, bridge.BridgeFinder) for f in sys.meta_path)
bridge.uninstall()
print(json.dumps([n, sum(isinstance(f, bridge.BridgeFinder) for f in sys.meta_path)]))
"""
    )
    assert count == [1, 0]


def test_finder_ignores_every_other_name() -> None:
    import _agents_testing_bridge as bridge

    finder = bridge.BridgeFinder()
    for name in ("agents", "agents.run", "agents.testing.other", "json", "agents_testing.model"):
        assert finder.find_spec(name) is None
    assert finder.find_spec("agents.voice.testing") is not None


def test_symbol_table_matches_the_boundary_exports() -> None:
    import agents_testing.mcp
    import agents_testing.model
    import agents_testing.sandbox
    from agents_testing.core._bridge import resolve as _bridge

    assert _bridge._BOUNDARY_SYMBOLS["model"] == frozenset(agents_testing.model.__all__)
    assert _bridge._BOUNDARY_SYMBOLS["sandbox"] == frozenset(agents_testing.sandbox.__all__)
    assert _bridge._BOUNDARY_SYMBOLS["mcp"] == frozenset(agents_testing.mcp.__all__)


def test_start_up_names_match_the_boundary_table() -> None:
    import _agents_testing_bridge as bridge
    from agents_testing.core._bridge import resolve as _bridge

    served = {name for _, names in _bridge.BOUNDARIES.values() for name in names}
    assert served == bridge.BRIDGED_NAMES


def test_finding_the_boundaries_reads_only_this_projects_entry_points(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib.metadata

    from agents_testing.core._bridge import resolve as _bridge

    def scan_everything(**kwargs: object) -> object:
        raise AssertionError("scanned every installed distribution")

    monkeypatch.setattr(importlib.metadata, "entry_points", scan_everything)

    assert _bridge._installed_boundaries() == {
        "model": "agents_testing.model",
        "sandbox": "agents_testing.sandbox",
        "realtime": "agents_testing.realtime",
        "voice": "agents_testing.voice",
        "mcp": "agents_testing.mcp",
    }


START_FILE = PACKAGES / "testing-core" / "src" / "agents-testing-bridge.start"

# What Python 3.15+ does with the .start file (PEP 829), in an interpreter started
# without site processing so that the .pth line has not run: each entry point,
# ``module:callable``, is resolved and called with no arguments.
START_LIKE_PEP_829 = """
import sys, json, pkgutil
site_dirs = json.loads(sys.argv[1])
sys.path.extend(site_dirs)
entries = [line.strip() for line in open(sys.argv[2], encoding="utf-8-sig")
           if line.strip() and not line.strip().startswith("#")]
for entry in entries:
    pkgutil.resolve_name(entry)()
for entry in entries:
    pkgutil.resolve_name(entry)()
import importlib
finders = [type(f).__name__ for f in sys.meta_path].count("BridgeFinder")
origin = "not imported"
if sys.argv[3] == "import":
    try:
        origin = importlib.import_module("agents.testing").__spec__.origin
    except ModuleNotFoundError:
        origin = None
print(json.dumps({"entries": entries, "finders": finders, "origin": origin}))
"""


def _run_start_file(*, bridge: str | None = None, import_testing: bool = True) -> Any:
    import site

    env = {k: v for k, v in os.environ.items() if k != "AGENTS_TESTING_BRIDGE"}
    if bridge is not None:
        env["AGENTS_TESTING_BRIDGE"] = bridge
    # The editable install puts the sources on sys.path through its own .pth files;
    # without site processing they are added by hand, as those paths would be.
    paths = [*site.getsitepackages(), *(str(p / "src") for p in PACKAGES.glob("testing-*"))]
    done = subprocess.run(
        [
            sys.executable,
            "-S",
            "-c",
            START_LIKE_PEP_829,
            json.dumps(paths),
            str(START_FILE),
            "import" if import_testing else "no import",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_start_file_names_one_entry_point_that_installs_the_finder_once() -> None:
    state = _run_start_file()

    assert state["entries"] == ["_agents_testing_bridge:start"]
    # Run twice (as if the .pth line had run too): still one finder, and it serves.
    assert state["finders"] == 1
    assert Path(state["origin"]).resolve().is_relative_to(PACKAGES)


def test_the_start_entry_point_respects_the_off_switch() -> None:
    # Where the SDK has a testing module of its own, importing it would only show the
    # SDK's (the bridge-off test does): counting the finders is enough, and costs no SDK.
    sdk_has_one = compat.has_builtin_testing()
    state = _run_start_file(bridge="0", import_testing=not sdk_has_one)

    assert state["finders"] == 0
    if not sdk_has_one:
        assert state["origin"] is None


def test_the_pth_line_and_the_start_entry_point_install_one_finder_together() -> None:
    # Python 3.15+ skips the .pth import line when the .start file exists; where both
    # run anyway (the .pth at start-up, then the entry point) the finder stays single.
    count = _run(
        "import sys, json, pkgutil; pkgutil.resolve_name('_agents_testing_bridge:start')(); "
        "print(json.dumps([type(f).__name__ for f in sys.meta_path].count('BridgeFinder')))"
    )
    assert count == 1
