"""What a call carries and records: copies, the request meta, and values checked at the call."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from agents_testing.core import UncopyableValue
from agents_testing.mcp import InvalidMCPStep, ScriptedMCPServer
from agents_testing.model import ScriptedModel, assistant_message, function_call

from .conftest import CONVERT, RATES, RunAgent

pytestmark = pytest.mark.asyncio


class _Refuses:
    def __deepcopy__(self, memo: object) -> object:
        raise RuntimeError("cannot copy this")


async def test_an_argument_that_cannot_be_copied_raises_its_own_error_on_a_bare_server() -> None:
    for extra_checks in (False, True):
        server = ScriptedMCPServer(
            [{"tool": "rates", "result": "x"}], tools=[RATES], extra_checks=extra_checks
        )
        async with server:
            if extra_checks:
                with pytest.raises(UncopyableValue, match=r"Cannot snapshot arguments\['day'\]"):
                    await server.call_tool("rates", {"day": _Refuses()})
            else:
                with pytest.raises(RuntimeError, match="cannot copy this") as caught:
                    await server.call_tool("rates", {"day": _Refuses()})
                if sys.version_info >= (3, 11):
                    assert "agents-testing: Cannot snapshot" in caught.value.__notes__[0]
        # Nothing recorded or consumed.
        assert server.calls == ()
        assert server.remaining_steps == 1


async def test_the_meta_the_sdk_resolves_is_recorded_on_the_call(run_agent: RunAgent) -> None:
    seen: list[tuple[str, Any]] = []

    def resolve(context: Any) -> dict[str, Any]:
        seen.append((context.tool_name, dict(context.arguments or {})))
        return {"tenant": "travel-desk"}

    server = ScriptedMCPServer(
        [{"tool": "convert", "result": "92 EUR"}], tools=[CONVERT], tool_meta_resolver=resolve
    )
    model = ScriptedModel(
        [
            [function_call("convert", {"amount": 100, "currency": "EUR"})],
            [assistant_message("Done.")],
        ]
    )

    async with server:
        await run_agent(model, [server])

    (call,) = server.calls
    assert call.meta == {"tenant": "travel-desk"}
    assert seen == [("convert", {"amount": 100, "currency": "EUR"})]


async def test_a_responder_value_that_is_no_result_fails_the_call() -> None:
    server = ScriptedMCPServer(
        [{"tool": "rates", "responder": lambda call: {"EUR": 0.92}}], tools=[RATES]
    )
    async with server:
        with pytest.raises(
            InvalidMCPStep,
            match=r"MCP step #1 \(rates\) is invalid \(invalid_outcome\): the responder's value "
            r"is not a result: a result must be a CallToolResult .*; got dict",
        ) as caught:
            await server.call_tool("rates", {})
    assert (caught.value.reason, caught.value.input_index) == ("invalid_outcome", 0)


async def test_an_async_responder_answers_and_a_matcher_returning_an_awaitable_fails() -> None:
    async def respond(call: Any) -> str:
        return "EUR 0.92"

    async def later() -> bool:
        return True

    server = ScriptedMCPServer(
        [
            {"tool": "rates", "responder": respond},
            {"tool": "rates", "match": lambda call: later(), "result": "x"},
        ],
        tools=[RATES],
    )
    async with server:
        answered = await server.call_tool("rates", {})
        with pytest.raises(
            InvalidMCPStep,
            match=r"MCP step #2 \(rates\) is invalid \(invalid_matcher\): 'match' returned an "
            r"awaitable; a matcher must answer at once",
        ):
            await server.call_tool("rates", {})

    assert answered.content[0].text == "EUR 0.92"  # type: ignore[union-attr]
    assert server.remaining_steps == 1
