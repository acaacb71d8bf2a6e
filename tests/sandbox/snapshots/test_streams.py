"""Streams in the script and in calls: ``io.BytesIO`` / ``io.StringIO`` captured with their
position, handed out fresh on every use; closed and live streams refused before use."""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import Any, Literal

import pytest
from agents import function_tool
from agents.sandbox.capabilities import Capability, Filesystem
from agents.tool import Tool

from agents_testing.model import ScriptedModel, assistant_message, function_call
from agents_testing.sandbox import (
    InvalidSandboxArgument,
    InvalidSandboxStep,
    SandboxCall,
    SandboxScriptError,
    SandboxStepSpec,
    scripted_sandbox_session,
)

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16


def _closed(stream: io.IOBase) -> io.IOBase:
    stream.close()
    return stream


def _view_image_model() -> ScriptedModel:
    return ScriptedModel(
        [
            [function_call("view_image", {"path": "chart.png"}, call_id="c1")],
            [assistant_message("seen")],
        ]
    )


@pytest.mark.asyncio
async def test_a_read_result_is_served_from_its_captured_position(
    run_sandbox: Any, tool_outputs: Any
) -> None:
    stream = io.BytesIO(b"garbage!" + PNG)
    stream.seek(8)
    sandbox = scripted_sandbox_session([{"method": "read", "result": stream}])
    stream.seek(0)
    stream.write(b"X" * 12)  # changed after the script was built: no effect

    model = _view_image_model()
    async with sandbox:
        await run_sandbox(sandbox, model, [Filesystem()])

    # The image viewer read from position 8, so it saw exactly the PNG.
    assert base64.b64encode(PNG).decode() in str(tool_outputs(model))
    sandbox.assert_complete()


@pytest.mark.parametrize(
    ("stream", "content"),
    [(io.BytesIO(b"0123456789"), b"0123456789"), (io.StringIO("0123456789"), "0123456789")],
    ids=["BytesIO", "StringIO"],
)
@pytest.mark.asyncio
async def test_every_use_of_a_read_result_gets_a_fresh_stream_of_the_same_type_and_position(
    stream: io.BytesIO | io.StringIO, content: bytes | str
) -> None:
    stream.seek(4)
    step: SandboxStepSpec = {"method": "read", "result": stream}
    sandbox = scripted_sandbox_session([step, step])

    [pending, _] = sandbox.pending_steps
    async with sandbox:
        first = await sandbox.read(Path("a"))
        first.read()
        first.seek(0)
        first.write(content[:1] * 3)
        second = await sandbox.read(Path("a"))

    for handed_out in (pending["result"], first, second):
        assert type(handed_out) is type(stream)
    assert first is not second
    assert (second.tell(), second.read()) == (4, content[4:])
    assert pending["result"].getvalue() == content
    sandbox.assert_complete()


@pytest.mark.parametrize(
    ("result", "got"),
    [
        (_closed(io.BytesIO(b"x")), "a closed BytesIO"),
        (_closed(io.StringIO("x")), "a closed StringIO"),
        (io.BufferedReader(io.BytesIO(b"x")), "a BufferedReader (a live stream"),
        (io.TextIOWrapper(io.BytesIO(b"x")), "a TextIOWrapper (a live stream"),
        (type("MyBytesIO", (io.BytesIO,), {})(b"x"), "a MyBytesIO (a live stream"),
    ],
    ids=["closed-bytes", "closed-text", "buffered-reader", "text-wrapper", "subclass"],
)
def test_a_closed_or_live_read_result_is_refused_when_the_script_is_built(
    result: io.IOBase, got: str
) -> None:
    with pytest.raises(InvalidSandboxStep) as raised:
        scripted_sandbox_session([{"method": "read", "result": result}])
    assert (raised.value.reason, raised.value.input_index, raised.value.method) == (
        "invalid_outcome",
        0,
        "read",
    )
    assert f"must be an open io.BytesIO or io.StringIO, got {got}" in str(raised.value)


def test_an_open_file_is_refused_as_a_read_result(tmp_path: Path) -> None:
    path = tmp_path / "data.bin"
    path.write_bytes(PNG)
    with path.open("rb") as handle, pytest.raises(InvalidSandboxStep) as raised:
        scripted_sandbox_session([{"method": "read", "result": handle}])
    assert raised.value.reason == "invalid_outcome"
    assert "a BufferedReader (a live stream" in str(raised.value)


