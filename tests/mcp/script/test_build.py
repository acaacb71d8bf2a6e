"""Malformed steps are refused when the server is made, each with its reason."""

from __future__ import annotations

from typing import Any

import pytest

from agents_testing.core import InvalidStepError, any_order
from agents_testing.mcp import InvalidMCPStep, ScriptedMCPServer, text_result

from ..conftest import CONVERT


async def _async_match(call: object) -> bool:
    return True


@pytest.mark.parametrize(
    ("steps", "reason", "index", "message"),
    [
        (
            ["convert"],
            "invalid_input",
            0,
            r"MCP step #1 is invalid \(invalid_input\): a step is a dict, got str",
        ),
        (
            [{"result": "x"}],
            "invalid_input",
            0,
            r"MCP step #1 is invalid \(invalid_input\): a step needs a 'tool'",
        ),
        (
            [{"tool": "convert", "result": "x"}, {"tool": "convert", "reply": "x"}],
            "invalid_input",
            1,
            r"MCP step #2 \(convert\) is invalid \(invalid_input\): unknown key\(s\) 'reply'",
        ),
        (
            [{"tool": "convert"}],
            "invalid_outcome",
            0,
            r"give exactly one of 'result', 'responder', 'error' or 'crash' \(found: none\)",
        ),
        (
            [{"tool": "convert", "result": "x", "error": ValueError}],
            "invalid_outcome",
            0,
            r"\(found: result, error\)",
        ),
        (
            [{"tool": "convert", "result": {"amount": 1}}],
            "invalid_outcome",
            0,
            r"a result must be a CallToolResult .* or a str for one text block; got dict",
        ),
        (
            [{"tool": "convert", "responder": "not callable"}],
            "invalid_outcome",
            0,
            r"'responder' must be callable, got str",
        ),
        (
            [{"tool": "convert", "responder": lambda a, b: a}],
            "invalid_outcome",
            0,
            r"'responder' must accept one positional argument \(the MCPCall\)",
        ),
        (
            [{"tool": "convert", "error": KeyboardInterrupt()}],
            "invalid_outcome",
            0,
            r"'error': KeyboardInterrupt is a BaseException but not an Exception",
        ),
        (
            [{"tool": "convert", "error": StopIteration}],
            "invalid_outcome",
            0,
            r"StopIteration cannot be raised from an async method",
        ),
        (
            [{"tool": "convert", "match": 3, "result": "x"}],
            "invalid_matcher",
            0,
            r"'match' must be callable, got int, or a mapping of the expected arguments",
        ),
        (
            [{"tool": "convert", "match": _async_match, "result": "x"}],
            "invalid_matcher",
            0,
            r"'match' must be a plain \(not async\) callable",
        ),
        ([any_order()], "invalid_group", 0, r"any_order\(\) needs at least one step"),
        (
            [any_order({"tool": "convert", "result": "x"}, {"tool": "convert"})],
            "invalid_outcome",
            0,
            r"any_order\(\) member 2: give exactly one of",
        ),
    ],
)
def test_a_malformed_step_is_refused_with_its_reason(
    steps: list[Any], reason: str, index: int, message: str
) -> None:
    with pytest.raises(InvalidMCPStep, match=message) as caught:
        ScriptedMCPServer(steps, tools=[CONVERT])

    assert caught.value.reason == reason
    assert caught.value.input_index == index
    assert isinstance(caught.value, InvalidStepError)


def test_steps_must_be_a_sequence_of_dicts() -> None:
    with pytest.raises(InvalidMCPStep, match=r"steps is a sequence of step dicts, got dict"):
        ScriptedMCPServer({"tool": "convert", "result": "x"})  # type: ignore[dict-item]


def test_a_step_for_an_unlisted_tool_is_refused_only_with_extra_checks() -> None:
    steps: list[Any] = [{"tool": "convrt", "result": text_result("x")}]
    ScriptedMCPServer(steps, tools=[CONVERT])  # a bare server accepts it

    with pytest.raises(
        InvalidMCPStep,
        match=r"MCP step #1 \(convrt\) is invalid \(unknown_tool\): the server does not list "
        r"this tool \(it lists: convert\)",
    ) as caught:
        ScriptedMCPServer(steps, tools=[CONVERT], extra_checks=True)

    assert (caught.value.reason, caught.value.tool) == ("unknown_tool", "convrt")


def test_a_static_result_is_copied_when_the_server_is_made() -> None:
    result = text_result("92 EUR")
    server = ScriptedMCPServer([{"tool": "convert", "result": result}], tools=[CONVERT])
    result.content.clear()

    (pending,) = server.pending_steps
    assert pending["result"].content[0].text == "92 EUR"  # type: ignore[union-attr]
    pending["result"].content.clear()  # type: ignore[union-attr]
    assert server.pending_steps[0]["result"].content  # type: ignore[union-attr]


def _looped_result() -> Any:
    """A json_result whose structured content was changed to refer back to itself."""
    from agents_testing.mcp import json_result

    result = json_result({"rate": 0.92})
    looped: dict[str, Any] = {"rate": 0.92}
    looped["self"] = looped
    field = "structuredContent" if "structuredContent" in type(result).model_fields else None
    setattr(result, field or "structured_content", looped)
    return result


@pytest.mark.asyncio
async def test_a_result_that_contains_itself_is_refused_with_extra_checks_only(
    run_agent: Any,
) -> None:
    """A real server sends JSON data, which holds no cycles: with ``extra_checks`` such a
    scripted result is refused when the server is made (a responder's at the call), naming
    the cycle; a bare server hands it on, and the model reads the result's text."""
    from agents_testing.model import ScriptedModel, assistant_message, function_call

    rates = [{"name": "rates", "inputSchema": {"type": "object"}}]
    with pytest.raises(InvalidMCPStep) as caught:
        ScriptedMCPServer(
            [{"tool": "rates", "result": _looped_result()}], tools=rates, extra_checks=True
        )
    error = caught.value
    assert (error.reason, error.input_index, error.tool) == ("invalid_outcome", 0, "rates")
    assert "['self'] refers back to result.structured" in str(error)
    assert str(error).endswith(
        ", so the value contains itself (a cycle): a server sends JSON data, which holds no cycles"
    )

    responded = ScriptedMCPServer(
        [{"tool": "rates", "responder": lambda call: _looped_result()}],
        tools=rates,
        extra_checks=True,
    )
    bare = ScriptedMCPServer([{"tool": "rates", "result": _looped_result()}], tools=rates)
    for server in (responded, bare):
        model = ScriptedModel(
            [[function_call("rates", {}, call_id="a")], [assistant_message("Ok.")]]
        )
        async with server:
            result = await run_agent(model, [server])
        assert result.final_output == "Ok."
    with pytest.raises(InvalidMCPStep, match=r"refers back to .*\(a cycle\)"):
        responded.assert_complete()
    bare.assert_complete()
