"""Streams in the script and in calls: any ``io.BytesIO`` / ``io.StringIO`` (subclasses too)
captured with its position, handed out fresh on every use; closed and live streams refused
before use."""

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


class BytesChild(io.BytesIO):
    """A byte stream of the test's own class."""


class CallableText(io.StringIO):
    """A text stream that is also callable, which must not make it a callable to keep."""

    def __call__(self) -> str:
        return "called"

    def getvalue(self) -> str:
        raise AssertionError("the snapshot reads through io.StringIO itself")


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


@pytest.mark.parametrize("extra_checks", [False, True], ids=["bare", "extra-checks"])
@pytest.mark.parametrize(
    ("result", "message"),
    [
        (_closed(io.BytesIO(b"x")), r"Cannot snapshot a closed sandbox byte stream\."),
        (_closed(io.StringIO("x")), r"Cannot snapshot a closed sandbox text stream\."),
        (_closed(BytesChild(b"x")), r"Cannot snapshot a closed sandbox byte stream\."),
        (
            io.BufferedReader(io.BytesIO(b"x")),
            r"support only io\.BytesIO and io\.StringIO\. The result is a BufferedReader",
        ),
        (
            io.TextIOWrapper(io.BytesIO(b"x")),
            r"support only io\.BytesIO and io\.StringIO\. The result is a TextIOWrapper",
        ),
    ],
    ids=["closed-bytes", "closed-text", "closed-subclass", "buffered-reader", "text-wrapper"],
)
def test_a_closed_or_live_read_result_is_refused_when_the_script_is_built(
    result: io.IOBase, message: str, extra_checks: bool
) -> None:
    with pytest.raises(InvalidSandboxStep, match=message) as raised:
        scripted_sandbox_session([{"method": "read", "result": result}], extra_checks=extra_checks)
    assert (raised.value.reason, raised.value.input_index, raised.value.method) == (
        "invalid_outcome",
        0,
        "read",
    )


def test_an_open_file_is_refused_as_a_read_result(tmp_path: Path) -> None:
    path = tmp_path / "data.bin"
    path.write_bytes(PNG)
    with path.open("rb") as handle, pytest.raises(InvalidSandboxStep) as raised:
        scripted_sandbox_session([{"method": "read", "result": handle}])
    assert raised.value.reason == "invalid_outcome"
    assert "support only io.BytesIO and io.StringIO. The result is a BufferedReader" in str(
        raised.value
    )


@pytest.mark.parametrize("extra_checks", [False, True], ids=["bare", "extra-checks"])
@pytest.mark.parametrize(
    ("stream", "plain"),
    [(BytesChild(b"garbage!" + PNG), io.BytesIO), (CallableText("garbage!text"), io.StringIO)],
    ids=["subclass", "callable-subclass"],
)
@pytest.mark.asyncio
async def test_a_stream_subclass_result_is_served_as_a_plain_stream_from_its_position(
    stream: io.BytesIO | io.StringIO, plain: Any, extra_checks: bool
) -> None:
    stream.seek(8)
    sandbox = scripted_sandbox_session(
        [{"method": "read", "result": stream}], extra_checks=extra_checks
    )
    assert stream.tell() == 8  # neither read nor moved
    [pending] = sandbox.pending_steps
    async with sandbox:
        served = await sandbox.read(Path("a"))
    expected = plain.getvalue(stream)
    handed: list[Any] = [pending["result"], served]
    for handed_out in handed:
        assert type(handed_out) is plain
        assert (handed_out.tell(), handed_out.getvalue()) == (8, expected)
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_a_stream_subclass_result_serves_the_image_viewer(
    run_sandbox: Any, tool_outputs: Any
) -> None:
    """Shows SBX-2."""
    stream = BytesChild(b"garbage!" + PNG)
    stream.seek(8)
    sandbox = scripted_sandbox_session([{"method": "read", "result": stream}])
    model = _view_image_model()
    async with sandbox:
        await run_sandbox(sandbox, model, [Filesystem()])

    assert base64.b64encode(PNG).decode() in str(tool_outputs(model))
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_a_responders_stream_is_handed_back_as_it_is() -> None:
    made: list[io.BytesIO] = []

    def respond(call: SandboxCall) -> io.BytesIO:
        stream = io.BytesIO(b"skip|" + str(call.args[0]).encode())
        stream.seek(5)
        made.append(stream)
        return stream

    sandbox = scripted_sandbox_session([{"method": "read", "responder": respond}])
    async with sandbox:
        served = await sandbox.read(Path("notes.md"))

    assert served is made[0]
    assert (served.tell(), served.read()) == (5, b"notes.md")
    sandbox.assert_complete()


@pytest.mark.asyncio
async def test_a_closed_responder_stream_is_refused_before_the_tool_uses_it_with_extra_checks(
    run_sandbox: Any, tool_outputs: Any
) -> None:
    sandbox = scripted_sandbox_session(
        [{"method": "read", "responder": lambda call: _closed(io.BytesIO(PNG))}],
        extra_checks=True,
    )
    model = _view_image_model()
    async with sandbox:
        result = await run_sandbox(sandbox, model, [Filesystem()])

    # The image viewer reports read failures to the model; the test still finds out.
    assert result.final_output == "seen"
    assert "InvalidSandboxStep" in str(tool_outputs(model))
    with pytest.raises(InvalidSandboxStep, match="read returns an open stream") as raised:
        sandbox.assert_complete()
    assert (raised.value.reason, raised.value.input_index) == ("invalid_outcome", 0)


