"""Scripted approval decisions: rules by tool name and arguments, or a function.

``decide`` is one of: a rule (``approve(...)`` / ``reject(...)``), a list of rules (the
first that matches decides), a mapping of tool name to ``"approve"``, ``"reject"`` or a
rule, or a function taking the :class:`ApprovalRequest` and returning ``True`` /
``"approve"``, ``False`` / ``"reject"`` or a rule.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from agents_testing.core import safe_repr

from .._errors import invalid_argument
from .._script.validation import describe
from .errors import approval_decision_failed

__all__ = [
    "ApprovalDecision",
    "ApprovalRequest",
    "ApprovalRule",
    "Decide",
    "approve",
    "decide_one",
    "reject",
    "rule_tool_names",
]


@dataclasses.dataclass(frozen=True)
class ApprovalRequest:
    """One tool call the run stopped for: what a decision function is given.

    ``arguments`` are the decoded arguments (``{}`` when there are none; the raw text when
    they are not JSON), ``agent`` the name of the agent that made the call and ``item``
    the SDK's ``ToolApprovalItem`` itself.
    """

    tool_name: str
    arguments: Any
    call_id: str | None
    agent: str | None
    item: Any = dataclasses.field(repr=False, compare=False)


@dataclasses.dataclass(frozen=True)
class ApprovalRule:
    """Approve or reject the calls of ``tool`` (any tool when None) that ``when`` accepts.

    ``when`` is a mapping of argument values that must all be equal (matchers such as
    ``unittest.mock.ANY`` work), or a function of the decoded arguments returning a bool.
    A rejection sends ``message`` to the model (the SDK's default text when None);
    ``always`` makes the SDK remember the decision for later calls of the tool.
    """

    approved: bool
    tool: str | None = None
    when: Mapping[str, Any] | Callable[[Any], object] | None = None
    message: str | None = None
    always: bool = False

    def matches(self, request: ApprovalRequest) -> bool:
        """Whether this rule decides ``request``."""
        if self.tool is not None and self.tool != request.tool_name:
            return False
        if self.when is None:
            return True
        if isinstance(self.when, Mapping):
            arguments = request.arguments
            return isinstance(arguments, Mapping) and all(
                key in arguments and expected == arguments[key]
                for key, expected in self.when.items()
            )
        return bool(self.when(request.arguments))


@dataclasses.dataclass(frozen=True)
class ApprovalDecision:
    """What was decided for one call: the request, approved or not, and the message sent.

    ``round`` (0-based) is which interruption of the run it belonged to.
    """

    request: ApprovalRequest
    approved: bool
    message: str | None
    round: int

    @property
    def tool_name(self) -> str:
        """The name of the tool the call was for."""
        return self.request.tool_name

    @property
    def call_id(self) -> str | None:
        """The call id of the call."""
        return self.request.call_id


Decide = (
    ApprovalRule
    | Sequence[ApprovalRule]
    | Mapping[str, str | ApprovalRule]
    | Callable[[ApprovalRequest], object]
)
"""Every form ``run_with_approvals(decide=...)`` accepts."""


def approve(
    tool: str | None = None,
    *,
    when: Mapping[str, Any] | Callable[[Any], object] | None = None,
    always: bool = False,
) -> ApprovalRule:
    """Approve the calls of ``tool`` (every tool when None) whose arguments ``when`` accepts."""
    return _rule(True, tool, when, None, always, "approve")


def reject(
    tool: str | None = None,
    *,
    when: Mapping[str, Any] | Callable[[Any], object] | None = None,
    message: str | None = None,
    always: bool = False,
) -> ApprovalRule:
    """Reject the calls of ``tool`` whose arguments ``when`` accepts; ``message`` goes to
    the model (the SDK's default rejection text when None)."""
    return _rule(False, tool, when, message, always, "reject")


def _rule(
    approved: bool,
    tool: object,
    when: object,
    message: object,
    always: object,
    builder: str,
) -> ApprovalRule:
    if tool is not None and not isinstance(tool, str):
        raise invalid_argument(f"{builder}(tool)", "a tool name (str) or None", describe(tool))
    if when is not None and not (isinstance(when, Mapping) or callable(when)):
        raise invalid_argument(
            f"{builder}(when)", "a mapping of argument values or a function", describe(when)
        )
    if message is not None and not isinstance(message, str):
        raise invalid_argument(f"{builder}(message)", "a str or None", describe(message))
    if not isinstance(always, bool):
        raise invalid_argument(f"{builder}(always)", "a bool", describe(always))
    return ApprovalRule(approved, tool, when, message, always)


def check_decide(decide: object) -> None:
    """Raise ``InvalidModelArgument`` unless ``decide`` is a form ``decide_one`` takes."""
    if isinstance(decide, ApprovalRule) or callable(decide):
        return
    if isinstance(decide, Mapping):
        for name, value in decide.items():
            if not isinstance(name, str):
                raise invalid_argument("decide", "tool names (str) as keys", describe(name))
            if not (value in ("approve", "reject") or isinstance(value, ApprovalRule)):
                raise invalid_argument(
                    f"decide[{safe_repr(name, 40)}]",
                    "'approve', 'reject' or a rule made by approve()/reject()",
                    describe(value),
                )
        return
    if isinstance(decide, Sequence) and not isinstance(decide, (str, bytes)):
        for position, rule in enumerate(decide):
            if not isinstance(rule, ApprovalRule):
                raise invalid_argument(
                    f"decide[{position}]", "a rule made by approve() or reject()", describe(rule)
                )
        return
    raise invalid_argument(
        "decide",
        "a rule, a list of rules, a mapping of tool name to 'approve'/'reject', or a function",
        describe(decide),
    )


def rule_tool_names(decide: object) -> list[str]:
    """The tool names ``decide`` names explicitly (rules and mapping keys)."""
    if isinstance(decide, ApprovalRule):
        return [] if decide.tool is None else [decide.tool]
    if isinstance(decide, Mapping):
        return list(decide)
    if isinstance(decide, Sequence) and not isinstance(decide, (str, bytes)):
        return [rule.tool for rule in decide if isinstance(rule, ApprovalRule) and rule.tool]
    return []


def decide_one(decide: object, request: ApprovalRequest, number: int) -> ApprovalRule:
    """The rule that decides ``request`` (the ``number``-th interruption, 0-based)."""
    try:
        verdict = _verdict(decide, request)
    except Exception as error:
        raise approval_decision_failed(
            "decision_raised",
            request,
            number,
            f"the decision raised {type(error).__name__}: {safe_repr(str(error), 120)}",
        ) from error
    if verdict is None:
        raise approval_decision_failed(
            "undecided", request, number, "no rule of decide= matches it"
        )
    if isinstance(verdict, ApprovalRule):
        return verdict
    if verdict is True or verdict == "approve":
        return ApprovalRule(True, request.tool_name)
    if verdict is False or verdict == "reject":
        return ApprovalRule(False, request.tool_name)
    raise approval_decision_failed(
        "invalid_decision",
        request,
        number,
        f"the decision returned {describe(verdict)}; return True or 'approve', False or "
        f"'reject', or a rule made by approve()/reject()",
    )


def _verdict(decide: object, request: ApprovalRequest) -> object:
    if isinstance(decide, ApprovalRule):
        return decide if decide.matches(request) else None
    if isinstance(decide, Mapping):
        value = decide.get(request.tool_name)
        if isinstance(value, ApprovalRule):
            return value if value.matches(request) else None
        return value
    if isinstance(decide, Sequence) and not isinstance(decide, (str, bytes)):
        for rule in decide:
            if rule.matches(request):
                return rule
        return None
    assert callable(decide)
    return decide(request)


def request_of(item: Any, agent: str | None) -> ApprovalRequest:
    """The :class:`ApprovalRequest` of the SDK's ``ToolApprovalItem``."""
    raw = item.raw_item
    name = getattr(item, "tool_name", None) or _field(raw, "name") or _field(raw, "tool_name")
    arguments = _field(raw, "arguments")
    if arguments is None:
        arguments = _field(raw, "params") or _field(raw, "input")
    if isinstance(arguments, str):
        with contextlib.suppress(ValueError):
            arguments = json.loads(arguments) if arguments else {}
    call_id = _field(raw, "call_id") or _field(raw, "id")
    return ApprovalRequest(
        str(name),
        {} if arguments is None else arguments,
        call_id if isinstance(call_id, str) else None,
        agent,
        item,
    )


def _field(raw: Any, name: str) -> Any:
    if isinstance(raw, Mapping):
        return raw.get(name)
    return getattr(raw, name, None)


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
