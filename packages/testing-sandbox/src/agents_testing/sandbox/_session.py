"""``ScriptedSandboxSession``: a real SDK sandbox session answered by a step script.

It subclasses the SDK's ``BaseSandboxSession``, so the real ``SandboxAgent`` runtime,
capabilities and tools drive it exactly as they drive a Docker or remote session. Every
scriptable method records a detached :class:`SandboxCall` and consumes the next step of
one global FIFO; there is no container, process, filesystem or provider behind it.
"""

from __future__ import annotations

import inspect
import io
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NoReturn

from agents.sandbox.files import FileEntry
from agents.sandbox.manifest import Manifest
from agents.sandbox.materialization import MaterializedFile
from agents.sandbox.session.base_sandbox_session import BaseSandboxSession
from agents.sandbox.session.pty_types import PtyExecUpdate
from agents.sandbox.session.sandbox_session_state import SandboxSessionState
from agents.sandbox.snapshot import NoopSnapshot
from agents.sandbox.types import ExecResult, User

from agents_testing.core import StepScript

from ._call import SandboxCall, copy_call, record_call
from ._errors import (
    InvalidSandboxStep,
    SandboxCallMatcherError,
    SandboxScriptError,
    UnconsumedSandboxSteps,
    UnexpectedSandboxCall,
)
from ._steps import PTY_METHODS, SandboxStepSpec, Step, build_steps, coerce_responded, fresh_result

__all__ = ["ScriptedSandboxSession", "scripted_sandbox_session"]

_STATE_TYPE = "scripted"


