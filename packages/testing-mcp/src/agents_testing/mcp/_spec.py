"""The ``MCPStepSpec`` dict a test writes to script one tool call.

Apart from the validated form (``_steps``), so that the errors can name it without
importing what validation needs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypedDict

from typing_extensions import NotRequired

from ._call import MCPCall

if TYPE_CHECKING:
    from mcp.types import CallToolResult

__all__ = ["MCPStepSpec", "Matcher", "Responder"]

# A responder may be sync or async: it returns the result or an awaitable of it.
Responder = Callable[[MCPCall], Any]
Matcher = Callable[[MCPCall], object] | Mapping[str, Any]


class MCPStepSpec(TypedDict):
    """One scripted ``call_tool`` call: the ``tool`` name, exactly one of ``result`` (a
    ``CallToolResult`` or a str), ``responder`` (a function of the ``MCPCall`` returning
    one), ``error`` (an exception to raise) or ``crash`` (``True``: the server dies
    mid-call), and an optional ``match``: a function of the ``MCPCall`` that rejects the
    call by returning ``False``, or a mapping the call's arguments must equal. ``delay``
    is how many seconds (on the event loop's clock) the server takes before the outcome."""

    tool: str
    result: NotRequired[CallToolResult | str]
    responder: NotRequired[Responder]
    error: NotRequired[BaseException | type[BaseException]]
    crash: NotRequired[bool]
    match: NotRequired[Matcher]
    delay: NotRequired[float]


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
