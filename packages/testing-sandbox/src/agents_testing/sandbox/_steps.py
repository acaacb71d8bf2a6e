"""Sandbox steps: the ``SandboxStepSpec`` dict a test writes and its validated form.

A step names one session method and exactly one outcome; ``_script.build`` checks it
when the script is built and snapshots its static result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypedDict

from typing_extensions import NotRequired

from agents_testing.core import DictStep, compat

from ._call import SandboxCall
from ._snapshots.values import thaw

__all__ = ["BASE_METHODS", "PTY_METHODS", "SandboxStepSpec", "Step", "scriptable_methods"]

BASE_METHODS: tuple[str, ...] = (
    "apply_patch",
    "exec",
    "ls",
    "mkdir",
    "pty_exec_start",
    "pty_write_stdin",
    "read",
    "rm",
    "write",
)
PTY_METHODS: frozenset[str] = frozenset({"pty_exec_start", "pty_write_stdin"})

# A responder may be sync or async: it returns the result or an awaitable of it.
Responder = Callable[[SandboxCall], Any]
Matcher = Callable[[SandboxCall], object]


class SandboxStepSpec(TypedDict):
    """One scripted sandbox call: ``method`` plus exactly one of ``result``, ``responder``
    or ``error`` (an exception instance), and an optional ``match`` that must not return
    ``False``.

    Methods that return ``None`` (``write``, ``mkdir``, ``rm``, ``mv``) may leave the
    outcome out; the step then returns ``None``.
    """

    method: str
    result: NotRequired[Any]
    responder: NotRequired[Responder]
    error: NotRequired[BaseException]
    match: NotRequired[Matcher]


@dataclass(frozen=True)
class Step(DictStep):
    """A validated step; ``value`` is the snapshotted result, the responder or the error."""

    #: Whether the snapshotted result holds a captured stream, which every use must get
    #: afresh; any other result is handed out as it is, once, when the step is used.
    streams: bool = False

    name_key: ClassVar[str] = "method"

    def fresh_result(self) -> Any:
        return thaw(self.value)


def scriptable_methods() -> frozenset[str]:
    """Every method name a step may script on the installed SDK."""
    return frozenset(BASE_METHODS) | frozenset(compat.sandbox_optional_operations())


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