@pytest.mark.asyncio
async def test_a_responder_stream_is_captured_with_its_position() -> None:
    made: list[io.BytesIO] = []

    def respond(call: SandboxCall) -> io.BytesIO:
        stream = io.BytesIO(b"skip|" + str(call.args[0]).encode())
        stream.seek(5)
        made.append(stream)
        return stream

    sandbox = scripted_sandbox_session([{"method": "read", "responder": respond}])
    async with sandbox:
        served = await sandbox.read(Path("notes.md"))

    assert type(served) is io.BytesIO
    assert served is not made[0]
    assert (served.tell(), served.read()) == (5, b"notes.md")
    sandbox.assert_complete()


@pytest.mark.parametrize(
    "returned",
    [lambda: _closed(io.BytesIO(PNG)), lambda: io.BufferedReader(io.BytesIO(PNG))],
    ids=["closed", "live"],
)
@pytest.mark.asyncio
async def test_a_closed_or_live_responder_stream_is_refused_before_the_tool_uses_it(
    run_sandbox: Any, tool_outputs: Any, returned: Any
) -> None:
    sandbox = scripted_sandbox_session([{"method": "read", "responder": lambda call: returned()}])
    model = _view_image_model()
    async with sandbox:
        result = await run_sandbox(sandbox, model, [Filesystem()])

    # The image viewer reports read failures to the model; the test still finds out.
    assert result.final_output == "seen"
    assert "InvalidSandboxStep" in str(tool_outputs(model))
    with pytest.raises(InvalidSandboxStep) as raised:
        sandbox.assert_complete()
    assert (raised.value.reason, raised.value.input_index) == ("invalid_outcome", 0)


class StreamWriter(Capability):
    """An application tool that writes a stream it was given to the workspace."""

    type: Literal["stream-writer"] = "stream-writer"
    make_stream: Any = None

    def tools(self) -> list[Tool]:
        session = self.session
        make_stream = self.make_stream
        assert session is not None

        @function_tool
        async def save(path: str) -> str:
            """Save the prepared data to a file."""
            await session.write(Path(path), make_stream())
            return "saved"

        return [save]


@pytest.mark.parametrize(
    ("make_stream", "got"),
    [
        (lambda: _closed(io.BytesIO(b"data")), "a closed BytesIO"),
        (lambda: io.BufferedReader(io.BytesIO(b"data")), "a BufferedReader (a live stream"),
    ],
    ids=["closed", "live"],
)
@pytest.mark.asyncio
async def test_a_closed_or_live_stream_argument_is_refused_before_anything_is_recorded(
    run_sandbox: Any, tool_outputs: Any, make_stream: Any, got: str
) -> None:
    sandbox = scripted_sandbox_session([{"method": "write", "result": None}])
    model = ScriptedModel(
        [
            [function_call("save", {"path": "out.bin"}, call_id="c1")],
            [assistant_message("could not save")],
        ]
    )
    async with sandbox:
        result = await run_sandbox(sandbox, model, [StreamWriter(make_stream=make_stream)])

    # A function tool reports its failure to the model; assert_complete() raises it.
    assert result.final_output == "could not save"
    assert "error" in str(tool_outputs(model)).lower()
    with pytest.raises(InvalidSandboxArgument) as raised:
        sandbox.assert_complete()
    error = raised.value
    assert isinstance(error, SandboxScriptError)
    assert (error.method, error.argument, error.expected) == (
        "write",
        "args[1]",
        "an open io.BytesIO or io.StringIO",
    )
    assert error.got.startswith(got)
    # Nothing was recorded or consumed.
    assert sandbox.calls == ()
    assert sandbox.remaining_steps == 1


@pytest.mark.asyncio
async def test_a_stream_argument_handed_to_a_responder_is_a_fresh_copy() -> None:
    seen: list[Any] = []

    def respond(call: SandboxCall) -> None:
        data = call.args[1]
        seen.append((type(data), data.tell(), data.read()))
        data.seek(0)
        data.write(b"responder was here")

    sandbox = scripted_sandbox_session([{"method": "write", "responder": respond}])
    data = io.BytesIO(b"0123456789")
    data.seek(2)
    async with sandbox:
        await sandbox.write(Path("out.bin"), data)

    assert seen == [(io.BytesIO, 2, b"23456789")]
    assert (data.tell(), data.getvalue()) == (2, b"0123456789")
    recorded = sandbox.calls[0].args[1]
    assert (recorded.tell(), recorded.getvalue()) == (2, b"0123456789")
    sandbox.assert_complete()
