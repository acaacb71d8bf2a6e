"""agents-testing MCP boundary: a scripted ``agents.mcp.MCPServer`` for agents that take
their tools from MCP servers.

``ScriptedMCPServer`` lists the tools, prompts and resources you define and answers each
``call_tool`` with the next scripted step, so ``Agent(mcp_servers=[...])`` runs through
the SDK's real MCP tool handling without starting a server.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agents_testing.core.lazy import serve_lazily

if TYPE_CHECKING:
    from agents_testing.core import any_order, to_snapshot

    from ._call import MCPCall, MCPRequest
    from ._cassette.cassette import MCPCassette
    from ._cassette.errors import MCPCallMismatch, ReplayedMCPError
    from ._errors import (
        InvalidMCPArgument,
        InvalidMCPStep,
        MCPCallMatcherError,
        MCPSchemaViolation,
        MCPScriptError,
        UnconsumedMCPSteps,
        UnexpectedMCPCall,
    )
    from ._factory import ScriptedMCPServerFactory
    from ._listing.definitions import (
        ScriptedPrompt,
        ScriptedResource,
        mcp_prompt,
        mcp_resource,
        mcp_tool,
    )
    from ._results.builders import (
        error_result,
        image_result,
        json_result,
        mcp_error,
        text_result,
        tool_result,
    )
    from ._server import ScriptedMCPServer
    from ._spec import MCPStepSpec

__all__ = [
    "InvalidMCPArgument",
    "InvalidMCPStep",
    "MCPCall",
    "MCPCallMatcherError",
    "MCPCallMismatch",
    "MCPCassette",
    "MCPRequest",
    "MCPSchemaViolation",
    "MCPScriptError",
    "MCPStepSpec",
    "ReplayedMCPError",
    "ScriptedMCPServer",
    "ScriptedMCPServerFactory",
    "ScriptedPrompt",
    "ScriptedResource",
    "UnconsumedMCPSteps",
    "UnexpectedMCPCall",
    "any_order",
    "error_result",
    "image_result",
    "json_result",
    "mcp_error",
    "mcp_prompt",
    "mcp_resource",
    "mcp_tool",
    "text_result",
    "to_snapshot",
    "tool_result",
]

# Names are imported on first use, so that loading the package (as a pytest plugin, for
# one) does not import the SDK or mcp.
serve_lazily(
    __name__,
    {
        "InvalidMCPArgument": "._errors",
        "InvalidMCPStep": "._errors",
        "MCPCall": "._call",
        "MCPCallMatcherError": "._errors",
        "MCPCallMismatch": "._cassette.errors",
        "MCPCassette": "._cassette.cassette",
        "MCPRequest": "._call",
        "MCPSchemaViolation": "._errors",
        "MCPScriptError": "._errors",
        "MCPStepSpec": "._spec",
        "ReplayedMCPError": "._cassette.errors",
        "ScriptedMCPServer": "._server",
        "ScriptedMCPServerFactory": "._factory",
        "ScriptedPrompt": "._listing.definitions",
        "ScriptedResource": "._listing.definitions",
        "UnconsumedMCPSteps": "._errors",
        "UnexpectedMCPCall": "._errors",
        "any_order": "agents_testing.core",
        "error_result": "._results.builders",
        "image_result": "._results.builders",
        "json_result": "._results.builders",
        "mcp_error": "._results.builders",
        "mcp_prompt": "._listing.definitions",
        "mcp_resource": "._listing.definitions",
        "mcp_tool": "._listing.definitions",
        "text_result": "._results.builders",
        "to_snapshot": "agents_testing.core",
        "tool_result": "._results.builders",
    },
)
