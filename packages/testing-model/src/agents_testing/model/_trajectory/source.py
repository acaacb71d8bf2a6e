"""Reading the steps a run took from its result, or from what a scripted model answered."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from .._call import ModelCall
from .._errors import invalid_argument
from .._script.validation import describe
from .steps import NOT_CHECKED, HandoffStep, ToolCallStep, TrajectoryStep

__all__ = ["SOURCE_TYPES", "steps_of"]

SOURCE_TYPES = (
    "a RunResult, a finished RunResultStreaming, a ScriptedModel, a sequence of its "
    "ModelCall records or a sequence of run items"
)

# Fields of a hosted tool call that are ids, progress or results rather than what the
# model asked the tool to do.
_NOT_ARGUMENTS = frozenset(
    {"type", "id", "call_id", "status", "output", "outputs", "result", "results"}
)


def steps_of(source: object, argument: str) -> tuple[TrajectoryStep, ...]:
    """The steps of ``source`` in the order the model made the calls."""
    from agents.items import RunItemBase
    from agents.result import RunResultBase, RunResultStreaming

    from .._scripted_model import ScriptedModel

    if isinstance(source, RunResultStreaming) and not source.is_complete:
        raise invalid_argument(
            argument,
            "a finished run (iterate result.stream_events() to the end first)",
            "a RunResultStreaming that is still running",
        )
    if isinstance(source, RunResultBase):
        return _from_items(list(source.new_items))
    if isinstance(source, ScriptedModel):
        return _from_calls(source.calls)
    if isinstance(source, Sequence) and not isinstance(source, (str, bytes, bytearray)):
        items = list(source)
        if all(isinstance(item, ModelCall) for item in items):
            return _from_calls(items)
        if all(isinstance(item, RunItemBase) for item in items):
            return _from_items(items)
    raise invalid_argument(argument, SOURCE_TYPES, describe(source))


def _from_items(items: list[Any]) -> tuple[TrajectoryStep, ...]:
    outputs: dict[str, Any] = {}
    handoffs: dict[str, tuple[str | None, str]] = {}
    for item in items:
        if item.type == "tool_call_output_item":
            call_id = _field(item.raw_item, "call_id")
            if isinstance(call_id, str):
                outputs.setdefault(call_id, item.output)
        elif item.type == "handoff_output_item":
            call_id = _field(item.raw_item, "call_id")
            source, target = _name(item.source_agent), _name(item.target_agent)
            if isinstance(call_id, str) and target is not None:
                handoffs[call_id] = (source, target)
    steps: list[TrajectoryStep] = []
    for item in items:
        if item.type in ("tool_call_item", "tool_search_call_item"):
            call_id = _field(item.raw_item, "call_id")
            output = outputs.get(call_id, NOT_CHECKED) if isinstance(call_id, str) else NOT_CHECKED
            steps.append(_tool_step(item.raw_item, output, _agent_of(item)))
        elif item.type == "handoff_call_item":
            call_id = _field(item.raw_item, "call_id")
            source = _agent_of(item)
            if call_id in handoffs:
                source, target = handoffs[call_id]
            else:
                # Not carried out (the SDK follows only the first handoff of a turn).
                target = _target_by_tool_name(item, str(item.raw_item.name))
            steps.append(HandoffStep(target=target, source=source, call_id=call_id))
    return tuple(steps)


def _from_calls(calls: Sequence[ModelCall]) -> tuple[TrajectoryStep, ...]:
    outputs: dict[str, Any] = {}
    for call in calls:
        for call_id, output in call.tool_outputs().items():
            outputs.setdefault(call_id, output)
    steps: list[TrajectoryStep] = []
    for call in calls:
        offered = {handoff.tool_name: handoff.agent_name for handoff in call._handoffs}
        for raw in call._answer or ():
            call_id = _field(raw, "call_id")
            name = _field(raw, "name")
            if _field(raw, "type") == "function_call" and name in offered:
                steps.append(HandoffStep(target=offered[name], call_id=call_id))
                continue
            output = outputs.get(call_id, NOT_CHECKED) if isinstance(call_id, str) else NOT_CHECKED
            steps.append(_tool_step(raw, output, None))
    return tuple(steps)


def _tool_step(raw: Any, output: Any, agent: str | None) -> ToolCallStep:
    kind = _field(raw, "type")
    kind = kind if isinstance(kind, str) else type(raw).__name__
    name = _field(raw, "name")
    call_id = _field(raw, "call_id")
    call_id = call_id if isinstance(call_id, str) else _field(raw, "id")
    if kind in ("function_call", "mcp_call"):
        arguments = _parsed(_field(raw, "arguments"))
        if kind == "mcp_call" and output is NOT_CHECKED and _field(raw, "output") is not None:
            output = _field(raw, "output")
    elif kind == "custom_tool_call":
        arguments = _parsed(_field(raw, "input"))
    else:
        arguments = _own_fields(raw)
    return ToolCallStep(
        name=name if isinstance(name, str) and name else kind,
        arguments=arguments,
        output=output,
        kind=kind,
        agent=agent,
        call_id=call_id if isinstance(call_id, str) else None,
    )


def _parsed(arguments: Any) -> Any:
    """Arguments as the tool receives them: decoded JSON, or the text when it is not JSON."""
    if not isinstance(arguments, str):
        return arguments
    try:
        return json.loads(arguments)
    except ValueError:
        return arguments


def _own_fields(raw: Any) -> dict[str, Any]:
    dump = getattr(raw, "model_dump", None)
    data = dump(mode="json", exclude_none=True) if callable(dump) else raw
    if not isinstance(data, Mapping):
        return {}
    return {key: value for key, value in data.items() if key not in _NOT_ARGUMENTS}


def _field(raw: Any, name: str) -> Any:
    if isinstance(raw, Mapping):
        return raw.get(name)
    return getattr(raw, name, None)


def _agent_of(item: Any) -> str | None:
    # The SDK may have released its reference to the agent once the run ended.
    return _name(getattr(item, "agent", None))


def _name(agent: Any) -> str | None:
    name = getattr(agent, "name", None)
    return name if isinstance(name, str) else None


def _target_by_tool_name(item: Any, tool_name: str) -> str:
    from agents.agent import Agent
    from agents.handoffs import Handoff

    agent = getattr(item, "agent", None)
    for offered in getattr(agent, "handoffs", None) or ():
        if isinstance(offered, Handoff) and offered.tool_name == tool_name:
            return offered.agent_name
        if isinstance(offered, Agent) and Handoff.default_tool_name(offered) == tool_name:
            return offered.name
    return tool_name
