"""``stream_all_items=True``: tool-call items stream through ``Runner.run_streamed``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import openai.types.responses as responses
import pytest
from agents import (
    Agent,
    ComputerTool,
    HostedMCPTool,
    LocalShellTool,
    ShellTool,
    ToolSearchTool,
    function_tool,
)
from agents.stream_events import RawResponsesStreamEvent

from agents_testing.model import (
    InvalidModelArgument,
    ScriptedModel,
    assistant_message,
    computer_call,
    local_shell_call,
    mcp_approval_request,
    mcp_call,
    shell_call,
    tool_search_call,
    web_search_call,
)

from ..conftest import RunAgent, StreamedRun
from ..items.test_local import FakeComputer


@function_tool(defer_loading=True)
def lookup(city: str) -> str:
    """Look a city up."""
    return city


def _mcp_tool() -> HostedMCPTool:
    return HostedMCPTool(
        tool_config={
            "type": "mcp",
            "server_label": "docs",
            "server_url": "https://mcp.example.test",
            "require_approval": "always",
        },
        on_approval_request=lambda request: {"approve": False, "reason": "no"},
    )


# Shell command events exist only in newer openai releases; where they do, they stream.
_SHELL_COMMAND_EVENTS = (
    [
        "response.shell_call_command.added",
        "response.shell_call_command.delta",
        "response.shell_call_command.done",
    ]
    if hasattr(responses, "ResponseShellCallCommandAddedEvent")
    else []
)

PLAIN: list[tuple[Callable[[], Any], Callable[[], list[Any]], list[str]]] = [
    (lambda: computer_call("wait"), lambda: [ComputerTool(computer=FakeComputer())], []),
    (lambda: local_shell_call("ls"), lambda: [LocalShellTool(executor=lambda r: "ok")], []),
    (lambda: shell_call("ls"), lambda: [ShellTool(executor=lambda r: "ok")], _SHELL_COMMAND_EVENTS),
    (lambda: mcp_approval_request("docs", "search"), lambda: [_mcp_tool()], []),
    (lambda: tool_search_call({"query": "x"}), lambda: [ToolSearchTool(), lookup], []),
]


def _events_of_item_0(run: StreamedRun) -> list[Any]:
    return [
        event.data
        for event in run.events
        if isinstance(event, RawResponsesStreamEvent)
        and getattr(event.data, "output_index", None) == 0
    ]


@pytest.mark.asyncio
@pytest.mark.parametrize(("build", "tools", "between"), PLAIN)
async def test_tool_items_stream_added_then_done_with_their_provider_events(
    run: RunAgent,
    build: Callable[[], Any],
    tools: Callable[[], list[Any]],
    between: list[str],
) -> None:
    model = ScriptedModel([[build()], [assistant_message("Done.")]], stream_all_items=True)

    result = await run(Agent(name="T", model=model, tools=tools()), "Go", streamed=True)

    assert result.final_output == "Done."
    # The first response's events come first; the final message's follow.
    first_response = _events_of_item_0(result)[: 2 + len(between)]
    assert [event.type for event in first_response] == [
        "response.output_item.added",
        *between,
        "response.output_item.done",
    ]
    added, done = first_response[0], first_response[-1]
    assert isinstance(added, responses.ResponseOutputItemAddedEvent)
    if "status" in type(added.item).model_fields:
        assert added.item.status == "in_progress"  # type: ignore[union-attr]
    assert isinstance(done, responses.ResponseOutputItemDoneEvent)
    assert done.item.type == build().type


@pytest.mark.asyncio
async def test_streamed_tool_events_are_the_sdks_own_event_models_in_sequence(
    run: RunAgent,
) -> None:
    model = ScriptedModel([[web_search_call("x"), assistant_message("Ok.")]], stream_all_items=True)

    result = await run(Agent(name="T", model=model), "Go", streamed=True)

    raw = [event.data for event in result.events if isinstance(event, RawResponsesStreamEvent)]
    searching = [event for event in raw if event.type == "response.web_search_call.searching"]
    assert len(searching) == 1
    assert isinstance(searching[0], responses.ResponseWebSearchCallSearchingEvent)
    assert searching[0].item_id == "ws_scripted"
    assert [event.sequence_number for event in raw] == list(range(len(raw)))
    assert isinstance(raw[-1], responses.ResponseCompletedEvent)


@pytest.mark.asyncio
async def test_the_same_script_without_the_opt_in_still_serves_runner_run(
    run: RunAgent,
) -> None:
    model = ScriptedModel([[web_search_call("x"), assistant_message("Ok.")]])

    result = await run(Agent(name="T", model=model), "Go", streamed=False)

    assert result.final_output == "Ok."


@pytest.mark.asyncio
async def test_a_failed_mcp_call_streams_the_failed_event(run: RunAgent) -> None:
    failed = mcp_call("docs", "search", {"q": "x"}, status="failed")
    model = ScriptedModel([[failed, assistant_message("Sorry.")]], stream_all_items=True)

    result = await run(Agent(name="T", model=model), "Go", streamed=True)

    assert [event.type for event in _events_of_item_0(result)] == [
        "response.output_item.added",
        "response.mcp_call.in_progress",
        "response.mcp_call_arguments.delta",
        "response.mcp_call_arguments.done",
        "response.mcp_call.failed",
        "response.output_item.done",
    ]


def test_stream_all_items_must_be_a_bool() -> None:
    flag: Any = "yes"

    with pytest.raises(InvalidModelArgument) as raised:
        ScriptedModel(stream_all_items=flag)

    assert str(raised.value) == (
        "Invalid argument stream_all_items: expected a bool, got str 'yes'."
    )
