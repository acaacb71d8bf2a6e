"""Run in a fresh interpreter by test_lazy_imports.py: what loading our code imports and builds.

In one process, in the order a test run meets them:

1. pytest runs a test that uses nothing of ours (so the plugins are loaded and their
   hooks run, as in any test run of a project that installs us): what is imported then;
2. the SDK is imported, then every module of ours one by one (library modules before
   the pytest ones): whether a module's import builds or validates a pydantic model, and
   which modules beyond the standard library, the SDK and our own it imports;
3. every public name of each package is asked for.

Prints one JSON object.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import json
import pkgutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

BOUNDARIES = ("model", "sandbox", "realtime", "voice", "mcp")
# The only modules of ours that may import pytest: the plugins and what they share.
PYTEST_MODULES = ("pytest_plugin", "pytest_support", "cassette_pytest")

# Plugins of the packages in this environment that are not ours.
OTHER_PLUGINS = ("xdist", "xdist.looponfail", "asyncio", "anyio", "hypothesispytest")

report: dict[str, Any] = {}

# -- 1. a test run that uses none of our fixtures ---------------------------------------------
with tempfile.TemporaryDirectory() as project:
    Path(project, "pytest.ini").write_text(
        "[pytest]\nasyncio_default_fixture_loop_scope = function\n", encoding="utf-8"
    )
    Path(project, "test_plain.py").write_text("def test_plain():\n    assert 1\n")
    with contextlib.redirect_stdout(io.StringIO()):
        status = pytest.main(
            # Only our plugins: what the others import would hide what ours do.
            [project, "-q", "--rootdir", project, "-p", "no:cacheprovider"]
            + [arg for name in OTHER_PLUGINS for arg in ("-p", f"no:{name}")]
        )
report["plain_run"] = int(status)
report["plugins"] = sorted(
    name for name in sys.modules if name.startswith("agents_testing.") and "pytest" in name
)
report["after_plugins"] = sorted(sys.modules)

# -- 2. every module, after the SDK --------------------------------------------------------

# The SDK parts the boundaries stand in for; importing them is not our cost.
for name in (
    "agents.realtime",
    "agents.voice",
    "agents.mcp",
    "agents.mcp.server",
    "agents.sandbox",
):
    importlib.import_module(name)

import pydantic._internal._dataclasses as pydantic_dataclasses  # noqa: E402
import pydantic._internal._generate_schema as generate  # noqa: E402
from pydantic import BaseModel  # noqa: E402

events: list[str] = []
_generate_schema = generate.GenerateSchema.generate_schema
_model_init = BaseModel.__init__
_args_kwargs = getattr(pydantic_dataclasses, "ArgsKwargs")  # noqa: B009


def _recording_generate_schema(self: Any, obj: Any, *args: Any, **kwargs: Any) -> Any:
    events.append(f"builds the pydantic schema of {getattr(obj, '__qualname__', obj)!r}")
    return _generate_schema(self, obj, *args, **kwargs)


def _recording_model_init(self: Any, *args: Any, **kwargs: Any) -> None:
    events.append(f"validates a {type(self).__qualname__}")
    _model_init(self, *args, **kwargs)


def _recording_args_kwargs(*args: Any, **kwargs: Any) -> Any:
    # A pydantic dataclass (the SDK's Usage) builds one of these to validate itself.
    events.append("validates a pydantic dataclass")
    return _args_kwargs(*args, **kwargs)


def _patch(replacements: dict[tuple[object, str], object]) -> None:
    for (owner, name), value in replacements.items():
        setattr(owner, name, value)


_patch(
    {
        (generate.GenerateSchema, "generate_schema"): _recording_generate_schema,
        (BaseModel, "__init__"): _recording_model_init,
        (pydantic_dataclasses, "ArgsKwargs"): _recording_args_kwargs,
    }
)

import builtins  # noqa: E402

import agents_testing  # noqa: E402

# pytest is loaded already (step 1), so an import of it is seen where it is written.
_import = builtins.__import__
pytest_users: dict[str, set[str]] = {}


def _recording_import(name: str, globals: Any = None, *args: Any, **kwargs: Any) -> Any:
    importer = (globals or {}).get("__name__", "")
    if (
        name.partition(".")[0] in ("pytest", "_pytest")
        and importer.startswith("agents_testing.")
        and importer.rpartition(".")[2] not in PYTEST_MODULES
    ):
        pytest_users.setdefault(importer, set()).add(name)
    return _import(name, globals, *args, **kwargs)


_patch({(builtins, "__import__"): _recording_import})

ours = sorted(
    info.name for info in pkgutil.walk_packages(agents_testing.__path__, "agents_testing.")
)
ours.sort(key=lambda name: name.rpartition(".")[2] in PYTEST_MODULES)
stdlib = set(sys.stdlib_module_names)
costs: dict[str, dict[str, list[str]]] = {}
unpublished: list[str] = []
for name in ours:
    before = set(sys.modules)
    del events[:]
    importlib.import_module(name)
    foreign = sorted(
        module
        for module in set(sys.modules) - before
        if module.partition(".")[0] not in stdlib
        and not module.startswith(("agents_testing.", "agents."))
    )
    if events or foreign:
        costs[name] = {"events": sorted(set(events)), "imports": foreign}
    # Imported directly, as code of the same package imports it: its public names must
    # already show the package, not this private module.
    package = sys.modules[".".join(name.split(".")[:2])]
    module = sys.modules[name]
    unpublished.extend(
        f"{name}.{export}"
        for export, value in vars(module).items()
        if export in getattr(package, "__all__", ())
        and (inspect.isclass(value) or inspect.isfunction(value))
        and value.__module__ == name
    )
for name, imported in pytest_users.items():
    costs.setdefault(name, {"events": [], "imports": []})["imports"].extend(sorted(imported))
report["costs"] = costs
report["unpublished"] = unpublished
report["modules"] = ours

_patch(
    {
        (builtins, "__import__"): _import,
        (generate.GenerateSchema, "generate_schema"): _generate_schema,
        (BaseModel, "__init__"): _model_init,
        (pydantic_dataclasses, "ArgsKwargs"): _args_kwargs,
    }
)

# -- 3. every public name --------------------------------------------------------------------
names: dict[str, Any] = {}
for boundary in BOUNDARIES:
    package = importlib.import_module(f"agents_testing.{boundary}")
    names[boundary] = {
        "exported": sorted(package.__all__),
        "listed": sorted(dir(package)),
        "resolved": all(getattr(package, name) is not None for name in package.__all__),
    }
report["names"] = names

print(json.dumps(report))
