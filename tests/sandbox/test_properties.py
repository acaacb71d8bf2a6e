"""Generated scripts, constructor arguments and call data, driven through real runs.

Whatever the script holds, a ``SandboxAgent`` run over it ends in time; with
``extra_checks`` it ends with success, an error of the sandbox boundary, or the exception
the script itself asked for (as it is, or wrapped by the SDK with ours or it as
``__cause__``). Recorded history and served results
stay exactly what they were, whatever is mutated afterwards. ``HYPOTHESIS_PROFILE=thorough``
searches more broadly.
"""

from __future__ import annotations

import asyncio
import io
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from agents import RunConfig, Runner, UserError, function_tool
from agents.run_config import SandboxRunConfig
from agents.sandbox import ExecResult, Manifest, SandboxAgent
from agents.sandbox.capabilities import Capability, Filesystem, Shell
from agents.sandbox.files import EntryKind, FileEntry
from agents.sandbox.session.pty_types import PtyExecUpdate
from agents.sandbox.types import Permissions
from agents.tool import Tool
from hypothesis import assume, event, given
from hypothesis import strategies as st

from agents_testing.core import compat
from agents_testing.model import ScriptedModel, assistant_message, function_call
from agents_testing.sandbox import (
    SandboxCall,
    SandboxScriptError,
    ScriptedSandboxSession,
    scripted_sandbox_session,
)

# A hang guard, not a timing check: a run that needs this long never finishes.
RUN_BOUND_SECONDS = 20.0

METHODS = sorted(
    {
        "apply_patch",
        "exec",
        "ls",
        "mkdir",
        "pty_exec_start",
        "pty_write_stdin",
        "read",
        "rm",
        "write",
        *compat.sandbox_optional_operations(),
    }
)


class Scripted(Exception):
    """The exception a generated step scripts, or a generated matcher or responder raises."""


