"""The script violations a call can meet, each as its error with its message.

Messages name the tool and count calls and steps from 1; call arguments may hold
secrets, so they stay on the error's ``call`` and out of the message.
"""

from __future__ import annotations

from typing import Any

from agents_testing.core import ordinal

from .._call import MCPCall, copy_call
from .._errors import (
    MCPCallMatcherError,
    MCPSchemaViolation,
    UnconsumedMCPSteps,
    UnexpectedMCPCall,
)
from .._schema.check import Violation
from .._spec import MCPStepSpec
from .._steps import Step

__all__ = ["rejected_call", "schema_error", "unconsumed_steps", "unexpected_call"]


def _of(call: MCPCall) -> dict[str, Any]:
    """The fields naming the call an error is about: a copy of it, and its index."""
    return {"call": copy_call(call), "call_index": call.call_index}


def unexpected_call(
    call: MCPCall,
    expected: str | None,
    pending: tuple[MCPStepSpec, ...],
    group_tools: tuple[str, ...],
) -> UnexpectedMCPCall:
    # Arguments may hold secrets: the message names the tool and the number only.
    head = f"Unexpected MCP call #{ordinal(call.call_index)} to tool {call.tool!r}"
    if group_tools:
        text = (
            f"{head}; the next position is an any_order() group whose pending members "
            f"expect {', '.join(map(repr, group_tools))}. {len(pending)} step(s) pending: "
            "reorder the steps to match the workflow, or fix the workflow."
        )
    elif expected is None:
        text = (
            f"{head}; no MCP steps remain. Add a step for this call, or find out why the "
            "workflow made it."
        )
    else:
        text = (
            f"{head}; expected {expected!r}. {len(pending)} step(s) pending: reorder the steps "
            "to match the workflow, or fix the workflow."
        )
    return UnexpectedMCPCall(
        text,
        **_of(call),
        expected_tool=expected,
        pending_steps=pending,
        group_tools=group_tools,
    )


def rejected_call(call: MCPCall, input_index: int, group_members: int) -> MCPCallMatcherError:
    number = ordinal(call.call_index)
    if group_members:
        what = (
            f"MCP matchers of the any_order() group (step #{ordinal(input_index)}) rejected "
            f"call #{number} to tool {call.tool!r} ({group_members} pending member(s) for it)."
        )
    else:
        what = (
            f"MCP matcher of step #{ordinal(input_index)} rejected call #{number} to tool "
            f"{call.tool!r}."
        )
    return MCPCallMatcherError(
        f"{what} Fix the matcher or the step order, or inspect the error's call to see what "
        "the workflow sent.",
        **_of(call),
        tool=call.tool,
        input_index=input_index,
        group_members=group_members,
    )


def unconsumed_steps(pending: tuple[Step, ...]) -> UnconsumedMCPSteps:
    tools = ", ".join(repr(step.target) for step in pending)
    return UnconsumedMCPSteps(
        f"{len(pending)} MCP step(s) were never used: {tools}. The workflow ended before "
        "reaching them; remove them or find out why the workflow stopped early.",
        pending_steps=tuple(step.spec() for step in pending),
    )


def schema_error(
    call: MCPCall, tool: str, schema: Any, found: Violation, input_index: int | None
) -> MCPSchemaViolation:
    number = ordinal(call.call_index)
    if schema == "inputSchema":
        text = (
            f"MCP call #{number} to tool {tool!r} breaks the tool's inputSchema at "
            f"{found.path} (rule: {found.rule}). Fix the arguments the model sends, or the "
            "tool's schema; the error's detail says what is wrong with the value."
        )
    else:
        text = (
            f"The result for MCP call #{number} to tool {tool!r} (step "
            f"#{ordinal(input_index or 0)}) breaks the tool's outputSchema at {found.path} "
            f"(rule: {found.rule}). Fix the scripted result (json_result() makes structured "
            "content), or the tool's outputSchema."
        )
    return MCPSchemaViolation(
        text,
        **_of(call),
        tool=tool,
        schema=schema,
        path=found.path,
        rule=found.rule,
        detail=found.detail,
        input_index=input_index,
    )
