"""Result builders: the installed mcp's own CallToolResult, and protocol errors."""

from __future__ import annotations

import base64
from datetime import date
from typing import Any

import pytest
from mcp.types import CallToolResult, TextContent

from agents_testing.mcp import (
    InvalidMCPArgument,
    error_result,
    image_result,
    json_result,
    mcp_error,
    text_result,
    tool_result,
)
from agents_testing.mcp._wire import attribute, dump, error_data, protocol_error_class


def test_text_json_error_and_image_results_have_the_wire_shape_servers_send() -> None:
    assert dump(text_result("a", "b")) == {
        "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
        "isError": False,
    }
    assert dump(json_result({"amount": 92.0})) == {
        "content": [{"type": "text", "text": '{\n  "amount": 92.0\n}'}],
        "structuredContent": {"amount": 92.0},
        "isError": False,
    }
    assert dump(error_result("no rate")) == {
        "content": [{"type": "text", "text": "no rate"}],
        "isError": True,
    }
    image = dump(image_result(b"\x89PNG", "image/png", text="chart"))
    assert image["content"][0] == {
        "type": "image",
        "data": base64.b64encode(b"\x89PNG").decode(),
        "mimeType": "image/png",
    }
    assert image["content"][1] == {"type": "text", "text": "chart"}
    assert isinstance(text_result("x"), CallToolResult)


def test_tool_result_keeps_content_blocks_and_their_wire_dicts() -> None:
    result = tool_result(
        [TextContent(type="text", text="one"), {"type": "text", "text": "two"}, "three"],
        structured={"n": 3},
        meta={"source": "test"},
    )
    assert [block.text for block in result.content] == ["one", "two", "three"]  # type: ignore[union-attr]
    assert attribute(result, "structuredContent") == {"n": 3}
    assert dump(result)["_meta"] == {"source": "test"}


def test_mcp_error_is_the_protocol_error_the_mcp_client_raises() -> None:
    error = mcp_error("rate service down", code=-32000, data={"retry": True})

    assert isinstance(error, protocol_error_class())
    assert error_data(error) == {
        "code": -32000,
        "message": "rate service down",
        "data": {"retry": True},
    }
    assert error_data(mcp_error("x"))["code"] == -32603  # type: ignore[index]
    assert error_data(ValueError("x")) is None


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (
            lambda: text_result(3),  # type: ignore[arg-type]
            r"text_result\(texts\)\[0\] must be a str, got int",
        ),
        (
            lambda: error_result(b"x"),  # type: ignore[arg-type]
            r"error_result\(texts\)\[0\] must be a str, got bytes",
        ),
        (
            lambda: tool_result("abc"),
            r"tool_result\(content\) must be a sequence of content blocks",
        ),
        (lambda: tool_result([3]), r"tool_result\(content\)\[0\] must be a str, an mcp\.types"),
        (lambda: tool_result([{"type": "video"}]), r"tool_result\(\) cannot make a CallToolResult"),
        (
            lambda: tool_result([], is_error=1),  # type: ignore[arg-type]
            r"tool_result\(is_error\) must be a bool, got int",
        ),
        (lambda: json_result({1j}), r"json_result\(value\) must be JSON data whose top level"),
        (
            lambda: json_result(_looped()),
            r"json_result\(value\) must be JSON data; value\['self'\]",
        ),
        (
            lambda: tool_result(["x"], structured=_looped()),
            r"tool_result\(structured\) must be JSON data; structured\['self'\] refers back",
        ),
        (
            lambda: image_result(3, "image/png"),  # type: ignore[arg-type]
            r"image_result\(data\) must be bytes or base64",
        ),
        (lambda: image_result(b"x", ""), r"image_result\(mime_type\) must be a MIME type"),
        (
            lambda: mcp_error(3),  # type: ignore[arg-type]
            r"mcp_error\(message\) must be a str, got int",
        ),
        (
            lambda: mcp_error("x", code="1"),  # type: ignore[arg-type]
            r"mcp_error\(code\) must be an int, got '1'",
        ),
    ],
)
def test_bad_builder_arguments_are_refused(build: Any, message: str) -> None:
    with pytest.raises(InvalidMCPArgument, match=message):
        build()


def _looped() -> dict[str, Any]:
    looped: dict[str, Any] = {"k": 1}
    looped["self"] = looped
    return looped


def test_json_result_writes_its_text_as_servers_with_an_output_schema_do() -> None:
    """``pydantic_core.to_json(value, fallback=str, indent=2)``: two-space indents,
    non-ASCII text as it is, and values JSON has no form for as their text (the slow
    cassette tests compare it with a real server's, on mcp 1 and 2)."""
    value = {
        "desk": "東京",
        "rates": [0.92, 151],
        "open": True,
        "note": None,
        "day": date(2026, 1, 2),
    }

    result = dump(json_result(value))

    assert result["content"] == [
        {
            "type": "text",
            "text": '{\n  "desk": "東京",\n  "rates": [\n    0.92,\n    151\n  ],\n'
            '  "open": true,\n  "note": null,\n  "day": "2026-01-02"\n}',
        }
    ]
    assert result["structuredContent"] == {**value, "day": "2026-01-02"}