class HostileRepr:
    """A value whose repr fails, for message builders."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


class Verdict:
    """A matcher result whose truth value cannot be taken."""

    def __bool__(self) -> bool:
        raise ValueError("ambiguous")


# --- generated values ------------------------------------------------------------------

HOSTILE = st.sampled_from([HostileRepr(), 10**5000, math.nan, object()])
FIELD_VALUES = st.one_of(st.binary(max_size=8), st.none(), st.text(max_size=4), st.integers())
INT_FIELDS = st.one_of(st.integers(-3, 300), st.none(), st.booleans(), st.text(max_size=2))


def _exec_result(stdout: Any, stderr: Any, exit_code: Any) -> ExecResult:
    return ExecResult(stdout=stdout, stderr=stderr, exit_code=exit_code)


def _update(process_id: Any, output: Any, exit_code: Any, tokens: Any) -> PtyExecUpdate:
    return PtyExecUpdate(
        process_id=process_id, output=output, exit_code=exit_code, original_token_count=tokens
    )


def _stream(kind: str, content: bytes, position: int) -> Any:
    if kind == "text":
        stream: Any = io.StringIO(content.decode("latin-1"))
    elif kind == "buffered":
        return io.BufferedReader(io.BytesIO(content))
    else:
        stream = io.BytesIO(content)
    stream.seek(position)
    if kind == "closed":
        stream.close()
    return stream


def _entry(path: str) -> FileEntry:
    return FileEntry(
        path=path,
        permissions=Permissions(),
        owner="u",
        group="g",
        size=0,
        kind=EntryKind.FILE,
    )


STREAMS = st.builds(
    _stream,
    st.sampled_from(["bytes", "text", "closed", "buffered"]),
    st.binary(max_size=16),
    st.integers(0, 20),
)
RESULTS = st.one_of(
    st.none(),
    st.booleans(),
    st.text(max_size=6),
    st.binary(max_size=6),
    st.builds(_exec_result, FIELD_VALUES, FIELD_VALUES, INT_FIELDS),
    st.builds(_update, INT_FIELDS, FIELD_VALUES, INT_FIELDS, INT_FIELDS),
    STREAMS,
    st.lists(st.one_of(st.builds(_entry, st.just("/workspace/a")), st.integers()), max_size=2),
    HOSTILE,
)
ERRORS = st.one_of(
    st.builds(Scripted, st.text(max_size=5)),
    st.sampled_from(
        [
            Scripted,
            TimeoutError,
            UnicodeDecodeError,  # needs constructor arguments
            KeyboardInterrupt(),
            SystemExit,
            asyncio.CancelledError(),
            StopIteration(),
            "boom",
            None,
        ]
    ),
)


def _raises(call: SandboxCall) -> Any:
    raise Scripted("from a callable")


async def _raises_later(call: SandboxCall) -> Any:
    await asyncio.sleep(0)
    raise Scripted("from an async callable")


def _two_arguments(call: SandboxCall, extra: Any) -> Any:
    return None


def _no_arguments() -> Any:
    return None


async def _async_matcher(call: SandboxCall) -> bool:
    return True


def _awaitable_of_awaitable(call: SandboxCall) -> Any:
    async def inner() -> Any:
        return None

    async def outer() -> Any:
        return inner()

    return outer()


def _returning(value: Any) -> Callable[[SandboxCall], Any]:
    return lambda call: value


def _returning_later(value: Any) -> Callable[[SandboxCall], Any]:
    async def respond(call: SandboxCall) -> Any:
        return value

    return respond


RESPONDERS = st.one_of(
    RESULTS.map(_returning),
    RESULTS.map(_returning_later),
    st.sampled_from(
        [
            _raises,
            _raises_later,
            _awaitable_of_awaitable,
            _two_arguments,
            _no_arguments,
            ExecResult,
            UnicodeDecodeError,
            int,
            "not callable",
        ]
    ),
)
MATCHERS = st.one_of(
    st.sampled_from([True, False, None, 0, "", Verdict(), HostileRepr()]).map(_returning),
    st.sampled_from([_raises, _async_matcher, _two_arguments, bool, "pwd"]),
)


def _valid_results(method: str) -> st.SearchStrategy[Any]:
    """Results ``method`` accepts, with generated content."""
    data = st.binary(max_size=8)
    if method == "exec":
        return st.builds(_exec_result, data, data, st.integers(0, 3))
    if method in ("pty_exec_start", "pty_write_stdin"):
        return st.builds(
            _update, st.sampled_from([1, None]), data, st.sampled_from([0, None]), st.none()
        )
    if method == "read":
        return st.builds(_stream, st.sampled_from(["bytes", "text"]), data, st.integers(0, 9))
    if method == "ls":
        return st.lists(st.builds(_entry, st.just("/workspace/a")), max_size=2)
    if method == "apply_patch":
        return st.text(max_size=6)
    if method == "same_file":
        return st.booleans()
    return st.none()


@st.composite
def steps(draw: st.DrawFn) -> Any:
    """One generated step: mostly well-formed, with malformed parts mixed in."""
    if draw(st.integers(0, 29)) == 0:
        return draw(st.sampled_from(["exec", 3, None, [("method", "exec")], HostileRepr()]))
    method = (
        draw(st.sampled_from(METHODS))
        if draw(st.integers(0, 14))
        else draw(st.sampled_from(["cp", 3, ""]))
    )
    valid = _valid_results(method) if method in METHODS else RESULTS
    malformed = draw(st.integers(0, 7)) == 0
    step: dict[Any, Any] = {"method": method}
    outcome = draw(
        st.sampled_from(["result"] * 9 + ["responder"] * 7 + ["error"] * 3 + ["none", "two"])
    )
    if outcome in ("result", "two"):
        step["result"] = draw(RESULTS if malformed else valid)
    if outcome == "responder":
        step["responder"] = draw(
            RESPONDERS
            if malformed
            else st.one_of(valid.map(_returning), valid.map(_returning_later))
        )
    if outcome in ("error", "two"):
        step["error"] = draw(
            ERRORS if malformed else st.sampled_from([Scripted("x"), TimeoutError()])
        )
    if draw(st.booleans()):
        step["match"] = draw(
            MATCHERS
            if malformed
            else st.sampled_from([None, True, 0, Verdict(), False]).map(_returning)
        )
    if draw(st.integers(0, 29)) == 0:
        step[draw(st.sampled_from(["expect", HostileRepr(), 10**5000]))] = 1
    return step


MANIFESTS = st.sampled_from(
    [None] * 24 + [Manifest(), True, {"root": "/srv"}, "/srv", HostileRepr()]
)
WRITE_DATA = st.one_of(
    st.builds(
        _stream, st.sampled_from(["bytes", "text"]), st.binary(max_size=8), st.integers(0, 9)
    ),
    STREAMS,
)

# --- driving a real run ----------------------------------------------------------------

ARGUMENTS: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {
    "apply_patch": (({"type": "create_file", "path": "a.txt", "diff": "+x\n"},), {}),
    "exec": (("pwd",), {}),
    "ls": ((".",), {}),
    "mkdir": (("logs",), {"parents": True}),
    "mv": (("a.txt", "b.txt"), {}),
    "pty_exec_start": (("sh",), {"tty": True}),
    "pty_write_stdin": ((), {"session_id": 1, "chars": "x"}),
    "read": ((Path("a.txt"),), {}),
    "rm": (("a.txt",), {}),
    "same_file": (("a.txt", "b.txt"), {}),
    "write": ((Path("a.txt"), None), {}),
}


class Direct(Capability):
    """A tool that calls any session method by name, so every method is reachable."""

    type: Literal["direct"] = "direct"
    # A function returning the stream: the runtime copies capabilities, a function it keeps.
    write_data: Any = None

    def tools(self) -> list[Tool]:
        session = self.session
        write_data = self.write_data
        assert session is not None

        async def invoke(method: str) -> str:
            """Call a sandbox session method."""
            args, kwargs = ARGUMENTS[method]
            if method == "write":
                args = (args[0], write_data())
            result = await getattr(session, method)(*args, **kwargs)
            return type(result).__name__

        return [function_tool(invoke, failure_error_function=None)]


def _tool_call(method: Any, route: str, index: int, pty: bool) -> Any:
    call_id = f"c{index}"
    if route == "sdk" and method in ("exec", "pty_exec_start"):
        return function_call("exec_command", {"cmd": "pwd"}, call_id=call_id)
    if route == "sdk" and method == "pty_write_stdin" and pty:
        return function_call("write_stdin", {"session_id": 1, "chars": "x"}, call_id=call_id)
    if route == "sdk" and method == "read":
        return function_call("view_image", {"path": "a.png"}, call_id=call_id)
    name = method if method in ARGUMENTS else "exec"
    return function_call("invoke", {"method": name}, call_id=call_id)


def _scripted_errors(script: list[Any]) -> list[Any]:
    return [step["error"] for step in script if isinstance(step, dict) and "error" in step]


def _allowed(error: BaseException, scripted: list[Any]) -> bool:
    """Whether ``error`` is ours, or the scripted exception, or the SDK's wrapping of one."""
    if isinstance(error, (SandboxScriptError, Scripted)):
        return True
    if any(
        error is value or (isinstance(value, type) and type(error) is value) for value in scripted
    ):
        return True
    cause = error.__cause__
    return isinstance(error, UserError) and cause is not None and _allowed(cause, scripted)


