"""Errors of scripted approvals: a decision that failed, and an approval assertion."""

from __future__ import annotations

from typing import Any, Literal

from agents_testing.core import error_fields, ordinal, safe_repr

from .._errors import ModelScriptError

__all__ = [
    "ApprovalAssertionError",
    "asked_again",
    "too_many_interruptions",
    "unknown_rule_tools",
    "ApprovalDecisionError",
    "ApprovalDecisionReason",
    "approval_decision_failed",
]

ApprovalDecisionReason = Literal[
    "decision_raised",
    "invalid_decision",
    "undecided",
    "unknown_tool",
    "asked_again",
    "too_many_interruptions",
]


@error_fields
class ApprovalDecisionError(ModelScriptError):
    """A tool call the run stopped for could not be decided, or ``decide`` names no tool.

    ``reason``: ``"decision_raised"`` (the decision function raised; it is the
    ``__cause__``), ``"invalid_decision"`` (it returned something else than a decision),
    ``"undecided"`` (no rule matched the call), ``"unknown_tool"`` (a rule names a tool
    no agent of the run has), ``"asked_again"`` (the resumed run stopped again for a call
    that was already decided: the decision was lost, an SDK regression) or
    ``"too_many_interruptions"`` (the run kept stopping, 50 times). ``tool_name`` is the
    tool, ``arguments`` the call's decoded arguments and ``interruption_index`` the
    0-based position of the call among all calls the run stopped for (None for
    ``unknown_tool``); ``known_tools`` the names the run has.
    """

    reason: ApprovalDecisionReason
    tool_name: str
    arguments: Any = None
    interruption_index: int | None = None
    known_tools: tuple[str, ...] = ()


@error_fields
class ApprovalAssertionError(ModelScriptError, AssertionError):
    """An assertion of an :class:`ApprovalRun` failed: ``expected`` and ``actual`` say how."""

    expected: str
    actual: str


def approval_decision_failed(
    reason: ApprovalDecisionReason, request: Any, number: int, detail: str
) -> ApprovalDecisionError:
    """``Cannot decide approval #N (tool 'x', arguments {...}): <detail>. ...``."""
    fix = {
        "decision_raised": "Fix the decision function",
        "invalid_decision": "Fix the decision function",
        "undecided": (
            f"Add a rule for it, e.g. approve({safe_repr(request.tool_name, 60)}) or "
            f"reject({safe_repr(request.tool_name, 60)}, message=...)"
        ),
        "unknown_tool": "Name a tool of the agents",
        "asked_again": "Check the SDK release, or how the state is resumed",
        "too_many_interruptions": "Check the agent's loop",
    }[reason]
    return ApprovalDecisionError(
        f"Cannot decide approval #{ordinal(number)} (tool {safe_repr(request.tool_name, 60)}, "
        f"arguments {safe_repr(request.arguments, 100)}): {detail}. {fix}.",
        reason=reason,
        tool_name=request.tool_name,
        arguments=request.arguments,
        interruption_index=number,
    )


def unknown_rule_tools(names: list[str], known: tuple[str, ...]) -> ApprovalDecisionError:
    """``decide`` names tools that no agent of the run has."""
    return ApprovalDecisionError(
        f"decide= names {', '.join(safe_repr(name, 60) for name in names)}, which no agent "
        f"of this run has (its tools: {', '.join(known) or 'none'}). Fix the tool name in "
        f"the rule (a misspelt name would never match, and the call would go undecided).",
        reason="unknown_tool",
        tool_name=names[0],
        known_tools=known,
    )


def asked_again(request: Any, number: int, approved: bool, round: int) -> ApprovalDecisionError:
    """The resumed run asks again about a call that was already decided."""
    verdict = "approved" if approved else "rejected"
    return approval_decision_failed(
        "asked_again",
        request,
        number,
        f"the run stopped for this call again after it was {verdict} at interruption "
        f"{ordinal(round)}, so the resumed run lost the decision",
    )


def too_many_interruptions(legs: int) -> ApprovalDecisionError:
    """The run kept stopping for approvals."""
    return ApprovalDecisionError(
        f"The run stopped for approval {legs} times in a row; a tool that asks for approval "
        f"on every call in a loop never ends. Check the agent's loop (or max_turns).",
        reason="too_many_interruptions",
        tool_name="",
    )


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