@pytest.mark.parametrize("extra_checks", [False, True], ids=["bare", "extra-checks"])
@pytest.mark.asyncio
async def test_a_live_responder_stream_serves_the_image_viewer(
    run_sandbox: Any, tool_outputs: Any, extra_checks: bool
) -> None:
    sandbox = scripted_sandbox_session(
        [{"method": "read", "responder": lambda call: io.BufferedReader(io.BytesIO(PNG))}],
        extra_checks=extra_checks,
    )
    model = _view_image_model()
    async with sandbox:
        await run_sandbox(sandbox, model, [Filesystem()])

    assert base64.b64encode(PNG).decode() in str(tool_outputs(model))
    sandbox.assert_complete()


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


@pytest.mark.parametrize("extra_checks", [False, True], ids=["bare", "extra-checks"])
@pytest.mark.parametrize(
    ("make_stream", "message", "got"),
    [
        (
            lambda: _closed(io.BytesIO(b"data")),
            r"Cannot snapshot a closed sandbox byte stream\.",
            "a closed BytesIO",
        ),
        (
            lambda: _closed(io.StringIO("data")),
            r"Cannot snapshot a closed sandbox text stream\.",
            "a closed StringIO",
        ),
        (
            lambda: io.BufferedReader(io.BytesIO(b"data")),
            r"Sandbox stream snapshots support only io\.BytesIO and io\.StringIO\.",
            "a BufferedReader",
        ),
    ],
    ids=["closed-bytes", "closed-text", "live"],
)
@pytest.mark.asyncio
async def test_a_closed_or_live_stream_argument_is_refused_before_anything_is_recorded(
    run_sandbox: Any,
    tool_outputs: Any,
    make_stream: Any,
    message: str,
    got: str,
    extra_checks: bool,
) -> None:
    """Shows SBX-3."""
    sandbox = scripted_sandbox_session(
        [{"method": "write", "result": None}], extra_checks=extra_checks
    )
    with pytest.raises(TypeError, match=message) as direct:
        await sandbox.write(Path("secret-name.bin"), make_stream())
    error = direct.value
    assert isinstance(error, InvalidSandboxArgument)
    assert isinstance(error, SandboxScriptError)
    assert (error.method, error.call_index, error.argument, error.got) == (
        "write",
        0,
        "args[1]",
        got,
    )
    assert "secret-name" not in str(error)
    assert (sandbox.calls, sandbox.remaining_steps) == ((), 1)

    model = ScriptedModel(
        [
            [function_call("save", {"path": "out.bin"}, call_id="c1")],
            [assistant_message("could not save")],
        ]
    )
    async with sandbox:
        result = await run_sandbox(sandbox, model, [StreamWriter(make_stream=make_stream)])

    # A function tool reports its failure to the model.
    assert result.final_output == "could not save"
    assert "error" in str(tool_outputs(model)).lower()
    # Nothing was recorded or consumed.
    assert sandbox.calls == ()
    assert sandbox.remaining_steps == 1
    if extra_checks:
        with pytest.raises(InvalidSandboxArgument, match=message):
            sandbox.assert_complete()


@pytest.mark.parametrize(
    "wrap",
    [
        lambda stream: (stream,),
        lambda stream: [b"head", stream],
        lambda stream: {"payload": stream},
        lambda stream: {stream},
    ],
    ids=["tuple", "list", "dict", "set"],
)
@pytest.mark.asyncio
async def test_a_stream_inside_an_argument_is_captured_as_a_plain_stream(wrap: Any) -> None:
    original = CallableText("0123456789")
    original.seek(3)
    sandbox = scripted_sandbox_session([{"method": "apply_patch", "result": "done"}])
    async with sandbox:
        await sandbox.apply_patch(wrap(original))

    assert original.tell() == 3
    original.seek(0)
    original.write("XXXX")  # changed after the call: no effect on what was recorded
    first, second = (_the_stream(call.args[0]) for call in (sandbox.calls[0], sandbox.calls[0]))
    assert first is not second
    for captured in (first, second):
        assert type(captured) is io.StringIO
        assert (captured.tell(), captured.getvalue()) == (3, "0123456789")
    sandbox.assert_complete()


def _the_stream(container: Any) -> Any:
    values = container.values() if isinstance(container, dict) else container
    [stream] = [value for value in values if isinstance(value, io.IOBase)]
    return stream


@pytest.mark.asyncio
async def test_a_stream_subclass_argument_is_recorded_as_a_plain_stream(
    run_sandbox: Any,
) -> None:
    """Shows SBX-2."""
    sandbox = scripted_sandbox_session([{"method": "write", "result": None}])
    data = BytesChild(b"0123456789")
    data.seek(2)
    model = ScriptedModel(
        [
            [function_call("save", {"path": "out.bin"}, call_id="c1")],
            [assistant_message("saved")],
        ]
    )
    async with sandbox:
        result = await run_sandbox(sandbox, model, [StreamWriter(make_stream=lambda: data)])

    assert result.final_output == "saved"
    recorded = sandbox.calls[0].args[1]
    assert type(recorded) is io.BytesIO
    assert (recorded.tell(), recorded.getvalue()) == (2, b"0123456789")
    assert data.tell() == 2
    sandbox.assert_complete()


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