async def _run(
    sandbox: ScriptedSandboxSession,
    methods: list[Any],
    routes: list[str],
    write_data: Any,
    parallel: bool,
) -> BaseException | None:
    calls = [
        _tool_call(method, route, index, sandbox.supports_pty())
        for index, (method, route) in enumerate(zip(methods, routes, strict=False))
    ]
    # One tool call per turn, or all of them in one turn (the runner starts them together).
    turns: list[Any] = ([calls] if calls else []) if parallel else [[call] for call in calls]
    model = ScriptedModel([*turns, [assistant_message("done")]])
    agent = SandboxAgent(
        name="Generated",
        model=model,
        capabilities=[Shell(), Filesystem(), Direct(write_data=lambda: write_data)],
    )
    try:
        async with sandbox:
            await Runner.run(
                agent,
                "Go.",
                run_config=RunConfig(
                    sandbox=SandboxRunConfig(session=sandbox), tracing_disabled=True
                ),
                max_turns=len(turns) + 2,
            )
    except BaseException as error:  # judged by the caller, KeyboardInterrupt included
        return error
    return None


def _inspect(sandbox: ScriptedSandboxSession, scripted: list[Any]) -> None:
    """Every accessor works after any run, and assert_complete raises only our errors."""
    assert isinstance(sandbox.calls, tuple)
    assert len(sandbox.pending_steps) == sandbox.remaining_steps
    dir(sandbox)
    try:
        sandbox.assert_complete()
    except SandboxScriptError as error:
        str(error)


