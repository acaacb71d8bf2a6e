"""Builders of hosted tool calls, and their streaming lifecycle with ``stream_all_items=True``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from agents import Agent, HostedMCPTool, MCPToolApprovalRequest
from agents.items import MCPApprovalRequestItem, MCPListToolsItem, ToolCallItem
from agents.stream_events import RawResponsesStreamEvent

from agents_testing.model import (
    InvalidModelArgument,
    InvalidModelStep,
    ScriptedModel,
    assistant_message,
    code_interpreter_call,
    file_search_call,
    image_generation_call,
    mcp_approval_request,
    mcp_call,
    mcp_list_tools,
    web_search_call,
)

from ..conftest import RunAgent, StreamedRun

# Wrongly typed arguments, as untyped test code could pass them.
BAD: Any = 3
BAD_BYTES: Any = b"x"

# Each hosted builder, the item type it makes and the events the Responses API sends
# for that item between its "added" and "done" events.
HOSTED: list[tuple[Callable[[], Any], str, type[Any], list[str]]] = [
    (
        lambda: web_search_call("weather in Tokyo"),
        "web_search_call",
        ToolCallItem,
        [
            "response.web_search_call.in_progress",
            "response.web_search_call.searching",
            "response.web_search_call.completed",
        ],
    ),
    (
        lambda: file_search_call("refund policy", results=[{"file_id": "f1", "text": "30 days"}]),
        "file_search_call",
        ToolCallItem,
        [
            "response.file_search_call.in_progress",
            "response.file_search_call.searching",
            "response.file_search_call.completed",
        ],
    ),
    (
        lambda: code_interpreter_call("print(1 + 1)", logs="2\n"),
        "code_interpreter_call",
        ToolCallItem,
        [
            "response.code_interpreter_call.in_progress",
            "response.code_interpreter_call_code.delta",
            "response.code_interpreter_call_code.done",
            "response.code_interpreter_call.interpreting",
            "response.code_interpreter_call.completed",
        ],
    ),
    (
        lambda: image_generation_call("aW1hZ2U="),
        "image_generation_call",
        ToolCallItem,
        [
            "response.image_generation_call.in_progress",
            "response.image_generation_call.generating",
            "response.image_generation_call.completed",
        ],
    ),
    (
        lambda: mcp_call("docs", "search", {"q": "refunds"}, output="found"),
        "mcp_call",
        ToolCallItem,
        [
            "response.mcp_call.in_progress",
            "response.mcp_call_arguments.delta",
            "response.mcp_call_arguments.done",
            "response.mcp_call.completed",
        ],
    ),
    (
        lambda: mcp_list_tools("docs", ["search", {"name": "fetch", "description": "Get"}]),
        "mcp_list_tools",
        MCPListToolsItem,
        ["response.mcp_list_tools.in_progress", "response.mcp_list_tools.completed"],
    ),
]


def _item_events(run: StreamedRun) -> list[str]:
    """The raw event types of output item 0, from its "added" to its "done" event."""
    types: list[str] = [
        event.data.type
        for event in run.events
        if isinstance(event, RawResponsesStreamEvent)
        and getattr(event.data, "output_index", None) == 0
    ]
    assert types[0] == "response.output_item.added"
    assert types[-1] == "response.output_item.done"
    return types[1:-1]


@pytest.mark.asyncio
@pytest.mark.parametrize(("build", "kind", "item_class", "lifecycle"), HOSTED)
async def test_hosted_call_is_recorded_by_the_runner(
    run: RunAgent,
    streamed: bool,
    build: Callable[[], Any],
    kind: str,
    item_class: type[Any],
    lifecycle: list[str],
) -> None:
    model = ScriptedModel([[build(), assistant_message("Here you go.")]], stream_all_items=True)

    result = await run(Agent(name="Researcher", model=model), "Go", streamed=streamed)

    assert result.final_output == "Here you go."
    items = result.new_items if not streamed else result.result.new_items
    assert type(items[0]) is item_class
    assert items[0].raw_item.type == kind
    assert items[0].raw_item == build()
    if streamed:
        assert _item_events(result) == lifecycle
        completed = [
            event.data
            for event in result.events
            if isinstance(event, RawResponsesStreamEvent)
            and event.data.type == "response.completed"
        ]
        assert [item.type for item in completed[0].response.output] == [kind, "message"]


@pytest.mark.asyncio
@pytest.mark.parametrize(("build", "kind", "item_class", "lifecycle"), HOSTED)
async def test_hosted_call_in_a_streamed_run_needs_the_opt_in(
    run: RunAgent,
    build: Callable[[], Any],
    kind: str,
    item_class: type[Any],
    lifecycle: list[str],
) -> None:
    model = ScriptedModel([[assistant_message("Looking."), build()]])

    with pytest.raises(InvalidModelStep) as raised:
        await run(Agent(name="Researcher", model=model), "Go", streamed=True)

    assert str(raised.value) == (
        f"Automatic streaming does not support {type(build()).__name__}. Use "
        f"ModelStep.stream(...) to provide exact normalized stream events. Output item 2 of "
        f"step #1 is one; only assistant messages, reasoning items, function calls and "
        f"apply-patch calls stream automatically. Or make the model with "
        f"ScriptedModel(..., stream_all_items=True) to stream it as the provider does."
    )


@pytest.mark.asyncio
async def test_mcp_approval_request_reaches_the_hosted_mcp_tool_and_is_answered(
    run: RunAgent, streamed: bool
) -> None:
    asked: list[tuple[str, str, str]] = []

    def approve(request: MCPToolApprovalRequest) -> Any:
        asked.append((request.data.server_label, request.data.name, request.data.arguments))
        return {"approve": True}

    tool = HostedMCPTool(
        tool_config={
            "type": "mcp",
            "server_label": "docs",
            "server_url": "https://mcp.example.test",
            "require_approval": "always",
        },
        on_approval_request=approve,
    )
    model = ScriptedModel(
        [
            [mcp_approval_request("docs", "search", {"q": "refunds"}, item_id="mcpr_1")],
            [
                mcp_call("docs", "search", {"q": "refunds"}, output="found"),
                assistant_message("Found it."),
            ],
        ],
        stream_all_items=True,
    )
    agent = Agent(name="Docs", model=model, tools=[tool])

    result = await run(agent, "Refunds?", streamed=streamed)

    assert result.final_output == "Found it."
    assert asked == [("docs", "search", '{"q": "refunds"}')]
    items = result.new_items if not streamed else result.result.new_items
    assert isinstance(items[0], MCPApprovalRequestItem)
    assert model.last_call is not None
    sent: list[Any] = list(model.last_call.input)
    responses = [
        item
        for item in sent
        if isinstance(item, dict) and item.get("type") == "mcp_approval_response"
    ]
    assert [(item["approval_request_id"], item["approve"]) for item in responses] == [
        ("mcpr_1", True)
    ]


@pytest.mark.asyncio
async def test_mcp_approval_request_without_a_callback_interrupts_the_run(
    run: RunAgent, streamed: bool
) -> None:
    tool = HostedMCPTool(
        tool_config={
            "type": "mcp",
            "server_label": "docs",
            "server_url": "https://mcp.example.test",
            "require_approval": "always",
        }
    )
    model = ScriptedModel([[mcp_approval_request("docs", "search")]], stream_all_items=True)

    result = await run(Agent(name="Docs", model=model, tools=[tool]), "Hi", streamed=streamed)

    interrupted = result.result if isinstance(result, StreamedRun) else result
    raw: list[Any] = [item.raw_item for item in interrupted.interruptions]
    assert [item.id for item in raw] == ["mcpr_scripted"]
    assert result.final_output is None
    model.assert_complete()


@pytest.mark.parametrize(
    ("build", "argument", "expected"),
    [
        (lambda: web_search_call(BAD), "web_search_call(query)", "a str"),
        (
            lambda: web_search_call("q", status="done"),
            "web_search_call(status)",
            "a value the installed openai accepts for ResponseFunctionWebSearch.status",
        ),
        (lambda: file_search_call(BAD), "file_search_call(queries[0])", "a str"),
        (lambda: file_search_call("q", results=[BAD]), "file_search_call(results[0])", "a mapping"),
        (lambda: code_interpreter_call(logs=BAD), "code_interpreter_call(logs)", "a str or None"),
        (lambda: image_generation_call(BAD_BYTES), "image_generation_call(result)", "a str"),
        (lambda: mcp_call("", "search"), "mcp_call(server_label)", "a non-empty str"),
        (lambda: mcp_call("docs", "search", BAD), "mcp_call(arguments)", "a str or a mapping"),
        (lambda: mcp_list_tools("docs", "search"), "mcp_list_tools(tools)", "a sequence"),
        (lambda: mcp_list_tools("docs", [BAD]), "mcp_list_tools(tools[0])", "a str or a mapping"),
        (
            lambda: mcp_approval_request("docs", ""),
            "mcp_approval_request(name)",
            "a non-empty str",
        ),
    ],
)
def test_hosted_builders_name_the_bad_argument(build: Any, argument: str, expected: str) -> None:
    with pytest.raises(InvalidModelArgument) as raised:
        build()

    assert raised.value.argument == argument
    assert str(raised.value).startswith(f"Invalid argument {argument}: expected {expected}")
