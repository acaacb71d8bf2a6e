"""``run_with_approvals``: a run whose tool approvals are decided by a script, resumed from
``RunState`` after each interruption, optionally through its JSON form.

The runner's own API does the work: ``result.interruptions``, ``result.to_state()``,
``RunState.approve`` / ``reject``, ``RunState.to_json`` / ``RunState.from_json`` and
``Runner.run(agent, state)`` (all there from SDK 0.14 on). Which tools actually ran is
observed with ``RunHooks.on_tool_start`` (the user's own hooks still receive every
event), so a rejected call that runs after all is caught even if its output looks right.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from agents_testing.core import safe_repr

from .._errors import invalid_argument
from .._script.validation import describe
from .decisions import (
    ApprovalDecision,
    ApprovalRequest,
    Decide,
    check_decide,
    decide_one,
    request_of,
    rule_tool_names,
)
from .errors import (
    ApprovalAssertionError,
    asked_again,
    too_many_interruptions,
    unknown_rule_tools,
)

if TYPE_CHECKING:
    from agents.agent import Agent
    from agents.result import RunResult, RunResultStreaming

__all__ = ["ApprovalRun", "ToolRun", "run_with_approvals"]

_MAX_ROUNDS = 50


@dataclasses.dataclass(frozen=True)
class ToolRun:
    """One invocation of a tool the runner started (``RunHooks.on_tool_start``)."""

    tool_name: str
    call_id: str | None
    agent: str | None


class ApprovalRun:
    """What :func:`run_with_approvals` did: the results, the decisions, the tools that ran.

    ``result`` is the final result; ``results`` one per leg of the run (the first run and
    each resume); ``decisions`` every decision in order; ``states`` the JSON texts the run
    was resumed from (with ``round_trip=True``); ``tool_runs`` every tool the runner
    started, in order.
    """

    def __init__(
        self,
        results: list[RunResult | RunResultStreaming],
        decisions: list[ApprovalDecision],
        states: list[str],
        tool_runs: list[ToolRun],
    ) -> None:
        self.results = tuple(results)
        self.decisions = tuple(decisions)
        self.states = tuple(states)
        self.tool_runs = tuple(tool_runs)

    @property
    def result(self) -> RunResult | RunResultStreaming:
        """The result of the last leg: the run's final result."""
        return self.results[-1]

    @property
    def final_output(self) -> Any:
        """The final output of the run."""
        return self.result.final_output

    @property
    def approved(self) -> tuple[ApprovalDecision, ...]:
        """The decisions that approved a call."""
        return tuple(decision for decision in self.decisions if decision.approved)

    @property
    def rejected(self) -> tuple[ApprovalDecision, ...]:
        """The decisions that rejected a call."""
        return tuple(decision for decision in self.decisions if not decision.approved)

    def output_for(self, call_id: str) -> Any:
        """The output the model was sent for tool call ``call_id`` (None when none)."""
        for item in self.result.to_input_list():
            if (
                isinstance(item, Mapping)
                and str(item.get("type", "")).endswith("_call_output")
                and item.get("call_id") == call_id
            ):
                return item.get("output")
        return None

    def rejection_message(self, tool: str | None = None, *, call_id: str | None = None) -> Any:
        """The output the model saw for the one rejected call of ``tool`` (or ``call_id``)."""
        decision = self._one(tool, call_id, self.rejected, "rejected")
        assert decision.call_id is not None
        return self.output_for(decision.call_id)

    def assert_not_run(self, tool: str | None = None, *, call_id: str | None = None) -> None:
        """Assert that the decided calls of ``tool`` (or ``call_id``) were all rejected,
        that their tool never started, and that the model got only the rejection for them."""
        decisions = self._matching(tool, call_id, self.decisions, "decided")
        for decision in decisions:
            shown = _shown(decision)
            if decision.approved:
                raise _failure(f"{shown} was approved", "rejected", "approved")
            starts = self._starts(decision)
            if starts:
                raise _failure(
                    f"{shown} was rejected but its tool ran {len(starts)} time(s)",
                    "not run",
                    f"ran {len(starts)} time(s)",
                )
            output = None if decision.call_id is None else self.output_for(decision.call_id)
            if decision.message is not None and output != decision.message:
                raise _failure(
                    f"{shown} was rejected with {safe_repr(decision.message, 80)}, but the "
                    f"model was sent {safe_repr(output, 80)}",
                    repr(decision.message),
                    repr(output),
                )

    def assert_ran_once(self, tool: str | None = None, *, call_id: str | None = None) -> None:
        """Assert that the decided calls of ``tool`` (or ``call_id``) were all approved and
        that each one's tool started exactly once."""
        decisions = self._matching(tool, call_id, self.decisions, "decided")
        for decision in decisions:
            shown = _shown(decision)
            if not decision.approved:
                raise _failure(f"{shown} was rejected", "approved", "rejected")
            starts = self._starts(decision)
            if len(starts) != 1:
                raise _failure(
                    f"{shown} was approved but its tool ran {len(starts)} time(s)",
                    "ran once",
                    f"ran {len(starts)} time(s)",
                )

    def _starts(self, decision: ApprovalDecision) -> list[ToolRun]:
        return [
            run
            for run in self.tool_runs
            if run.call_id == decision.call_id
            and (run.call_id is not None or run.tool_name == decision.tool_name)
        ]

    def _matching(
        self,
        tool: str | None,
        call_id: str | None,
        decisions: tuple[ApprovalDecision, ...],
        kind: str,
    ) -> list[ApprovalDecision]:
        if tool is None and call_id is None:
            raise invalid_argument("tool", "a tool name or call_id=", "neither")
        found = [
            decision
            for decision in decisions
            if (tool is None or decision.tool_name == tool)
            and (call_id is None or decision.call_id == call_id)
        ]
        if not found:
            known = ", ".join(f"{d.tool_name} ({d.call_id})" for d in self.decisions) or "none"
            raise _failure(
                f"no {kind} call of {_target(tool, call_id)} (decided calls: {known})",
                f"a {kind} call",
                "none",
            )
        return found

    def _one(
        self,
        tool: str | None,
        call_id: str | None,
        decisions: tuple[ApprovalDecision, ...],
        kind: str,
    ) -> ApprovalDecision:
        found = self._matching(tool, call_id, decisions, kind)
        if len(found) > 1:
            raise invalid_argument(
                "call_id",
                f"the call id of one of the {len(found)} {kind} calls of {tool!r}",
                ", ".join(str(decision.call_id) for decision in found),
            )
        return found[0]

    def __repr__(self) -> str:
        return (
            f"ApprovalRun(legs={len(self.results)}, decisions={list(self.decisions)!r}, "
            f"tool_runs={list(self.tool_runs)!r})"
        )