SCRIPTS = {
    "script": st.lists(steps(), max_size=4),
    "manifest": MANIFESTS,
    "extra_calls": st.lists(st.sampled_from([*METHODS, "exec"]), max_size=2),
    "routes": st.lists(st.sampled_from(["sdk", "direct"]), min_size=8, max_size=8),
    "write_data": WRITE_DATA,
    "parallel": st.booleans(),
}


def _run_generated(
    sandbox: ScriptedSandboxSession,
    script: list[Any],
    extra_calls: list[str],
    routes: list[str],
    write_data: Any,
    parallel: bool,
) -> BaseException | None:
    """Run the generated script through a real run; a run that does not end fails."""
    methods = [step["method"] for step in script if isinstance(step, dict)] + extra_calls

    async def bounded() -> BaseException | None:
        return await asyncio.wait_for(
            _run(sandbox, methods, routes, write_data, parallel), RUN_BOUND_SECONDS
        )

    outcome = asyncio.run(bounded())
    cause = None if outcome is None else outcome.__cause__
    event(f"run: {type(outcome).__name__} ({type(cause).__name__})")
    if outcome is not None:
        str(outcome)
    return outcome


@given(**SCRIPTS)
def test_generated_scripts_end_in_our_errors_or_the_scripted_exception(
    script: list[Any],
    manifest: Any,
    extra_calls: list[str],
    routes: list[str],
    write_data: Any,
    parallel: bool,
) -> None:
    scripted = _scripted_errors(script)
    try:
        sandbox = scripted_sandbox_session(script, manifest=manifest, extra_checks=True)
    except SandboxScriptError as error:
        event(f"refused when built: {type(error).__name__} {getattr(error, 'reason', '')}")
        str(error)
        return
    outcome = _run_generated(sandbox, script, extra_calls, routes, write_data, parallel)
    if outcome is not None:
        assert _allowed(outcome, scripted), repr(outcome)
    _inspect(sandbox, scripted)


def _escapes_the_loop(step: Any) -> bool:
    """A scripted exception that asyncio lets out of the event loop itself."""
    return isinstance(step, dict) and isinstance(step.get("error"), (KeyboardInterrupt, SystemExit))


@given(**SCRIPTS)
def test_generated_scripts_on_a_bare_session_end_in_time_and_stay_inspectable(
    script: list[Any],
    manifest: Any,
    extra_calls: list[str],
    routes: list[str],
    write_data: Any,
    parallel: bool,
) -> None:
    # A bare session hands scripted values to the SDK as they are, so the SDK's own errors
    # may end the run; whatever happens, the run ends and the session can be inspected.
    assume(not any(map(_escapes_the_loop, script)))
    try:
        sandbox = scripted_sandbox_session(script, manifest=manifest)
    except SandboxScriptError as error:
        event(f"refused when built: {type(error).__name__} {getattr(error, 'reason', '')}")
        str(error)
        return
    except ValueError as error:  # the SDK's own validation of a manifest that is not one
        event(f"refused by the SDK: {type(error).__name__}")
        return
    _run_generated(sandbox, script, extra_calls, routes, write_data, parallel)
    _inspect(sandbox, _scripted_errors(script))


# --- history and served results stay exact -----------------------------------------------


def _containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=2), inner, max_size=3)
    )


JSON = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-5, 5),
        st.floats(allow_nan=False, width=16),
        st.text(max_size=3),
    ),
    _containers,
    max_leaves=8,
)


def _same(left: Any, right: Any) -> bool:
    """Equal in value and in type, all the way down (``1``, ``1.0`` and ``True`` differ)."""
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        return list(left) == list(right) and all(
            _same(key, other) and _same(left[key], right[other])
            for key, other in zip(left, right, strict=True)
        )
    if isinstance(left, (list, tuple)):
        return len(left) == len(right) and all(map(_same, left, right))
    return bool(left == right)


