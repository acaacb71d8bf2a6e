"""Prompts and resources: listed, read, and refused as a real server refuses them."""

from __future__ import annotations

import base64

import pytest
from mcp.types import Prompt, ResourceTemplate

from agents_testing.mcp import (
    InvalidMCPArgument,
    ScriptedMCPServer,
    mcp_prompt,
    mcp_resource,
    mcp_tool,
)
from agents_testing.mcp._wire import attribute, dump, error_data, protocol_error_class

pytestmark = pytest.mark.asyncio


async def test_prompts_are_listed_and_answered_from_their_arguments() -> None:
    server = ScriptedMCPServer(
        prompts=[
            mcp_prompt(
                "quote",
                lambda arguments: f"Quote 100 USD in {arguments['currency']}.",
                description="Ask for a quote.",
                arguments=["currency"],
            ),
            mcp_prompt("welcome", [("assistant", "Hello."), "Book a flight."]),
            Prompt(name="listed-only"),
        ]
    )
    async with server:
        listed = await server.list_prompts()
        quote = await server.get_prompt("quote", {"currency": "EUR"})
        welcome = await server.get_prompt("welcome")

    assert [prompt.name for prompt in listed.prompts] == ["quote", "welcome", "listed-only"]
    assert dump(listed.prompts[0])["arguments"] == [{"name": "currency", "required": True}]
    assert quote.description == "Ask for a quote."
    assert [(m.role, m.content.text) for m in quote.messages] == [  # type: ignore[union-attr]
        ("user", "Quote 100 USD in EUR.")
    ]
    assert [(m.role, m.content.text) for m in welcome.messages] == [  # type: ignore[union-attr]
        ("assistant", "Hello."),
        ("user", "Book a flight."),
    ]
    assert [(r.method, dict(r.params)) for r in server.requests] == [
        ("list_prompts", {}),
        ("get_prompt", {"name": "quote", "arguments": {"currency": "EUR"}}),
        ("get_prompt", {"name": "welcome", "arguments": {}}),
    ]


async def test_unknown_prompts_and_missing_arguments_are_protocol_errors() -> None:
    server = ScriptedMCPServer(
        prompts=[mcp_prompt("quote", "Quote it.", arguments=["currency"]), Prompt(name="bare")]
    )
    async with server:
        with pytest.raises(protocol_error_class(), match="Unknown prompt: nope") as unknown:
            await server.get_prompt("nope")
        with pytest.raises(protocol_error_class(), match="Missing required arguments: currency"):
            await server.get_prompt("quote", {})
        with pytest.raises(
            protocol_error_class(),
            match=r"Prompt 'bare' is listed without messages; script it as mcp_prompt\('bare'",
        ):
            await server.get_prompt("bare")

    assert error_data(unknown.value)["code"] == -32602  # type: ignore[index]


async def test_resources_are_listed_and_read_as_text_or_blobs() -> None:
    server = ScriptedMCPServer(
        resources=[
            mcp_resource("rates://today", "EUR 0.92", mime_type="text/plain", name="today"),
            mcp_resource("rates://chart", b"\x89PNG", mime_type="image/png"),
        ],
        resource_templates=[
            ResourceTemplate(name="day", uriTemplate="rates://{day}")  # type: ignore[call-arg]
        ],
    )
    async with server:
        listed = await server.list_resources()
        templates = await server.list_resource_templates()
        text = await server.read_resource("rates://today")
        blob = await server.read_resource("rates://chart")
        with pytest.raises(protocol_error_class(), match="Resource not found: rates://nope"):
            await server.read_resource("rates://nope")
        with pytest.raises(protocol_error_class(), match="Invalid cursor"):
            await server.list_resources("next")

    assert [(r.name, str(r.uri)) for r in listed.resources] == [
        ("today", "rates://today"),
        ("rates://chart", "rates://chart"),
    ]
    assert [attribute(t, "uriTemplate") for t in attribute(templates, "resourceTemplates")] == [
        "rates://{day}"
    ]
    assert dump(text)["contents"] == [
        {"uri": "rates://today", "mimeType": "text/plain", "text": "EUR 0.92"}
    ]
    assert dump(blob)["contents"][0]["blob"] == base64.b64encode(b"\x89PNG").decode()


async def test_mcp_tool_builds_the_listing_entry_the_sdk_converts() -> None:
    tool = mcp_tool(
        "convert",
        description="Convert.",
        input_schema={"type": "object", "properties": {"amount": {"type": "number"}}},
        output_schema={"type": "object"},
        annotations={"readOnlyHint": True},
        title="Convert money",
    )
    assert dump(tool) == {
        "name": "convert",
        "title": "Convert money",
        "description": "Convert.",
        "inputSchema": {"type": "object", "properties": {"amount": {"type": "number"}}},
        "outputSchema": {"type": "object"},
        "annotations": {"readOnlyHint": True},
    }
    assert attribute(mcp_tool("bare"), "inputSchema") == {"type": "object", "properties": {}}


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: mcp_tool(""), r"mcp_tool\(name\) must be a non-empty str, got str"),
        (
            lambda: mcp_prompt("p", 3),
            r"mcp_prompt\('p'\) message 1 must be a str \(a user message\)",
        ),
        (
            lambda: mcp_prompt("p", "x", arguments="a"),
            r"mcp_prompt\('p', arguments\) must be a sequence",
        ),
        (
            lambda: mcp_resource("r://x", 3),  # type: ignore[arg-type]
            r"mcp_resource\('r://x', content\) must be a str or bytes",
        ),
        (lambda: ScriptedMCPServer(prompts=[3]), r"prompts\[0\] must be an mcp\.types\.Prompt"),
        (
            lambda: ScriptedMCPServer(prompts=[Prompt(name="a"), Prompt(name="a")]),
            r"prompts\[1\] lists 'a' again",
        ),
        (
            lambda: ScriptedMCPServer(resources=[{"uri": "r://x"}]),
            r"resources\[0\] is not a valid resource",
        ),
    ],
)
async def test_bad_definitions_are_refused(build: object, message: str) -> None:
    with pytest.raises(InvalidMCPArgument, match=message):
        build()  # type: ignore[operator]
