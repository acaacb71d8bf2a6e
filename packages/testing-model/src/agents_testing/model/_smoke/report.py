"""What a smoke run found, per tool: each call's arguments and whether the tool returned,
raised, or never ran.

The model sees a tool only through the output the runner sends back. A function tool
that raises is answered by its ``failure_error_function`` (the SDK's
``default_tool_error_function`` unless the tool names its own); the output counts as
"raised" when it is what that function makes of an unexpected exception, found by
asking it once with a probe exception (its text is the probe's, with anything before
and after it kept as the pattern).
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from typing import Any, Literal

from agents_testing.core import compat, safe_repr

__all__ = ["SmokeCall", "SmokeOutcome", "ToolReport", "failure_recognizer"]

SmokeOutcome = Literal["returned", "raised", "not_run"]

_PROBE = "agents-testing smoke probe 7f3a"


class _SmokeProbe(Exception):
    """The unexpected exception a tool's failure function is asked about."""


@dataclasses.dataclass(frozen=True)
class SmokeCall:
    """One call a :class:`SmokeModel` made: the tool, the arguments, what came back.

    ``outcome`` is ``"returned"``, ``"raised"`` (the output is the tool's failure
    message) or ``"not_run"`` (no output came back: the run stopped first, for an
    approval or an error); ``output`` is the output the model was sent (None when not run).
    ``round`` (0-based) is which of the tool's calls it was.
    """

    tool: str
    arguments: dict[str, Any]
    call_id: str
    agent: str | None
    round: int
    outcome: SmokeOutcome
    output: Any = None

    def __repr__(self) -> str:
        shown = "" if self.output is None else f", output={safe_repr(self.output, 60)}"
        return (
            f"SmokeCall({self.tool!r}, {safe_repr(self.arguments, 80)}, "
            f"outcome={self.outcome!r}{shown})"
        )


@dataclasses.dataclass(frozen=True)
class ToolReport:
    """Every smoke call of one tool, in order, with what they add up to."""

    name: str
    calls: tuple[SmokeCall, ...]

    @property
    def ran(self) -> bool:
        """Whether the tool ran at least once (returned or raised)."""
        return any(call.outcome != "not_run" for call in self.calls)

    @property
    def raised(self) -> bool:
        """Whether any call of the tool raised."""
        return any(call.outcome == "raised" for call in self.calls)

    @property
    def returned(self) -> bool:
        """Whether every call of the tool ran and returned."""
        return bool(self.calls) and all(call.outcome == "returned" for call in self.calls)

    @property
    def outcome(self) -> SmokeOutcome:
        """``"raised"`` if any call raised, else ``"not_run"`` if any did not run, else
        ``"returned"``."""
        if self.raised:
            return "raised"
        if not self.returned:
            return "not_run"
        return "returned"


def failure_recognizer(tool: Any) -> Callable[[Any], bool]:
    """A test of an output: is it what ``tool``'s failure function says for an exception?"""
    formatter = compat.function_tool_failure_formatter(tool)
    if formatter is None:
        return _never  # the exception fails the run; no output says so
    try:
        text = formatter(None, _SmokeProbe(_PROBE))
    except Exception:
        return _never  # it needs a real context; its outputs cannot be told apart
    if inspect.isawaitable(text):
        close = getattr(text, "close", None)
        if callable(close):
            close()  # an async formatter: not awaited here, so its outputs are not known
        return _never
    if not isinstance(text, str):
        return _never
    if _PROBE not in text:
        return lambda output: output == text
    before, _, after = text.partition(_PROBE)
    return lambda output: (
        isinstance(output, str)
        and output.startswith(before)
        and output.endswith(after)
        and len(output) >= len(before) + len(after)
    )


def _never(output: Any) -> bool:
    return False


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