class ScriptedSandboxSession(BaseSandboxSession):
    """A sandbox session whose method results come from scripted steps, in one FIFO order.

    Pass it as ``RunConfig(sandbox={"session": sandbox})`` and manage it with
    ``async with sandbox:``. Inspect ``calls``, ``remaining_steps`` and ``pending_steps``;
    finish a test with ``assert_complete()``.
    """

    def __init__(
        self,
        steps: Iterable[SandboxStepSpec] = (),
        *,
        manifest: Manifest | None = None,
    ) -> None:
        if manifest is not None and not isinstance(manifest, Manifest):
            raise TypeError(
                f"manifest must be an agents.sandbox.Manifest or None, got "
                f"{type(manifest).__name__}"
            )
        built = build_steps(steps)
        self._script: StepScript[Step] = StepScript(built)
        # Scripting either PTY method offers the interactive shell (exec_command on a PTY
        # plus write_stdin); the SDK asks the session through supports_pty().
        self._pty = any(step.method in PTY_METHODS for step in built)
        self._calls: list[SandboxCall] = []
        self._shared: list[bool] = []
        self._violation: SandboxScriptError | None = None
        self._running = False
        self.state = SandboxSessionState(
            type=_STATE_TYPE,
            snapshot=NoopSnapshot(id=uuid.uuid4().hex),
            manifest=manifest if manifest is not None else Manifest(),
        )

    # --- inspection -----------------------------------------------------------------

    @property
    def calls(self) -> tuple[SandboxCall, ...]:
        """Every call the workflow made on a scriptable method, detached, in call order."""
        return tuple(
            copy_call(call, shared) for call, shared in zip(self._calls, self._shared, strict=True)
        )

    @property
    def remaining_steps(self) -> int:
        """How many scripted steps are not yet consumed."""
        return len(self._script)

    @property
    def pending_steps(self) -> tuple[SandboxStepSpec, ...]:
        """The steps not yet consumed, in script order, as step dicts built on each access.

        Changing a returned dict or its result changes nothing in the script; responders,
        matchers and error objects are the ones the test scripted.
        """
        return tuple(step.spec() for step in self._script)

    def assert_complete(self) -> None:
        """Raise the first script violation the run hit, else ``UnconsumedSandboxSteps``.

        A violation is re-raised here even when the SDK turned it into tool output (the
        image viewer, for one, reports read failures to the model instead of raising).
        """
        if self._violation is not None:
            raise self._violation
        self._script.assert_complete(
            lambda pending: UnconsumedSandboxSteps(tuple(step.spec() for step in pending))
        )

    # --- the step script ------------------------------------------------------------

    async def _answer(self, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        index = len(self._calls)
        call, shared = record_call(index, method, args, kwargs)
        self._calls.append(call)
        self._shared.append(shared)
        step = self._take(call, shared)
        # Consumed synchronously above, before any await: concurrent tool calls consume
        # steps in the order the runner starts them.
        if step.kind == "result":
            return fresh_result(method, step.value)
        if step.kind == "error":
            error = step.value
            raise error() if isinstance(error, type) else error
        value = step.value(copy_call(call, shared))
        if inspect.isawaitable(value):
            value = await value
        result, problem = coerce_responded(method, value)
        if problem is not None:
            self._fail(InvalidSandboxStep("invalid_outcome", step.input_index, method, problem))
        return result

    def _take(self, call: SandboxCall, shared: bool) -> Step:
        head = self._script.peek()
        if head is None or head.method != call.method:
            expected = None if head is None else head.method
            self._fail(
                UnexpectedSandboxCall(
                    copy_call(call, shared), call.call_index, expected, self.pending_steps
                )
            )
        if head.match is not None:
            try:
                verdict = head.match(copy_call(call, shared))
            except Exception as error:
                self._fail(self._rejected(call, shared, head), error)
            if inspect.isawaitable(verdict):
                close = getattr(verdict, "close", None)
                if callable(close):
                    close()
                self._fail(
                    self._rejected(call, shared, head),
                    TypeError("a matcher must return a value, not an awaitable"),
                )
            if verdict is False:
                self._fail(self._rejected(call, shared, head))
        self._script.take()
        return head

    @staticmethod
    def _rejected(call: SandboxCall, shared: bool, step: Step) -> SandboxCallMatcherError:
        # Errors get their own copy of the call, so nothing reached through them can
        # change the recorded history.
        return SandboxCallMatcherError(copy_call(call, shared), call.call_index, step.method)

    def _fail(self, error: SandboxScriptError, cause: BaseException | None = None) -> NoReturn:
        if self._violation is None:
            self._violation = error
        if cause is not None:
            raise error from cause
        raise error

    # --- scriptable session operations ----------------------------------------------

    async def exec(
        self,
        *command: str | Path,
        timeout: float | None = None,
        shell: bool | list[str] = True,
        user: str | User | None = None,
    ) -> ExecResult:
        kwargs = {"timeout": timeout, "shell": shell, "user": user}
        result: ExecResult = await self._answer("exec", command, kwargs)
        return result

    async def _exec_internal(
        self, *command: str | Path, timeout: float | None = None
    ) -> ExecResult:
        # exec() is scripted as a whole; nothing reaches the backend hook.
        return await self.exec(*command, timeout=timeout, shell=False)

    def supports_pty(self) -> bool:
        return self._pty

    async def pty_exec_start(
        self,
        *command: str | Path,
        timeout: float | None = None,
        shell: bool | list[str] = True,
        user: str | User | None = None,
        tty: bool = False,
        yield_time_s: float | None = None,
        max_output_tokens: int | None = None,
    ) -> PtyExecUpdate:
        kwargs = {
            "timeout": timeout,
            "shell": shell,
            "user": user,
            "tty": tty,
            "yield_time_s": yield_time_s,
            "max_output_tokens": max_output_tokens,
        }
        result: PtyExecUpdate = await self._answer("pty_exec_start", command, kwargs)
        return result

    async def pty_write_stdin(
        self,
        *,
        session_id: int,
        chars: str,
        yield_time_s: float | None = None,
        max_output_tokens: int | None = None,
    ) -> PtyExecUpdate:
        kwargs = {
            "session_id": session_id,
            "chars": chars,
            "yield_time_s": yield_time_s,
            "max_output_tokens": max_output_tokens,
        }
        result: PtyExecUpdate = await self._answer("pty_write_stdin", (), kwargs)
        return result

    async def read(self, path: Path, *, user: str | User | None = None) -> io.IOBase:
        result: io.IOBase = await self._answer("read", (path,), {"user": user})
        return result

    async def write(self, path: Path, data: io.IOBase, *, user: str | User | None = None) -> None:
        await self._answer("write", (path, data), {"user": user})

    async def ls(self, path: Path | str, *, user: str | User | None = None) -> list[FileEntry]:
        result: list[FileEntry] = await self._answer("ls", (path,), {"user": user})
        return result

    async def rm(
        self, path: Path | str, *, recursive: bool = False, user: str | User | None = None
    ) -> None:
        await self._answer("rm", (path,), {"recursive": recursive, "user": user})

    async def mkdir(
        self, path: Path | str, *, parents: bool = False, user: str | User | None = None
    ) -> None:
        await self._answer("mkdir", (path,), {"parents": parents, "user": user})

    async def mv(
        self, source: Path | str, destination: Path | str, *, user: str | User | None = None
    ) -> None:
        await self._answer("mv", (source, destination), {"user": user})

    async def same_file(
        self,
        left: Path | str,
        right: Path | str,
        *,
        follow_symlinks: bool = True,
        user: str | User | None = None,
    ) -> bool:
        kwargs = {"follow_symlinks": follow_symlinks, "user": user}
        result: bool = await self._answer("same_file", (left, right), kwargs)
        return result

    async def apply_patch(self, operations: Any, *, patch_format: Any = "v4a") -> str:
        result: str = await self._answer(
            "apply_patch", (operations,), {"patch_format": patch_format}
        )
        return result

    # --- lifecycle: nothing to start, persist or tear down ----------------------------

    async def start(self) -> None:
        self._running = True

    async def stop(self) -> None:
        await self._before_stop()

    async def shutdown(self) -> None:
        self._running = False

    async def running(self) -> bool:
        return self._running

    async def persist_workspace(self) -> io.IOBase:
        # There is no workspace to archive; an empty stream keeps snapshot code paths safe.
        return io.BytesIO()

    async def hydrate_workspace(self, data: io.IOBase) -> None:
        return None

    async def _apply_entry_batch(self, entries: Any, *, base_dir: Path) -> list[MaterializedFile]:
        # Manifest entries describe the workspace to the model; nothing is materialized.
        return []


def scripted_sandbox_session(
    steps: Iterable[SandboxStepSpec] = (),
    *,
    manifest: Manifest | None = None,
) -> ScriptedSandboxSession:
    """A :class:`ScriptedSandboxSession` running ``steps``; a malformed step raises
    ``InvalidSandboxStep``.

    ``manifest`` (default ``Manifest()``) describes the workspace to the model; its entries
    are never materialized.
    """
    return ScriptedSandboxSession(steps, manifest=manifest)