async def run_with_approvals(
    agent: Agent[Any],
    input: Any,
    *,
    decide: Decide,
    round_trip: bool = False,
    streamed: bool = False,
    **run_options: Any,
) -> ApprovalRun:
    """Run ``agent`` and decide every tool approval it stops for with ``decide``.

    Each interruption is decided call by call (``approve(...)`` / ``reject(...)`` rules, a
    mapping of tool name to ``"approve"``/``"reject"``, or a function of the
    :class:`ApprovalRequest`), then the run resumes from its ``RunState``, until it ends.
    ``round_trip=True`` resumes each time from ``RunState.from_json`` of the state's JSON
    text, as a process that stored the state and restarted would. ``streamed=True`` runs
    with ``Runner.run_streamed``. Other keyword arguments (``context``, ``run_config``,
    ``hooks``, ``max_turns``, ...) go to every leg.
    """
    from agents.run import Runner
    from agents.run_state import RunState

    check_decide(decide)
    for name in ("round_trip", "streamed"):
        value = round_trip if name == "round_trip" else streamed
        if not isinstance(value, bool):
            raise invalid_argument(name, "a bool", describe(value))
    tool_runs: list[ToolRun] = []
    run_options["hooks"] = _observer(run_options.get("hooks"), tool_runs)
    await _check_rule_names(agent, decide, run_options.get("context"))
    results: list[RunResult | RunResultStreaming] = []
    decisions: list[ApprovalDecision] = []
    states: list[str] = []
    current: Any = input
    live = run_options.get("context")
    resume_options = {name: value for name, value in run_options.items() if name != "context"}
    for round_number in range(_MAX_ROUNDS):
        # A resumed run takes its context from the state; passing it again replaces the
        # state's context wrapper, and with it the decisions, on some SDK releases.
        options = run_options if round_number == 0 else resume_options
        if streamed:
            streaming = Runner.run_streamed(agent, current, **options)
            async for _ in streaming.stream_events():
                pass
            result: RunResult | RunResultStreaming = streaming
        else:
            result = await Runner.run(agent, current, **options)
        results.append(result)
        interruptions = list(result.interruptions)
        if not interruptions:
            return ApprovalRun(results, decisions, states, tool_runs)
        state = result.to_state()
        decided = {decision.call_id: decision for decision in decisions if decision.call_id}
        for item in interruptions:
            request = request_of(item, getattr(getattr(item, "agent", None), "name", None))
            earlier = None if request.call_id is None else decided.get(request.call_id)
            if earlier is not None:
                raise asked_again(request, len(decisions), earlier.approved, earlier.round)
            rule = decide_one(decide, request, len(decisions))
            if rule.approved:
                state.approve(item, always_approve=rule.always)
            else:
                state.reject(item, always_reject=rule.always, rejection_message=rule.message)
            decisions.append(ApprovalDecision(request, rule.approved, rule.message, round_number))
        if round_trip:
            written: dict[str, Any] = {}
            restored: dict[str, Any] = {}
            if live is not None:
                # The test's live context object stands for what a restarted process
                # would rebuild: it comes back in its place, so its own fields need not
                # be JSON (the approvals are the state's, and are written).
                written["context_serializer"] = _live_context_marker
                restored["context_deserializer"] = lambda data: live
            text = json.dumps(state.to_json(**written))
            states.append(text)
            state = await RunState.from_json(agent, json.loads(text), **restored)
        current = state
    raise too_many_interruptions(_MAX_ROUNDS)


