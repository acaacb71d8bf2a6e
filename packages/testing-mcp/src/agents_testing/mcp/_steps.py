"""MCP steps in their validated form, built from the ``MCPStepSpec`` dicts a test writes.

A step scripts one ``call_tool`` call: the ``tool`` it expects, an optional ``match`` on
the call, exactly one outcome and an optional ``delay`` before it; ``_script.build``
checks it when the server is made.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from agents_testing.core import DictStep, detach

from ._results.coerce import fresh_result

__all__ = ["Step"]


@dataclass(frozen=True)
class Step(DictStep):
    """A validated step; ``value`` is the snapshotted result, the responder, the error or
    ``True`` (``kind == "crash"``: the server dies mid-call); ``delay`` the seconds the
    server takes before the outcome.

    ``match`` is a function of the call, or a mapping the call's arguments must equal.
    """

    delay: float = 0.0

    name_key: ClassVar[str] = "tool"

    def spec(self) -> Any:
        spec = super().spec()
        if self.delay:
            spec["delay"] = self.delay
        return spec

    def fresh_result(self) -> Any:
        return fresh_result(self.value)

    def fresh_match(self) -> Any:
        return detach(self.match) if isinstance(self.match, Mapping) else self.match
