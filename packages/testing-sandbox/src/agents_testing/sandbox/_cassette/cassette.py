"""``SandboxCassette``: record a real sandbox session method by method, replay it scripted.

Recording wraps the public operations of a live session (``exec``, ``read``, ``write``,
``apply_patch``, ``ls``, ...) on that one object and writes each outermost call with its
arguments and result (or error) to one cassette file. The workspace root of the live
session is written as ``<workspace>``, so a recording made in a fresh temporary
directory is the same every time. Replay turns every call into a step of a
:func:`scripted_sandbox_session` whose matcher compares the call with the recorded one
and raises :class:`SandboxCallMismatch` with a readable diff when they differ.
"""

from __future__ import annotations

import base64
import inspect
import io
from collections.abc import Callable, Mapping, Sequence
from pathlib import PurePath
from typing import Any

from agents.sandbox.files import FileEntry
from agents.sandbox.manifest import Manifest
from agents.sandbox.session.pty_types import PtyExecUpdate
from agents.sandbox.types import ExecResult
from pydantic import TypeAdapter
from pydantic_core import to_jsonable_python

from agents_testing.core.cassette import (
    BoundaryCassette,
    CallRecorder,
    CassetteFormatError,
    CassetteMismatch,
    ReplayedError,
    error_json,
    rebuilt_error,
    recorded_matcher,
)

from .._call import SandboxCall
from .._errors import InvalidSandboxStep, SandboxScriptError
from .._session import ScriptedSandboxSession, scripted_sandbox_session
from .._steps import scriptable_methods

__all__ = ["ReplayedSandboxError", "SandboxCallMismatch", "SandboxCassette"]

_ROOT = "<workspace>"


class SandboxCallMismatch(SandboxScriptError, CassetteMismatch):
    """A replayed sandbox call's arguments differ from the recorded ones.

    Raised by the replay step's matcher at the call, and again by the session's
    ``assert_complete()``; ``differences`` names each differing argument.
    """

    def __init__(self, call_index: int, differences: Sequence[str]) -> None:
        CassetteMismatch.__init__(self, "sandbox", call_index, differences)

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.call_index, self.differences))


class ReplayedSandboxError(ReplayedError):
    """A recorded session error whose original type cannot be rebuilt on replay."""


# -- values as JSON -------------------------------------------------------------------


def _bytes_json(data: bytes) -> dict[str, str]:
    try:
        return {"text": data.decode("utf-8")}
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(data).decode("ascii")}


def _bytes_from(data: Any) -> bytes:
    if isinstance(data, Mapping) and isinstance(data.get("text"), str):
        return str(data["text"]).encode("utf-8")
    if isinstance(data, Mapping) and isinstance(data.get("base64"), str):
        return base64.b64decode(str(data["base64"]))
    raise ValueError(f"expected {{'text': ...}} or {{'base64': ...}}, got {data!r}")


def _relative(text: str, root: str | None) -> str:
    return text.replace(root, _ROOT) if root and root != "/" else text


def _json(value: Any, root: str | None) -> Any:
    if isinstance(value, (bytes, bytearray)):
        return _bytes_json(bytes(value))
    if isinstance(value, (io.BytesIO, io.StringIO)):
        # A scripted session records stream arguments as fresh streams; compare what is
        # left to read, as the recorder drained it, without moving the stream.
        return _json(value.getvalue()[value.tell() :], root)
    if isinstance(value, (str, PurePath)):
        return _relative(str(value), root)
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, ExecResult):
        return {
            "exit_code": value.exit_code,
            "stderr": _bytes_json(value.stderr),
            "stdout": _bytes_json(value.stdout),
        }
    if isinstance(value, PtyExecUpdate):
        return {
            "exit_code": value.exit_code,
            "original_token_count": value.original_token_count,
            "output": _bytes_json(value.output),
            "process_id": value.process_id,
        }
    if isinstance(value, (list, tuple)):
        return [_json(item, root) for item in value]
    if isinstance(value, Mapping):
        return {str(key): _json(item, root) for key, item in value.items()}
    return _json(to_jsonable_python(value, fallback=repr), root)


def _drain(stream: Any) -> bytes | str:
    data = stream.read()
    return data if isinstance(data, (bytes, str)) else bytes(data or b"")


def _result(method: str, data: Any, root: str) -> Any:
    """A recorded result rebuilt as the session method returns it, under ``root``."""

    def path(text: Any) -> Any:
        return str(text).replace(_ROOT, root) if isinstance(text, str) else text

    if method == "exec":
        return ExecResult(
            stdout=_bytes_from(data["stdout"]),
            stderr=_bytes_from(data["stderr"]),
            exit_code=int(data["exit_code"]),
        )
    if method in ("pty_exec_start", "pty_write_stdin"):
        return PtyExecUpdate(
            process_id=_optional_int(data["process_id"], "process_id"),
            output=_bytes_from(data["output"]),
            exit_code=_optional_int(data["exit_code"], "exit_code"),
            original_token_count=_optional_int(
                data["original_token_count"], "original_token_count"
            ),
        )
    if method == "read":
        if isinstance(data, Mapping) and "string" in data:
            return io.StringIO(path(data["string"]))
        return io.BytesIO(_bytes_from(data))
    if method == "ls":
        adapter = TypeAdapter(FileEntry)
        return [adapter.validate_python({**entry, "path": path(entry["path"])}) for entry in data]
    if method == "apply_patch":
        return path(data)
    return data


def _optional_int(value: Any, name: str) -> int | None:
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise TypeError(f"{name} must be an integer or null, got {value!r}")


