"""How the import bridge resolves a bridged name, loaded on the first such import.

The start-up half (``_agents_testing_bridge``, installed by a ``.pth`` line) knows only
the bridged names; this module finds the installed boundary packages through their
``agents_testing.boundaries`` entry points and builds the module for a name: the
boundary package itself, or the union of several for ``agents.testing``. For a
boundary that is not installed, the SDK's own module (or names) serve where the
installed SDK has one, so installing one package never breaks a test of another
boundary; only where neither exists does asking raise :class:`MissingBoundaryError`.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterator, Sequence
from importlib.abc import Loader
from importlib.machinery import ModuleSpec
from importlib.util import module_from_spec
from types import ModuleType
from typing import Any

import _agents_testing_bridge as _startup

__all__ = ["BOUNDARIES", "ENTRY_POINT_GROUP", "MissingBoundaryError", "bridged_spec", "parent_spec"]

ENTRY_POINT_GROUP = "agents_testing.boundaries"

# boundary -> (distribution to install, bridged module names it serves)
BOUNDARIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "model": ("agents-testing-model", ("agents.testing", "agents.testing.model")),
    "sandbox": ("agents-testing-sandbox", ("agents.testing", "agents.testing.sandbox")),
    "realtime": ("agents-testing-realtime", ("agents.realtime.testing",)),
    "voice": ("agents-testing-voice", ("agents.voice.testing",)),
    "mcp": ("agents-testing-mcp", ("agents.mcp.testing",)),
}

# The public names of each boundary, so that asking a bridged module for a name of
# a boundary that is not installed can say which package to install.
_BOUNDARY_SYMBOLS: dict[str, frozenset[str]] = {
    "model": frozenset(
        {
            "CapturedTraces",
            "CassetteModel",
            "CassetteModelProvider",
            "InputMessage",
            "InvalidModelArgument",
            "InvalidModelStep",
            "InvalidScriptedToolCall",
            "ModelCall",
            "ModelCallMatcherError",
            "ModelCassette",
            "ModelCassetteFixture",
            "ModelRequestMismatch",
            "ModelScriptError",
            "ModelStep",
            "ModelStepSpec",
            "RecordingModel",
            "RecordingModelProvider",
            "ReplayedModelError",
            "ScriptedModel",
            "ScriptedModelFactory",
            "UnconsumedModelSteps",
            "UnexpectedModelCall",
            "UnstreamableOutputItem",
            "any_order",
            "assistant_message",
            "RoutedModelCall",
            "ScriptedModelProvider",
            "ScriptedModelProviderFactory",
            "UnconsumedProviderSteps",
            "UnscriptedModelCall",
            "function_call",
            "apply_patch_call",
            "code_interpreter_call",
            "computer_call",
            "custom_tool_call",
            "file_search_call",
            "final_output",
            "handoff_call",
            "image_generation_call",
            "local_shell_call",
            "mcp_approval_request",
            "mcp_call",
            "mcp_list_tools",
            "reasoning",
            "refusal",
            "shell_call",
            "tool_search_call",
            "web_search_call",
            "HandoffStep",
            "NOT_CHECKED",
            "ToolCallStep",
            "Trajectory",
            "TrajectoryMismatch",
            "TrajectoryStep",
            "assert_trajectory",
            "handoff_to",
            "tool_call",
            "capture_traces",
            "to_snapshot",
            "SmokeModel",
            "SmokeCall",
            "ToolReport",
            "SmokeGenerationError",
            "SmokeToolsFailed",
            "smoke_arguments",
            "tool_arguments",
            "run_with_approvals",
            "ApprovalRun",
            "ToolRun",
            "ApprovalRequest",
            "ApprovalRule",
            "ApprovalDecision",
            "approve",
            "reject",
            "ApprovalDecisionError",
            "ApprovalAssertionError",
            "assert_usage",
            "usage_report",
            "UsageReport",
            "UsageTotals",
            "RequestUsage",
            "ModelPrice",
            "UsageBudgetExceeded",
            "UnpricedModel",
            "FaultSchedule",
            "ModelFault",
            "UnusedModelFaults",
            "answer_after",
            "connection_reset",
            "rate_limit",
            "request_timeout",
            "server_error",
            "stream_cut",
        }
    ),
    "sandbox": frozenset(
        {
            "InvalidSandboxArgument",
            "InvalidSandboxStep",
            "ReplayedSandboxError",
            "SandboxCall",
            "SandboxCallMatcherError",
            "SandboxCallMismatch",
            "SandboxCassette",
            "SandboxCassetteFixture",
            "SandboxMethodUnavailable",
            "SandboxScriptError",
            "SandboxStepSpec",
            "ScriptedSandboxFactory",
            "ScriptedSandboxSession",
            "UnconsumedSandboxSteps",
            "UnexpectedSandboxCall",
            "any_order",
            "scripted_sandbox_session",
            "to_snapshot",
        }
    ),
    "mcp": frozenset(
        {
            "InvalidMCPArgument",
            "InvalidMCPStep",
            "MCPCall",
            "MCPCallMatcherError",
            "MCPCallMismatch",
            "MCPCassette",
            "MCPRequest",
            "MCPSchemaViolation",
            "MCPScriptError",
            "MCPStepSpec",
            "ReplayedMCPError",
            "ScriptedMCPServer",
            "ScriptedMCPServerFactory",
            "ScriptedPrompt",
            "ScriptedResource",
            "UnconsumedMCPSteps",
            "UnexpectedMCPCall",
            "any_order",
            "error_result",
            "image_result",
            "json_result",
            "mcp_error",
            "mcp_prompt",
            "mcp_resource",
            "mcp_tool",
            "text_result",
            "to_snapshot",
            "tool_result",
        }
    ),
}


class MissingBoundaryError(ModuleNotFoundError):
    """A bridged name belongs to a boundary package that is not installed.

    ``requested`` is the module or name asked for, ``boundary`` the boundary it belongs
    to and ``package`` the distribution to install. Raised only where the installed SDK
    has no module of its own that could serve instead; when the SDK's module exists but
    cannot be imported (the voice module without numpy), its error is the ``__cause__``.
    """

    def __init__(self, requested: str, boundary: str, *, sdk_problem: str | None = None) -> None:
        package = BOUNDARIES[boundary][0]
        self.requested = requested
        self.boundary = boundary
        self.package = package
        if sdk_problem is None:
            instead = "and the installed openai-agents has no testing module of its own for it"
        else:
            instead = f"and the SDK's own testing module cannot be imported ({sdk_problem})"
        super().__init__(
            f"{requested} needs the {boundary} boundary of agents-testing, which is not "
            f"installed, {instead}. Install it with `pip install {package}` "
            f"(or `uv add --dev {package}`).",
            name=package,
        )


def _installed_boundaries() -> dict[str, str]:
    """Map each installed boundary to the module that implements it.

    Reads the ``agents_testing.boundaries`` entry points of this project's distributions
    only (``agents_testing_*.dist-info``), in ``sys.path`` order like
    ``importlib.metadata``: scanning every installed distribution would cost more than
    the import it serves.
    """
    found: dict[str, str] = {}
    for entry_points in _our_entry_point_files():
        for name, value in _group(entry_points, ENTRY_POINT_GROUP):
            if name in BOUNDARIES:
                found.setdefault(name, value)
    return found


def _our_entry_point_files() -> Iterator[str]:
    seen: set[str] = set()
    for entry in sys.path:
        directory = entry or "."
        try:
            names = os.listdir(directory)
        except OSError:
            continue
        for name in sorted(names):
            lowered = name.lower()
            if not (lowered.startswith("agents_testing_") and lowered.endswith(".dist-info")):
                continue
            project = lowered.partition("-")[0]
            if project in seen:
                continue  # an earlier sys.path entry holds this distribution
            seen.add(project)
            yield os.path.join(directory, name, "entry_points.txt")


def _group(path: str, group: str) -> Iterator[tuple[str, str]]:
    """The ``name = value`` lines of one section of an ``entry_points.txt``."""
    try:
        with open(path, encoding="utf-8") as file:
            lines = file.read().splitlines()
    except OSError:
        return
    inside = False
    for raw in lines:
        line = raw.strip()
        if line.startswith("["):
            inside = line == f"[{group}]"
        elif inside and "=" in line and not line.startswith(("#", ";")):
            name, _, value = line.partition("=")
            yield name.strip(), value.strip()


def _sdk_spec(fullname: str) -> ModuleSpec | None:
    """The spec the SDK's own module of ``fullname`` would load from, if it has one.

    Asks the finders after ours, exactly as the import system would without the bridge.
    """
    parent_name = fullname.rpartition(".")[0]
    if parent_name == "agents.testing":
        parent = _sdk_spec(parent_name)
        path = None if parent is None else parent.submodule_search_locations
        if path is None:
            return None
    else:
        path = getattr(sys.modules.get(parent_name), "__path__", None)
    for finder in sys.meta_path:
        if isinstance(finder, _startup.BridgeFinder):
            continue
        find_spec = getattr(finder, "find_spec", None)
        if find_spec is None:
            continue
        spec = find_spec(fullname, path)
        if spec is not None:
            return spec  # type: ignore[no-any-return]
    return None


class _AliasLoader(Loader):
    """Loads a bridged name as the boundary module itself, so classes keep one identity."""

    def __init__(self, module: str) -> None:
        self.module = module
        self._own_spec: ModuleSpec | None = None

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        module = importlib.import_module(self.module)
        self._own_spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The import system stamps our spec on whatever create_module returned; the
        # aliased module keeps its own, so its origin stays truthful.
        module.__spec__ = self._own_spec


class _SDKLoader(Loader):
    """Loads the SDK's own module under its own name; an ImportError becomes the hint.

    The SDK's module is executed as it is, from its own spec; nothing of it is wrapped.
    """

    def __init__(self, sdk: ModuleSpec, requested: str, boundary: str) -> None:
        self.sdk = sdk
        self.requested = requested
        self.boundary = boundary

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        return module_from_spec(self.sdk)

    def exec_module(self, module: ModuleType) -> None:
        module.__spec__ = self.sdk
        loader = self.sdk.loader
        assert loader is not None
        try:
            loader.exec_module(module)
        except ImportError as error:
            if self.boundary in _installed_boundaries():
                raise  # ours is installed, so the SDK's own error is the real problem
            raise MissingBoundaryError(
                self.requested, self.boundary, sdk_problem=str(error) or type(error).__name__
            ) from error


class _MissingLoader(Loader):
    """Raises the install hint for a name that neither ours nor the SDK can serve."""

    def __init__(self, boundary: str, requested: str | None = None) -> None:
        self.boundary = boundary
        self.requested = requested

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        raise MissingBoundaryError(self.requested or spec.name, self.boundary)

    def exec_module(self, module: ModuleType) -> None:  # pragma: no cover - never reached
        raise MissingBoundaryError(module.__name__, self.boundary)


class _UnionLoader(Loader):
    """Loads ``agents.testing`` as the union of our installed boundaries and, for the
    ones not installed, the names of the SDK's own ``agents.testing``."""

    def __init__(self, modules: dict[str, str]) -> None:
        self.modules = modules  # boundary -> module name, only those installed

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        wanted = [b for b, (_, names) in BOUNDARIES.items() if spec.name in names]
        union = ModuleType(spec.name, "Union of the installed agents-testing boundaries.")
        # Each name is fetched from its package on first use: the boundary packages
        # import their SDK parts lazily, and the union keeps it that way.
        owners: dict[str, ModuleType] = {}
        for boundary in wanted:
            if boundary in self.modules:
                member = importlib.import_module(self.modules[boundary])
                names: Sequence[str] = getattr(member, "__all__", ())
                owners.update(dict.fromkeys(names, member))
        absent = [b for b in wanted if b not in self.modules]
        union.__path__ = []
        if absent:
            sdk = _load_sdk_testing(spec.name, kept=[b for b in wanted if b in self.modules])
            if sdk is not None:
                for name in _public_names(sdk):
                    owners.setdefault(name, sdk)
                union.__path__ = list(sdk.__path__)
        missing = {b: _BOUNDARY_SYMBOLS.get(b, frozenset()) - set(owners) for b in absent}
        union.__all__ = sorted(owners)  # type: ignore[attr-defined]
        union.__getattr__ = _union_attr(union, owners, missing)  # type: ignore[method-assign]
        union.__dir__ = lambda: sorted(set(vars(union)) | set(owners))  # type: ignore[method-assign]
        return union

    def exec_module(self, module: ModuleType) -> None:
        return None


