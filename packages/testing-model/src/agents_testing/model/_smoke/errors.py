"""Errors of the smoke model: a value it cannot generate, and tools that failed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from agents_testing.core import error_fields, safe_repr

from .._errors import ModelScriptError

if TYPE_CHECKING:
    from .report import SmokeCall

__all__ = [
    "SmokeGenerationError",
    "SmokeToolsFailed",
    "smoke_generation_failed",
    "smoke_tools_failed",
]


@error_fields
class SmokeGenerationError(ModelScriptError):
    """A :class:`SmokeModel` could not make a value from a JSON Schema.

    ``target`` is the tool name (or ``"the final output (<type>)"``), ``path`` the JSON
    path where no value was found and ``reason`` why. Raised from the model call that
    needed the value, so ``Runner.run`` raises it.
    """

    target: str
    path: str
    reason: str


@error_fields
class SmokeToolsFailed(ModelScriptError, AssertionError):
    """``SmokeModel.assert_tools_ok()`` found calls that raised or never ran (or no call).

    ``calls`` are every smoke call with its outcome; ``failed_tools`` the tools that
    raised and ``not_run_tools`` those with a call that never ran.
    """

    calls: tuple[SmokeCall, ...]

    def __post_init__(self, message: str) -> None:
        super().__post_init__(message)
        calls = self.calls
        self.failed_tools = list(dict.fromkeys(c.tool for c in calls if c.outcome == "raised"))
        self.not_run_tools = list(dict.fromkeys(c.tool for c in calls if c.outcome == "not_run"))


def smoke_generation_failed(target: str, path: str, reason: str) -> SmokeGenerationError:
    """``Cannot generate ... for <target> from its JSON Schema: at <path>: <reason>. ...``."""
    if target.startswith("the final output"):
        fix = "pass SmokeModel(final_output=<a value of the output type>)"
        shown = target
    else:
        fix = (
            f"give them with SmokeModel(arguments={{{safe_repr(target, 60)}: {{...}}}}), or "
            f"draw them with smoke_arguments(...) under @given"
        )
        shown = f"tool {safe_repr(target, 60)}"
    return SmokeGenerationError(
        f"Cannot generate a value for {shown} from its JSON Schema: at {path}: {reason}. "
        f"To smoke it anyway, {fix}.",
        target=target,
        path=path,
        reason=reason,
    )


def smoke_tools_failed(calls: tuple[SmokeCall, ...]) -> SmokeToolsFailed:
    """The smoke calls, one line each, the ones that did not return marked."""
    if not calls:
        return SmokeToolsFailed(
            "The smoke run called no tool: the agents offered no function tool that "
            "SmokeModel(tools=...) selects, or the model was not used.",
            calls=calls,
        )
    bad = [call for call in calls if call.outcome != "returned"]
    lines = [f"{len(bad)} of {len(calls)} smoke call(s) did not return:"]
    for number, call in enumerate(calls, start=1):
        mark = ">" if call.outcome != "returned" else " "
        agent = "" if call.agent is None else f" ({call.agent})"
        output = "" if call.output is None else f" -> {safe_repr(call.output, 100)}"
        lines.append(
            f"{mark} {number}  {call.tool}{agent} {safe_repr(call.arguments, 100)}: "
            f"{call.outcome}{output}"
        )
    lines.append(
        "(> marks a call that raised or never ran. A raised call's output is what the "
        "tool's failure_error_function makes of an exception.)"
    )
    return SmokeToolsFailed("\n".join(lines), calls=calls)


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