def _canonical(
    method: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """Arguments as a scripted session records them: positional, then keywords with defaults."""
    try:
        signature = inspect.signature(getattr(ScriptedSandboxSession, method))
        bound = signature.bind(None, *args, **kwargs)
    except (AttributeError, TypeError, ValueError):
        return args, kwargs
    bound.apply_defaults()
    positional: list[Any] = []
    named: dict[str, Any] = {}
    for name, value in list(bound.arguments.items())[1:]:
        kind = signature.parameters[name].kind
        if kind is inspect.Parameter.VAR_POSITIONAL:
            positional.extend(value)
        elif kind is inspect.Parameter.KEYWORD_ONLY:
            named[name] = value
        elif kind is inspect.Parameter.VAR_KEYWORD:
            named.update(value)
        else:
            positional.append(value)
    return tuple(positional), named


# -- recording ------------------------------------------------------------------------


class _Recorder(CallRecorder):
    def __init__(self, session: Any) -> None:
        super().__init__()
        self.session = session
        self.calls: list[dict[str, Any]] = []

    @property
    def root(self) -> str | None:
        manifest = getattr(getattr(self.session, "state", None), "manifest", None)
        root = getattr(manifest, "root", None)
        return str(root) if root else None

    def wrap_method(self, method: str) -> None:
        async def record(original: Callable[..., Any], args: Any, kwargs: Any) -> Any:
            return await self._record(method, original, tuple(args), kwargs)

        self.wrap(self.session, method, record)

    async def _record(
        self, method: str, original: Callable[..., Any], args: tuple[Any, ...], kwargs: Any
    ) -> Any:
        root = self.root
        if method == "write" and len(args) >= 2 and hasattr(args[1], "read"):
            content = _drain(args[1])
            data = content.encode("utf-8") if isinstance(content, str) else content
            args = (args[0], io.BytesIO(data), *args[2:])
            shown: tuple[Any, ...] = (args[0], data, *args[2:])
        else:
            shown = args
        shown, named = _canonical(method, shown, kwargs)
        entry: dict[str, Any] = {
            "method": method,
            "args": self.json(list(shown), f"{method}() args", lambda value: _json(value, root)),
            "kwargs": self.json(named, f"{method}() kwargs", lambda value: _json(value, root)),
        }
        self.calls.append(entry)
        try:
            result = await original(*args, **kwargs)
        except Exception as error:
            entry["error"] = error_json(error, _relative(str(error), root))
            raise
        if method == "read" and hasattr(result, "read"):
            content = _drain(result)
            if isinstance(content, str):
                entry["result"] = {"string": _relative(content, root)}
                return io.StringIO(content)
            entry["result"] = _bytes_json(content)
            return io.BytesIO(content)
        entry["result"] = self.json(result, f"{method}() result", lambda value: _json(value, root))
        return result


class SandboxCassette(BoundaryCassette):
    """The cassette file of one test at the sandbox boundary.

    ``scrubbers``, ``secrets``, ``allowed_secrets`` and ``allow_secrets`` work as for
    ``ModelCassette``.
    """

    boundary = "sandbox"
    packages = ("openai-agents", "agents-testing-sandbox")

    def record(self, session: Any) -> Any:
        """Record every public operation of the live ``session``; returns the same session."""
        recorder = _Recorder(session)
        for method in sorted(scriptable_methods()):
            if callable(getattr(session, method, None)):
                recorder.wrap_method(method)
        self._recorder = recorder
        return session

    def _recording(self, recorder: _Recorder) -> list[Any]:
        return recorder.calls

    def replay(self, *, manifest: Manifest | None = None) -> ScriptedSandboxSession:
        """The cassette as a :func:`scripted_sandbox_session`, one step per recorded call.

        Raises ``CassetteNotFound`` when the file is missing and ``CassetteFormatError``
        (naming the file and the JSON path) when it cannot be read.
        """
        where = str(self.path)
        calls = self._read()
        root = str((manifest or Manifest()).root)
        steps = [self._step(call, index, root, where) for index, call in enumerate(calls)]
        try:
            # With the session's extra checks, a drift the SDK turned into tool output is
            # still raised again by assert_complete().
            return scripted_sandbox_session(steps, manifest=manifest, extra_checks=True)
        except InvalidSandboxStep as error:
            raise CassetteFormatError(
                where, f"it cannot be replayed: {error}", f"calls[{error.input_index}]"
            ) from None

    def _step(self, call: Mapping[str, Any], index: int, root: str, where: str) -> Any:
        at = f"calls[{index}]"
        method = call.get("method")
        if not isinstance(method, str) or method not in scriptable_methods():
            raise CassetteFormatError(
                where,
                f"{method!r} is not a sandbox session method this SDK has; re-record the "
                f"cassette with this SDK.",
                f"{at}.method",
            )
        if not isinstance(call.get("args"), list):
            raise CassetteFormatError(where, "it must be a list of arguments.", f"{at}.args")
        if not isinstance(call.get("kwargs"), dict):
            raise CassetteFormatError(where, "it must be an object of arguments.", f"{at}.kwargs")

        def live(call: SandboxCall) -> Any:
            return {"args": _json(list(call.args), root), "kwargs": _json(dict(call.kwargs), root)}

        recorded = {"args": call["args"], "kwargs": call["kwargs"]}
        match = recorded_matcher(recorded, live, self.scrubbers, f"{method}()", SandboxCallMismatch)
        step: dict[str, Any] = {"method": method, "match": match}
        part = "error" if "error" in call else "result"
        try:
            if part == "error":
                step["error"] = rebuilt_error(call["error"], ReplayedSandboxError)
            else:
                step["result"] = _result(method, call.get("result"), root)
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as error:
            raise CassetteFormatError(
                where,
                f"this {method}() {part} cannot be rebuilt ({type(error).__name__}: {error}).",
                f"{at}.{part}",
            ) from None
        return step


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