async def _check_rule_names(agent: Agent[Any], decide: object, context: Any) -> None:
    names = rule_tool_names(decide)
    if not names:
        return
    known = await _tool_names(agent, context)
    if known is None:
        return
    unknown = list(dict.fromkeys(name for name in names if name not in known))
    if unknown:
        raise unknown_rule_tools(unknown, tuple(known))


async def _tool_names(agent: Agent[Any], context: Any) -> list[str] | None:
    """The tool names of ``agent`` and every agent it can hand off to (None: unknowable)."""
    from agents.agent import Agent
    from agents.handoffs import Handoff
    from agents.run_context import RunContextWrapper
    from agents.tool import HostedMCPTool

    names: dict[str, None] = {}
    pending: list[Any] = [agent]
    seen: set[int] = set()
    while pending:
        current = pending.pop()
        if id(current) in seen or not isinstance(current, Agent):
            continue
        seen.add(id(current))
        if getattr(current, "capabilities", None):
            return None  # a sandbox agent's capabilities add their tools once the run starts
        try:
            tools = await current.get_all_tools(RunContextWrapper(context))
        except Exception:
            return None  # an MCP server that is not connected, for one: cannot tell
        for tool in tools:
            if isinstance(tool, HostedMCPTool):
                return None  # its tools live on the provider's side: their names are not known
            name = getattr(tool, "name", None)
            if isinstance(name, str):
                names.setdefault(name)
        for handoff in current.handoffs:
            if isinstance(handoff, Agent):
                pending.append(handoff)
            elif isinstance(handoff, Handoff):
                # A Handoff knows its agent only by name; nothing more to list.
                continue
    return list(names)


def _observer(user_hooks: Any, tool_runs: list[ToolRun]) -> Any:
    """RunHooks that record each tool start and pass every event on to ``user_hooks``."""
    from agents.lifecycle import RunHooks

    class _ToolStarts(RunHooks[Any]):
        async def on_tool_start(self, context: Any, agent: Any, tool: Any) -> None:
            tool_runs.append(
                ToolRun(
                    str(getattr(tool, "name", type(tool).__name__)),
                    getattr(context, "tool_call_id", None),
                    getattr(agent, "name", None),
                )
            )
            if user_hooks is not None:
                await user_hooks.on_tool_start(context, agent, tool)

    observer = _ToolStarts()
    if user_hooks is not None:
        # Every other event goes straight to the user's hooks.
        for name in dir(RunHooks):
            if name.startswith("on_") and name != "on_tool_start":
                setattr(observer, name, getattr(user_hooks, name))
    return observer


def _live_context_marker(context: Any) -> dict[str, Any]:
    """What the JSON holds for a live context object that the resume puts back itself."""
    return {"restored_from": "the live context object of the test"}


def _shown(decision: ApprovalDecision) -> str:
    return f"the call of {decision.tool_name!r} ({decision.call_id})"


def _target(tool: str | None, call_id: str | None) -> str:
    parts = [] if tool is None else [repr(tool)]
    if call_id is not None:
        parts.append(f"call id {call_id!r}")
    return " with ".join(parts)


def _failure(message: str, expected: str, actual: str) -> ApprovalAssertionError:
    return ApprovalAssertionError(message + ".", expected=expected, actual=actual)


__all__ += ["ApprovalRequest"]


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