def _mutate(value: Any) -> None:
    if isinstance(value, dict):
        value["mutated"] = True
    elif isinstance(value, list):
        value.append("mutated")


@given(operations=st.lists(JSON, min_size=1, max_size=5))
def test_recorded_arguments_keep_their_exact_values_and_types(operations: list[Any]) -> None:
    expected = [_copy_json(operation) for operation in operations]
    sandbox = scripted_sandbox_session(
        [{"method": "apply_patch", "responder": _mutating_responder} for _ in operations]
    )

    async def calls() -> None:
        async with sandbox:
            for operation in operations:
                await sandbox.apply_patch(operation)
                _mutate(operation)  # the workflow changes its data after the call

    asyncio.run(calls())
    for call in sandbox.calls:
        _mutate(call.args[0])  # and the test changes what it was handed
    recorded = [call.args[0] for call in sandbox.calls]
    assert len(recorded) == len(expected)
    assert all(map(_same, recorded, expected))
    sandbox.assert_complete()


def _mutating_responder(call: SandboxCall) -> str:
    _mutate(call.args[0])
    return "ok"


def _copy_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _copy_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy_json(item) for item in value]
    return value


@st.composite
def served_values(draw: st.DrawFn) -> tuple[str, Any, Callable[[Any], Any]]:
    """A valid static result, and how to describe what a caller must get from it."""
    kind = draw(st.sampled_from(["exec", "read-bytes", "read-text", "ls", "pty", "patch"]))
    data = draw(st.binary(max_size=12))
    position = draw(st.integers(0, 14))
    if kind == "exec":
        result: Any = ExecResult(stdout=data, stderr=data[::-1], exit_code=len(data))
        return "exec", result, lambda r: (type(r), r.stdout, r.stderr, r.exit_code)
    if kind == "pty":
        result = PtyExecUpdate(
            process_id=position, output=data, exit_code=None, original_token_count=len(data)
        )
        return "pty_exec_start", result, lambda r: (type(r), r.process_id, r.output, r.exit_code)
    if kind == "ls":
        result = [_entry(f"/workspace/{index}") for index in range(position % 3)]
        return "ls", result, lambda r: (type(r), [entry.path for entry in r])
    if kind == "patch":
        return "apply_patch", data.decode("latin-1"), lambda r: (type(r), r)
    stream: Any = io.StringIO(data.decode("latin-1")) if kind == "read-text" else io.BytesIO(data)
    stream.seek(position)
    return "read", stream, lambda r: (type(r), r.tell(), r.getvalue())


def _spoil(value: Any) -> None:
    """Change a scripted or served value in every way its type allows."""
    if isinstance(value, ExecResult):
        value.stdout, value.exit_code = b"spoiled", 99
    elif isinstance(value, PtyExecUpdate):
        object.__setattr__(value, "output", b"spoiled")
    elif isinstance(value, list):
        value.append(_entry("/workspace/spoiled"))
        object.__setattr__(value[0], "path", "/workspace/spoiled")  # frozen, but not immune
    elif isinstance(value, (io.BytesIO, io.StringIO)):
        value.seek(0)
        value.write(b"spoiled" if isinstance(value, io.BytesIO) else "spoiled")  # type: ignore[arg-type]
        value.close()


@given(values=st.lists(served_values(), min_size=1, max_size=5))
def test_served_results_stay_as_scripted_whatever_is_mutated_afterwards(
    values: list[tuple[str, Any, Callable[[Any], Any]]],
) -> None:
    expected = [describe(value) for _, value, describe in values]
    sandbox = scripted_sandbox_session(
        [{"method": method, "result": value} for method, value, _ in values]
    )
    for _, value, _ in values:
        _spoil(value)
    for step in sandbox.pending_steps:
        _spoil(step["result"])
    served: list[Any] = []

    async def calls() -> None:
        async with sandbox:
            for method, _, _ in values:
                args, kwargs = ARGUMENTS[method]
                result = await getattr(sandbox, method)(*args, **kwargs)
                served.append(result)
                described = values[len(served) - 1][2](result)
                _spoil(result)
                served[-1] = described

    asyncio.run(calls())
    assert served == expected
    sandbox.assert_complete()
