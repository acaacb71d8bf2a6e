"""The type of the ``scripted_sandbox`` pytest fixture, for strictly typed tests."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from agents.sandbox.manifest import Manifest

    from agents_testing.core import AnyOrder

    from ._session import ScriptedSandboxSession
    from ._steps import SandboxStepSpec

__all__ = ["ScriptedSandboxFactory"]


class ScriptedSandboxFactory(Protocol):
    """What the ``scripted_sandbox`` fixture is: call it like ``scripted_sandbox_session(...)``.

    Annotate the fixture with it, ``def test_x(scripted_sandbox: ScriptedSandboxFactory)``.
    ``extra_checks`` left as ``None`` follows the test's ``agents_testing`` marker (on
    unless the marker says ``extra_checks=False``).
    """

    def __call__(
        self,
        steps: Iterable[SandboxStepSpec | AnyOrder[SandboxStepSpec]] = (),
        *,
        manifest: Manifest | None = None,
        extra_checks: bool | None = None,
    ) -> ScriptedSandboxSession: ...


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
