"""Errors raised by :class:`~agents_testing.mcp.ScriptedMCPServer`.

Every error inherits :class:`MCPScriptError` and one of the core kind bases, so a test can
catch "any MCP script problem" or "any leftover step of any double". Each takes its
message first and its fields as keywords, ``UnexpectedMCPCall(message, *, call=...,
call_index=...)``, and pickles as them. Index fields are 0-based; messages count calls
and steps from 1 and never show argument values or results (they may hold secrets): they
name tools and numbers only, and the values are on the error's fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from agents_testing.core import InvalidStepError, UnconsumedStepsError, UnexpectedCallError
from agents_testing.core.errors import BoundaryError, error_fields

if TYPE_CHECKING:
    from ._call import MCPCall
    from ._spec import MCPStepSpec

__all__ = [
    "InvalidMCPArgument",
    "InvalidMCPStep",
    "InvalidMCPStepReason",
    "MCPCallMatcherError",
    "MCPSchemaViolation",
    "MCPScriptError",
    "SchemaName",
    "UnconsumedMCPSteps",
    "UnexpectedMCPCall",
]

InvalidMCPStepReason = Literal[
    "invalid_input",
    "invalid_matcher",
    "invalid_outcome",
    "invalid_group",
    "unknown_tool",
    "invalid_fault",
]

SchemaName = Literal["inputSchema", "outputSchema"]


class MCPScriptError(BoundaryError):
    """Base of every error raised by the MCP boundary's doubles."""


@error_fields
class InvalidMCPStep(MCPScriptError, InvalidStepError):
    """An MCP step was malformed; it was rejected when the server was made (or, for a
    responder's result or a matcher that returns an awaitable, at the call that used it).

    ``reason`` is one of :data:`InvalidMCPStepReason`; ``input_index`` is the 0-based
    position of the step in the sequence given to the server; ``tool`` is the step's tool
    name when it has one; ``detail`` says what is wrong.
    """

    reason: InvalidMCPStepReason
    tool: str | None = None


@error_fields
class UnexpectedMCPCall(MCPScriptError, UnexpectedCallError):
    """The workflow called a tool that the next step does not script, or called one after
    the script ran out (``expected_tool`` is then ``None``).

    ``call`` is the recorded call and ``call_index`` its 0-based position in
    ``server.calls``; ``pending_steps`` holds the steps still pending (fresh step dicts)
    and ``remaining_steps`` counts them. When the next position is an ``any_order()``
    group, ``group_tools`` lists the tools of its pending members. Nothing is consumed.
    """

    call: MCPCall
    call_index: int
    expected_tool: str | None
    pending_steps: tuple[MCPStepSpec, ...] = ()
    group_tools: tuple[str, ...] = ()

    def __post_init__(self, message: str) -> None:
        super().__post_init__(message)
        self.remaining_steps: int = len(self.pending_steps)


@error_fields
class MCPCallMatcherError(MCPScriptError, UnexpectedCallError):
    """The pending step's ``match`` rejected a call (returned ``False``, or its argument
    mapping differs from the call's arguments). The step stays pending.

    ``call`` is the recorded call, ``call_index`` its 0-based position in
    ``server.calls``, ``tool`` the called tool and ``input_index`` the 0-based index of
    the rejecting step; in an ``any_order()`` group every pending member scripting the
    tool rejected it and ``group_members`` says how many (0 outside a group). A matcher
    that raises propagates its own exception instead, and also leaves the step pending.
    """

    call: MCPCall
    call_index: int
    tool: str
    input_index: int
    group_members: int = 0


@error_fields
class UnconsumedMCPSteps(MCPScriptError, UnconsumedStepsError):
    """``assert_complete()`` found MCP steps that the workflow never used.

    ``remaining_steps`` is how many are left, ``pending_steps`` holds them (fresh step
    dicts) in script order and ``pending_tools`` their tool names.
    """

    pending_steps: tuple[MCPStepSpec, ...]

    def __post_init__(self, message: str) -> None:
        super().__post_init__(message)
        self._set_pending_steps(self.pending_steps)
        self.pending_tools: tuple[str, ...] = tuple(step["tool"] for step in self.pending_steps)


@error_fields
class MCPSchemaViolation(MCPScriptError, UnexpectedCallError):
    """A call's arguments break the tool's ``inputSchema``, or the result a step gave for it
    breaks the tool's ``outputSchema`` (checked with ``extra_checks=True``).

    ``call`` and ``call_index`` are the call; ``tool`` its tool; ``schema`` is
    ``"inputSchema"`` or ``"outputSchema"``; ``path`` the JSON path of the offending value
    (``$.legs[0].city``; ``$`` is the arguments or the structured content); ``rule`` the
    schema keyword it breaks (``type``, ``required``, ``enum``, ...); ``detail`` the
    validator's description, which may quote the value and so stays out of the message.
    ``input_index`` is the 0-based index of the step that answered (``None`` for an
    argument check, made before any step is used).
    """

    call: MCPCall
    call_index: int
    tool: str
    schema: SchemaName
    path: str
    rule: str
    detail: str = ""
    input_index: int | None = None


@error_fields
class InvalidMCPArgument(MCPScriptError, TypeError):
    """An argument of the wrong type or shape, given to the scripted server, a builder or a
    server method; nothing was recorded or consumed.

    ``argument`` names it (``"tools[1]"``, ``"text_result(texts)"``, ...), ``expected``
    says what it must be and ``got`` what it was. It is also a ``TypeError``.
    """

    argument: str
    expected: str
    got: str


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
