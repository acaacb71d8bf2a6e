"""Import bridge: serve ``agents.testing`` and friends from the agents-testing packages.

The SDK's ``agents`` is a regular package, so other distributions cannot add
sub-modules to it. A ``.pth`` line installs :class:`BridgeFinder` at interpreter
start-up; it answers only for the five bridged names and hands each to
``agents_testing.core._bridge``, which resolves it against the boundary packages
registered under the ``agents_testing.boundaries`` entry points. Set
``AGENTS_TESTING_BRIDGE=0`` to turn it off.
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

__all__ = ["BRIDGED_NAMES", "BridgeFinder", "enabled", "install", "uninstall"]

BRIDGED_NAMES = frozenset(
    {
        "agents.testing",
        "agents.testing.model",
        "agents.testing.sandbox",
        "agents.realtime.testing",
        "agents.voice.testing",
    }
)


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
            return None
        from agents_testing.core._bridge import bridged_spec

        return bridged_spec(fullname)

    def invalidate_caches(self) -> None:
        return None


_FINDER = BridgeFinder()


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (idempotent)."""
    if not any(isinstance(f, BridgeFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _FINDER)


def uninstall() -> None:
    """Remove the finder from ``sys.meta_path``; already-imported modules stay."""
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, BridgeFinder)]
