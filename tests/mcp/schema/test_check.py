"""With ``extra_checks``, arguments and results are checked against the tool's schemas."""

from __future__ import annotations

from typing import Any

import pytest
from agents.exceptions import AgentsException

from agents_testing.mcp import (
    MCPSchemaViolation,
    MCPStepSpec,
    ScriptedMCPServer,
    error_result,
    json_result,
    text_result,
)
from agents_testing.model import ScriptedModel, assistant_message, function_call

from ..conftest import CONVERT, RunAgent, tool_outputs

pytestmark = pytest.mark.asyncio


async def _failing_run(
    run_agent: RunAgent, step: MCPStepSpec, arguments: dict[str, Any]
) -> tuple[ScriptedMCPServer, MCPSchemaViolation]:
    server = ScriptedMCPServer(
        [step], tools=[CONVERT], extra_checks=True, failure_error_function=None
    )
    model = ScriptedModel([[function_call("convert", arguments)]])
    async with server:
        with pytest.raises(AgentsException, match="Error invoking MCP tool convert") as caught:
            await run_agent(model, [server])
    error = caught.value.__cause__
    assert isinstance(error, MCPSchemaViolation)
    with pytest.raises(MCPSchemaViolation) as again:
        server.assert_complete()
    assert again.value is error
    return server, error


async def test_arguments_that_break_the_input_schema_fail_that_call(run_agent: RunAgent) -> None:
    server, error = await _failing_run(
        run_agent,
        {"tool": "convert", "result": json_result({"amount": 1.0, "currency": "GBP"})},
        {"amount": 100, "currency": "GBP"},
    )

    assert str(error) == (
        "MCP call #1 to tool 'convert' breaks the tool's inputSchema at $.currency (rule: enum). "
        "Fix the arguments the model sends, or the tool's schema; the error's detail says what "
        "is wrong with the value."
    )
    assert (error.tool, error.schema, error.path, error.rule) == (
        "convert",
        "inputSchema",
        "$.currency",
        "enum",
    )
    assert "GBP" in error.detail
    assert (error.call_index, error.input_index) == (0, None)
    assert server.remaining_steps == 1  # nothing consumed: the step is still there


async def test_a_scripted_result_that_breaks_the_output_schema_fails_that_call(
    run_agent: RunAgent,
) -> None:
    server, error = await _failing_run(
        run_agent,
        {"tool": "convert", "result": json_result({"amount": "92", "currency": "EUR"})},
        {"amount": 100, "currency": "EUR"},
    )

    assert str(error).startswith(
        "The result for MCP call #1 to tool 'convert' (step #1) breaks the tool's outputSchema "
        "at $.amount (rule: type). Fix the scripted result"
    )
    assert (error.schema, error.path, error.rule, error.input_index) == (
        "outputSchema",
        "$.amount",
        "type",
        0,
    )
    assert server.remaining_steps == 0


async def test_a_responder_result_without_structured_content_breaks_the_output_schema(
    run_agent: RunAgent,
) -> None:
    _, error = await _failing_run(
        run_agent,
        {"tool": "convert", "responder": lambda call: text_result("92 EUR")},
        {"amount": 100, "currency": "EUR"},
    )

    assert (error.path, error.rule) == ("$", "structuredContent")
    assert "needs structuredContent (json_result() makes one)" in error.detail
    assert "at $ (rule: structuredContent)" in str(error)


async def test_error_results_and_bare_servers_are_not_checked(run_agent: RunAgent) -> None:
    cases = [
        # A result flagged isError need not match the output schema.
        (True, {"amount": 100, "currency": "EUR"}, error_result("no rate")),
        # A bare server checks neither the arguments nor the result.
        (False, {"amount": 100, "currency": "GBP"}, text_result("92 GBP")),
    ]
    for extra_checks, arguments, result in cases:
        server = ScriptedMCPServer(
            [{"tool": "convert", "result": result}], tools=[CONVERT], extra_checks=extra_checks
        )
        model = ScriptedModel([[function_call("convert", arguments)], [assistant_message("Done.")]])
        async with server:
            await run_agent(model, [server])
        server.assert_complete()
        (output,) = tool_outputs(model)
        assert "An error occurred" not in str(output)
