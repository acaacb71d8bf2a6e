"""Import bridge: serve ``agents.testing`` and friends from the agents-testing packages.

The SDK's ``agents`` is a regular package, so other distributions cannot add
sub-modules to it. :class:`BridgeFinder` is installed at interpreter start-up: by the
``import`` line of ``agents-testing-bridge.pth`` up to Python 3.14, and from 3.15 by the
PEP 829 entry point ``_agents_testing_bridge:start`` in ``agents-testing-bridge.start``
(whose presence makes Python skip that ``.pth`` import line). It answers only for the
bridged names and hands each to ``agents_testing.core._bridge.resolve``, which
resolves it against the boundary packages registered under the
``agents_testing.boundaries`` entry points. Set
``AGENTS_TESTING_BRIDGE=0`` to turn it off.

PYTEST_DONT_REWRITE: this module is imported at interpreter start-up, before pytest
could rewrite its asserts (it has none), so pytest must not try and warn.
"""

# Don't import any costly modules here: this runs at every interpreter start-up. Not
# even ``__future__`` or ``typing``; annotations are strings and TYPE_CHECKING is ours.
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType

__all__ = [
    "BRIDGED_NAMES",
    "PARENTS",
    "PASSIVE",
    "BridgeFinder",
    "enabled",
    "install",
    "start",
    "uninstall",
]

BRIDGED_NAMES = frozenset(
    {
        "agents.testing",
        "agents.testing.model",
        "agents.testing.sandbox",
        "agents.realtime.testing",
        "agents.voice.testing",
        "agents.mcp.testing",
    }
)

# SDK packages that a bridged name lives in, and that can fail to import on their own
# (``agents.voice`` needs numpy): while the bridged child is being imported, an
# ImportError of the parent becomes the install hint of the child's boundary.
PARENTS = {"agents.voice": "agents.voice.testing"}

# Bridged packages whose sub-modules the bridge leaves to the SDK for a moment, while it
# loads the SDK's own package to serve its names (see agents_testing.core._bridge.resolve).
PASSIVE: "set[str]" = set()


def enabled() -> bool:
    """Whether the environment allows the bridge (``AGENTS_TESTING_BRIDGE`` not off)."""
    value = os.environ.get("AGENTS_TESTING_BRIDGE", "1").strip().lower()
    return value not in ("0", "false", "no", "off")


class BridgeFinder:
    """Meta-path finder that answers only for the bridged names; ``None`` for all others."""

    def find_spec(
        self,
        fullname: "str",
        path: "Sequence[str] | None" = None,
        target: "ModuleType | None" = None,
    ) -> "ModuleSpec | None":
        if fullname not in BRIDGED_NAMES:
            child = PARENTS.get(fullname)
            if child is None or not _importing(child):
                return None
            from agents_testing.core._bridge.resolve import parent_spec

            return parent_spec(fullname, child)
        if PASSIVE and fullname.rpartition(".")[0] in PASSIVE:
            return None
        from agents_testing.core._bridge.resolve import bridged_spec

        return bridged_spec(fullname)

    def invalidate_caches(self) -> None:
        return None


def _importing(name: "str") -> bool:
    """Whether an import of ``name`` is in progress on this thread's stack."""
    frame = sys._getframe(1)
    while frame is not None:
        if (
            frame.f_code.co_name == "_find_and_load"
            and frame.f_globals.get("__name__") == "importlib._bootstrap"
            and frame.f_locals.get("name") == name
        ):
            return True
        frame = frame.f_back  # type: ignore[assignment]
    return False


_FINDER = BridgeFinder()


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (idempotent)."""
    if not any(isinstance(f, BridgeFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _FINDER)


def start() -> None:
    """Install the finder unless ``AGENTS_TESTING_BRIDGE`` turns it off (the start-up entry point).

    What the ``.pth`` line does, as a PEP 829 entry point. Installing is idempotent, so
    the bridge is installed once even where both the ``.pth`` line and this run.
    """
    if enabled():
        install()


def uninstall() -> None:
    """Remove the finder from ``sys.meta_path``; already-imported modules stay."""
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, BridgeFinder)]