def _public_names(module: ModuleType) -> list[str]:
    names = getattr(module, "__all__", None)
    if names is None:
        names = [
            name
            for name, value in vars(module).items()
            if not name.startswith("_") and not isinstance(value, ModuleType)
        ]
    return list(names)


def _load_sdk_testing(fullname: str, *, kept: list[str]) -> ModuleType | None:
    """The SDK's own ``agents.testing`` package object, or None when it has none.

    It is executed under its own name, so its relative imports find its own
    sub-modules; while it runs the bridge steps aside for ``agents.testing.*``.
    Afterwards the name is handed back to the union (the import system stores it), and
    the sub-modules that one of our installed boundaries serves are forgotten again.
    """
    spec = _sdk_spec(fullname)
    if spec is None or spec.loader is None:
        return None
    module = module_from_spec(spec)
    _startup.PASSIVE.add(fullname)
    sys.modules[fullname] = module
    try:
        spec.loader.exec_module(module)
    except ImportError:
        return None
    finally:
        sys.modules.pop(fullname, None)
        _startup.PASSIVE.discard(fullname)
        for boundary in kept:
            for name in BOUNDARIES[boundary][1]:
                if name != fullname:
                    sys.modules.pop(name, None)
    return module


def _union_attr(
    union: ModuleType, owners: dict[str, ModuleType], missing: dict[str, frozenset[str]]
) -> Any:
    def __getattr__(name: str) -> Any:
        owner = owners.get(name)
        if owner is not None:
            value = getattr(owner, name)
            setattr(union, name, value)  # the very object, cached for later lookups
            return value
        for boundary, symbols in missing.items():
            if name in symbols:
                raise MissingBoundaryError(f"{union.__name__}.{name}", boundary)
        raise AttributeError(f"module {union.__name__!r} has no attribute {name!r}")

    return __getattr__


