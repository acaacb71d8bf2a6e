"""How the import bridge resolves a bridged name, loaded on the first such import.

The start-up half (``_agents_testing_bridge``, installed by a ``.pth`` line) knows only
the bridged names; this module finds the installed boundary packages through their
``agents_testing.boundaries`` entry points and builds the module for a name: the
boundary package itself, or the union of several for ``agents.testing``.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from importlib.abc import Loader
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

__all__ = ["BOUNDARIES", "ENTRY_POINT_GROUP", "MissingBoundaryError", "bridged_spec"]

ENTRY_POINT_GROUP = "agents_testing.boundaries"

# boundary -> (distribution to install, bridged module names it serves)
BOUNDARIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "model": ("agents-testing-model", ("agents.testing", "agents.testing.model")),
    "sandbox": ("agents-testing-sandbox", ("agents.testing", "agents.testing.sandbox")),
    "realtime": ("agents-testing-realtime", ("agents.realtime.testing",)),
    "voice": ("agents-testing-voice", ("agents.voice.testing",)),
}

# The public names of each boundary, so that asking a bridged module for a name of
# a boundary that is not installed can say which package to install.
_BOUNDARY_SYMBOLS: dict[str, frozenset[str]] = {
    "model": frozenset(
        {
            "CassetteModel",
            "CassetteModelProvider",
            "InvalidModelStep",
            "ModelCall",
            "ModelCassette",
            "ModelRequestMismatch",
            "ModelScriptError",
            "ModelStep",
            "ModelStepSpec",
            "RecordingModel",
            "RecordingModelProvider",
            "ReplayedModelError",
            "ScriptedModel",
            "UnconsumedModelSteps",
            "UnexpectedModelCall",
            "assistant_message",
            "function_call",
        }
    ),
    "sandbox": frozenset(
        {
            "InvalidSandboxStep",
            "ReplayedSandboxError",
            "SandboxCall",
            "SandboxCallMatcherError",
            "SandboxCallMismatch",
            "SandboxCassette",
            "SandboxScriptError",
            "SandboxStepSpec",
            "ScriptedSandboxSession",
            "UnconsumedSandboxSteps",
            "UnexpectedSandboxCall",
            "scripted_sandbox_session",
        }
    ),
}


class MissingBoundaryError(ModuleNotFoundError):
    """A bridged name belongs to a boundary package that is not installed."""

    def __init__(self, requested: str, boundary: str) -> None:
        package = BOUNDARIES[boundary][0]
        self.requested = requested
        self.boundary = boundary
        self.package = package
        super().__init__(
            f"{requested} needs the {boundary} boundary, which is not installed. "
            f"Install it with `pip install {package}` (or `uv add --dev {package}`). "
            "Set AGENTS_TESTING_BRIDGE=0 to use the SDK's own testing modules instead.",
            name=package,
        )


def _installed_boundaries() -> dict[str, str]:
    """Map each installed boundary to the module that implements it."""
    from importlib.metadata import entry_points

    found: dict[str, str] = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        if point.name in BOUNDARIES:
            found.setdefault(point.name, point.value)
    return found


class _Loader(Loader):
    """Loads a bridged name as the boundary module itself, or as the union of several."""

    def __init__(self, fullname: str, modules: dict[str, str]) -> None:
        self.fullname = fullname
        self.modules = modules  # boundary -> module name, only those installed
        self._own_spec: ModuleSpec | None = None

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        wanted = [b for b, (_, names) in BOUNDARIES.items() if spec.name in names]
        if len(wanted) == 1:
            boundary = wanted[0]
            if boundary not in self.modules:
                raise MissingBoundaryError(spec.name, boundary)
            # The very module object, so classes keep one identity under both names.
            module = importlib.import_module(self.modules[boundary])
            self._own_spec = module.__spec__
            return module

        if not any(b in self.modules for b in wanted):
            raise MissingBoundaryError(spec.name, wanted[0])
        union = ModuleType(spec.name, "Union of the installed agents-testing boundaries.")
        # Each name is fetched from its package on first use: the boundary packages
        # import their SDK parts lazily, and the union keeps it that way.
        owners: dict[str, ModuleType] = {}
        for boundary in wanted:
            if boundary in self.modules:
                member = importlib.import_module(self.modules[boundary])
                names: Sequence[str] = getattr(member, "__all__", ())
                owners.update(dict.fromkeys(names, member))
        missing = {
            b: _BOUNDARY_SYMBOLS.get(b, frozenset()) for b in wanted if b not in self.modules
        }
        union.__all__ = sorted(owners)  # type: ignore[attr-defined]
        union.__path__ = []
        union.__getattr__ = _union_attr(union, owners, missing)  # type: ignore[method-assign]
        union.__dir__ = lambda: sorted(set(vars(union)) | set(owners))  # type: ignore[method-assign]
        return union

    def exec_module(self, module: ModuleType) -> None:
        # The import system stamps our spec on whatever create_module returned; an
        # aliased boundary module keeps its own, so its origin stays truthful.
        if self._own_spec is not None:
            module.__spec__ = self._own_spec


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


def bridged_spec(fullname: str) -> ModuleSpec:
    """The spec of one bridged name, resolved against the installed boundary packages."""
    installed = _installed_boundaries()
    is_package = fullname == "agents.testing"
    spec = ModuleSpec(fullname, _Loader(fullname, installed), is_package=is_package)
    spec.origin = __file__
    return spec
