"""Script violations: each raised at the call with its fields, and what the run does."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from agents.exceptions import AgentsException

from agents_testing.core import UnconsumedStepsError, UnexpectedCallError
from agents_testing.mcp import (
    MCPCallMatcherError,
    MCPScriptError,
    ScriptedMCPServer,
    UnconsumedMCPSteps,
    UnexpectedMCPCall,
)
from agents_testing.model import ScriptedModel, assistant_message, function_call

from .conftest import CONVERT, RATES, RunAgent, tool_outputs

pytestmark = pytest.mark.asyncio

SECRET = {"amount": 1, "currency": "EUR", "note": "card 4111-1111"}


async def test_a_call_after_the_script_ran_out_is_unexpected() -> None:
    server = ScriptedMCPServer(tools=[CONVERT])
    async with server:
        with pytest.raises(
            UnexpectedMCPCall,
            match=r"Unexpected MCP call #1 to tool 'convert'; no MCP steps remain\. Add a step",
        ) as caught:
            await server.call_tool("convert", SECRET)

    error = caught.value
    assert (error.call_index, error.expected_tool, error.remaining_steps) == (0, None, 0)
    assert error.call.arguments == SECRET
    assert "4111" not in str(error)
    assert isinstance(error, UnexpectedCallError)
    assert len(server.calls) == 1  # recorded, like every call that reached the server


async def test_a_call_to_another_tool_than_the_next_step_leaves_the_step_pending() -> None:
    server = ScriptedMCPServer([{"tool": "rates", "result": "EUR 0.92"}], tools=[CONVERT, RATES])
    async with server:
        with pytest.raises(
            UnexpectedMCPCall,
            match=r"Unexpected MCP call #1 to tool 'convert'; expected 'rates'\. 1 step\(s\) "
            r"pending",
        ) as caught:
            await server.call_tool("convert", SECRET)
        assert "4111" not in str(caught.value)
        assert caught.value.pending_steps[0]["tool"] == "rates"
        assert (await server.call_tool("rates", {})).content[0].text == "EUR 0.92"  # type: ignore[union-attr]
    server.assert_complete()


async def test_a_matcher_that_returns_false_rejects_the_call() -> None:
    server = ScriptedMCPServer(
        [
            {
                "tool": "convert",
                "match": lambda call: (call.arguments or {}).get("currency") == "JPY",
                "result": "x",
            },
            {"tool": "convert", "match": {"amount": 2, "currency": "EUR"}, "result": "y"},
        ],
        tools=[CONVERT],
    )
    async with server:
        with pytest.raises(
            MCPCallMatcherError,
            match=r"MCP matcher of step #1 rejected call #1 to tool 'convert'\. Fix the matcher",
        ) as caught:
            await server.call_tool("convert", SECRET)
        assert (caught.value.call_index, caught.value.input_index) == (0, 0)
        assert caught.value.tool == "convert"
        assert "4111" not in str(caught.value)
        await server.call_tool("convert", {"amount": 1, "currency": "JPY"})
        with pytest.raises(MCPCallMatcherError, match=r"matcher of step #2 rejected call #3"):
            await server.call_tool("convert", {"amount": 3, "currency": "EUR"})
        await server.call_tool("convert", {"amount": 2, "currency": "EUR"})
    server.assert_complete()


async def test_a_matcher_that_raises_propagates_its_own_error() -> None:
    def match(call: Any) -> bool:
        raise LookupError("matcher broke")

    server = ScriptedMCPServer(
        [{"tool": "convert", "match": match, "result": "x"}], tools=[CONVERT]
    )
    async with server:
        with pytest.raises(LookupError, match="matcher broke"):
            await server.call_tool("convert", {})
    assert server.remaining_steps == 1


async def test_assert_complete_reports_the_steps_never_used() -> None:
    server = ScriptedMCPServer(
        [{"tool": "convert", "result": "x"}, {"tool": "rates", "result": "y"}],
        tools=[CONVERT, RATES],
    )
    with pytest.raises(
        UnconsumedMCPSteps,
        match=r"2 MCP step\(s\) were never used: 'convert', 'rates'\. The workflow ended",
    ) as caught:
        server.assert_complete()

    assert caught.value.remaining_steps == 2
    assert caught.value.pending_tools == ("convert", "rates")
    assert isinstance(caught.value, UnconsumedStepsError)


async def test_the_sdk_turns_a_violation_into_tool_output_and_extra_checks_report_it(
    run_agent: RunAgent,
) -> None:
    # The runner hands any failure of call_tool to the tool's failure_error_function,
    # so the run goes on: only assert_complete() with extra_checks tells.
    for extra_checks in (False, True):
        server = ScriptedMCPServer(tools=[CONVERT], extra_checks=extra_checks)
        model = ScriptedModel(
            [
                [function_call("convert", {"amount": 1, "currency": "EUR"})],
                [assistant_message("Sorry.")],
            ]
        )
        async with server:
            result = await run_agent(model, [server])

        assert result.final_output == "Sorry."
        (output,) = tool_outputs(model)
        assert "An error occurred while running the tool" in str(output)
        if extra_checks:
            with pytest.raises(
                UnexpectedMCPCall, match=r"Unexpected MCP call #1 to tool 'convert'"
            ):
                server.assert_complete()
        else:
            server.assert_complete()


async def test_with_failure_error_function_none_a_violation_ends_the_run(
    run_agent: RunAgent,
) -> None:
    server = ScriptedMCPServer(tools=[CONVERT], failure_error_function=None)
    model = ScriptedModel([[function_call("convert", {"amount": 1, "currency": "EUR"})]])

    async with server:
        with pytest.raises(AgentsException, match="Error invoking MCP tool convert") as caught:
            await run_agent(model, [server])

    assert isinstance(caught.value.__cause__, UnexpectedMCPCall)


async def test_errors_pickle_with_their_fields() -> None:
    server = ScriptedMCPServer([{"tool": "rates", "result": "x"}], tools=[CONVERT, RATES])
    async with server:
        with pytest.raises(UnexpectedMCPCall) as caught:
            await server.call_tool("convert", {"amount": 1})

    copy = pickle.loads(pickle.dumps(caught.value))
    assert type(copy) is UnexpectedMCPCall
    assert str(copy) == str(caught.value)
    assert copy.call == caught.value.call
    assert copy.expected_tool == "rates"
    assert copy.pending_steps[0]["tool"] == "rates"
    unconsumed = pickle.loads(pickle.dumps(UnconsumedMCPSteps("left", pending_steps=())))
    assert (str(unconsumed), unconsumed.remaining_steps) == ("left", 0)
    assert isinstance(copy, MCPScriptError)


VALUE = "s3cret-4111-1111"  # an argument or result value that must not reach a message


async def test_only_the_replay_diff_shows_argument_values(
    run_agent: RunAgent, tmp_path: Any
) -> None:
    """The README's rule: an error raised at a call names tools, numbers, JSON paths and
    schema rules, never an argument, meta or result value (those are on its fields); the
    replay diff of a cassette (``MCPCallMismatch``) shows the recorded and the live value,
    after the cassette's scrubbers ran on both."""
    from agents_testing.core import UncopyableValue
    from agents_testing.mcp import MCPCallMismatch, MCPCassette, MCPSchemaViolation, json_result

    arguments = {"amount": 1, "currency": VALUE, "note": VALUE}
    bad_result = json_result({"amount": VALUE, "currency": VALUE})
    raised: list[BaseException] = []

    async def failing(server: ScriptedMCPServer, *calls: tuple[str, Any]) -> None:
        async with server:
            for tool, given in calls:
                try:
                    await server.call_tool(tool, given, meta={"trace": VALUE})
                except (MCPScriptError, UncopyableValue) as error:
                    raised.append(error)
        try:
            server.assert_complete()
        except MCPScriptError as error:
            raised.append(error)

    await failing(ScriptedMCPServer(tools=[CONVERT]), ("convert", arguments))
    await failing(
        ScriptedMCPServer(
            [
                {"tool": "rates", "result": "x"},
                {"tool": "convert", "match": {"currency": VALUE}, "result": VALUE},
            ],
            tools=[CONVERT, RATES],
        ),
        ("convert", arguments),
        ("rates", arguments),
        ("convert", arguments),
    )
    await failing(
        ScriptedMCPServer(
            [
                {"tool": "convert", "result": bad_result},
                {"tool": "convert", "responder": lambda call: {"amount": VALUE}},
            ],
            tools=[CONVERT],
            extra_checks=True,
        ),
        ("convert", {"amount": 1, "currency": "EUR"}),
        ("convert", {"amount": 2, "currency": "JPY"}),
        ("convert", arguments),
    )
    await failing(
        ScriptedMCPServer([{"tool": "convert", "result": "x"}], tools=[CONVERT], extra_checks=True),
        ("convert", {"amount": 1, "currency": "EUR", "note": _Uncopyable()}),
    )
    kinds = {type(error).__name__ for error in raised}
    assert kinds >= {
        "UnexpectedMCPCall",
        "MCPCallMatcherError",
        "MCPSchemaViolation",
        "InvalidMCPStep",
        "UnconsumedMCPSteps",
        "UncopyableValue",
    }
    assert any(isinstance(error, MCPSchemaViolation) for error in raised)
    for error in raised:
        assert VALUE not in str(error), type(error).__name__

    # The replay diff shows both values: the user recorded them.
    source = ScriptedMCPServer(
        [{"tool": "convert", "result": "92 EUR"}], tools=[CONVERT], name="rates"
    )
    cassette = MCPCassette(tmp_path / "rates.mcp.json", scrubbers=[r"s3cret-[\d-]+"])
    async with cassette.record(source):
        await source.list_tools()
        await source.call_tool("convert", {"amount": 100, "currency": "EUR", "note": "plain"})
    cassette.save()
    for scrubbed, shown in ((False, f"now {VALUE!r}"), (True, "now '<scrubbed>'")):
        replay = cassette if scrubbed else MCPCassette(cassette.path)
        replayed = replay.replay()
        model = ScriptedModel(
            [
                [function_call("convert", {"amount": 100, "currency": "EUR", "note": VALUE})],
                [assistant_message("Done.")],
            ]
        )
        async with replayed:
            await run_agent(model, [replayed])
        with pytest.raises(MCPCallMismatch) as mismatch:
            replayed.assert_complete()
        assert f"call_tool('convert').arguments.note: recorded 'plain', {shown}" in str(
            mismatch.value
        )
        assert (VALUE in str(mismatch.value)) is not scrubbed


class _Uncopyable:
    """An argument value whose copy fails."""

    def __deepcopy__(self, memo: Any) -> Any:
        raise RuntimeError(VALUE)