def _spec(fullname: str, loader: Loader, *, like: ModuleSpec | None = None) -> ModuleSpec:
    spec = ModuleSpec(fullname, loader, is_package=fullname == "agents.testing")
    spec.origin = __file__ if like is None else like.origin
    return spec


def bridged_spec(fullname: str) -> ModuleSpec:
    """The spec of one bridged name, resolved against the installed boundary packages."""
    installed = _installed_boundaries()
    wanted = [b for b, (_, names) in BOUNDARIES.items() if fullname in names]
    if len(wanted) > 1:
        if not any(b in installed for b in wanted):
            # Name the package of the sub-module being imported, if that is what brought
            # us here (`import agents.testing.sandbox`); the model package otherwise.
            boundary = next(
                (b for b in wanted if _startup._importing(BOUNDARIES[b][1][-1])), wanted[0]
            )
            requested = BOUNDARIES[boundary][1][-1] if boundary != wanted[0] else fullname
            sdk = _sdk_spec(fullname)
            if sdk is not None:
                return _spec(fullname, _SDKLoader(sdk, requested, boundary), like=sdk)
            # Nothing can serve: an empty union, so that asking it for a name (or a
            # sub-module) raises the hint of the package that name belongs to.
        return _spec(fullname, _UnionLoader(installed))
    boundary = wanted[0]
    if boundary in installed:
        return _spec(fullname, _AliasLoader(installed[boundary]))
    sdk = _sdk_spec(fullname)
    if sdk is not None:
        return _spec(fullname, _SDKLoader(sdk, fullname, boundary), like=sdk)
    return _spec(fullname, _MissingLoader(boundary))


def parent_spec(fullname: str, child: str) -> ModuleSpec | None:
    """The SDK package ``fullname`` (``agents.voice``), loaded so that an ImportError
    while ``child`` is being imported becomes the install hint of ``child``'s boundary.

    ``agents.voice`` needs numpy; without our voice package (which brings it) the
    user asking for ``agents.voice.testing`` learns what to install, not what is
    missing inside the SDK.
    """
    sdk = _sdk_spec(fullname)
    if sdk is None:
        return None
    boundary = next(b for b, (_, names) in BOUNDARIES.items() if child in names)
    spec = ModuleSpec(fullname, _SDKLoader(sdk, child, boundary), is_package=True)
    spec.origin = sdk.origin
    spec.submodule_search_locations = sdk.submodule_search_locations
    return spec


# Public names show agents_testing.core, however this module was first imported.
from ..lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
