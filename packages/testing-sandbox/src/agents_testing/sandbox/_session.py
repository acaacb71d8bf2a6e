"""``ScriptedSandboxSession``: a real SDK sandbox session answered by a step script.

It subclasses the SDK's ``BaseSandboxSession``, so the real ``SandboxAgent`` runtime,
capabilities and tools drive it exactly as they drive a Docker or remote session. Every
scriptable method records a detached :class:`SandboxCall` and consumes the next step of
one global FIFO; there is no container, process, filesystem or provider behind it.
"""

from __future__ import annotations

import inspect
import io
import types
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from agents.sandbox.files import FileEntry
from agents.sandbox.manifest import Manifest
from agents.sandbox.materialization import MaterializedFile
from agents.sandbox.session.base_sandbox_session import BaseSandboxSession
from agents.sandbox.session.pty_types import PtyExecUpdate
from agents.sandbox.session.sandbox_session_state import SandboxSessionState
from agents.sandbox.snapshot import NoopSnapshot
from agents.sandbox.types import ExecResult, User

from agents_testing.core import (
    AnyOrder,
    ScriptedDouble,
    close_awaitable,
    detach,
)

from ._call import SandboxCall
from ._errors import (
    InvalidSandboxArgument,
    InvalidSandboxStepReason,
    SandboxScriptError,
    argument_error,
    invalid_step,
    matcher_rejected,
    unconsumed,
    unexpected_call,
)
from ._offered import Offered, needs, never, scripted
from ._script.build import build_steps
from ._snapshots.recording import copy_call, record_call
from ._snapshots.results import result_problem
from ._snapshots.values import thaw
from ._steps import PTY_METHODS, SandboxStepSpec, Step

__all__ = ["ScriptedSandboxSession", "scripted_sandbox_session"]

_STATE_TYPE = "scripted"
#: The id of the session's no-op snapshot: there is nothing to persist or restore.
_SNAPSHOT_ID = "scripted"


class ScriptedSandboxSession(
    ScriptedDouble[Step, SandboxCall, SandboxStepSpec], BaseSandboxSession
):
    """A sandbox session whose method results come from scripted steps, in one FIFO order.

    Pass it as ``RunConfig(sandbox={"session": sandbox})`` and manage it with
    ``async with sandbox:``. Inspect ``calls``, ``remaining_steps`` and ``pending_steps``;
    finish a test with ``assert_complete()``. Only the methods the steps script exist on
    it (``hasattr(sandbox, "read")`` is false without a ``read`` step).

    It behaves as the SDK's built-in scripted session. ``extra_checks=True`` adds
    stricter checks: results are type-checked (static ones when the script is built,
    a responder's at the call), a matcher or responder that cannot take the
    ``SandboxCall`` is reported as a malformed step, a value that cannot be copied is an
    ``InvalidSandboxArgument``, and ``assert_complete()`` re-raises the first script
    violation of the run even when the SDK turned it into tool output.
    """

    _offered: frozenset[str] = frozenset()
    _call_type = "SandboxCall"
    _errors = (SandboxScriptError,)

    def __init__(
        self,
        steps: Iterable[SandboxStepSpec | AnyOrder[SandboxStepSpec]] = (),
        *,
        manifest: Manifest | None = None,
        extra_checks: bool = False,
    ) -> None:
        if extra_checks and manifest is not None and not isinstance(manifest, Manifest):
            raise argument_error(
                "manifest", "an agents.sandbox.Manifest or None", type(manifest).__name__
            )
        self._extra_checks = extra_checks
        self._start_script(
            build_steps(steps, extra_checks=extra_checks),
            remembers=extra_checks,
            checks_calls=extra_checks,
        )
        offered = {step.target for step in self._script}
        # Scripting either PTY method offers the interactive shell (exec_command on a PTY
        # plus write_stdin); the SDK asks the session through supports_pty().
        self._pty = not offered.isdisjoint(PTY_METHODS)
        if self._pty:
            offered |= PTY_METHODS
        self._offered = frozenset(offered)
        # Bound once: an instance attribute shadows the class descriptor, so calls to an
        # offered method cost no more than calls to a plain one.
        for name, method in _OPTIONAL_METHODS.items():
            if method.offered_by(self._offered):
                self.__dict__[name] = types.MethodType(method.__get__(None), self)
        self._calls: list[SandboxCall] = []
        self._shared: list[bool] = []
        self._running = False
        self.state = SandboxSessionState(
            type=_STATE_TYPE,
            snapshot=NoopSnapshot(id=_SNAPSHOT_ID),
            # A copy: the runtime may change the session's manifest, the test's stays as it is.
            manifest=(
                detach(manifest, name="manifest", wrap_errors=extra_checks)
                if manifest is not None
                else Manifest()
            ),
        )

    def __dir__(self) -> Iterable[str]:
        hidden = {name for name in _OPTIONAL_METHODS if not hasattr(self, name)}
        return [name for name in super().__dir__() if name not in hidden]

    # --- inspection -----------------------------------------------------------------

    @property
    def extra_checks(self) -> bool:
        """Whether this session runs the stricter checks beyond the SDK's built-in ones."""
        return self._extra_checks

    @property
    def calls(self) -> tuple[SandboxCall, ...]:
        """Every call the workflow made on a scriptable method, detached, in call order."""
        return tuple(
            copy_call(call, shared) for call, shared in zip(self._calls, self._shared, strict=True)
        )

    # --- the step script ------------------------------------------------------------

    def _spec(self, step: Step) -> SandboxStepSpec:
        return step.spec()  # type: ignore[no-any-return]

    def _unconsumed(self, pending: tuple[Step, ...]) -> BaseException:
        return unconsumed(tuple(step.spec() for step in pending))

    def _unexpected(
        self, call: SandboxCall, candidates: tuple[Step, ...], grouped: bool
    ) -> BaseException:
        expected = candidates[0].target if candidates else None
        methods = tuple(step.target for step in candidates) if grouped else ()
        return unexpected_call(self._handed(call), expected, self.pending_steps, methods)

    def _rejected(self, call: SandboxCall, same: tuple[Step, ...], grouped: bool) -> BaseException:
        return matcher_rejected(self._handed(call), len(same) if grouped else 0)

    def _malformed(
        self, step: Step, role: Literal["match", "responder"], detail: str
    ) -> BaseException:
        reason: InvalidSandboxStepReason = (
            "invalid_matcher" if role == "match" else "invalid_outcome"
        )
        return invalid_step(reason, step.input_index, step.target, detail)

    def _handed(self, call: SandboxCall) -> SandboxCall:
        # A call of plain values is shared; any other is copied for whoever gets it.
        return copy_call(call, self._shared[call.call_index])

    async def _answer(self, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        index = len(self._calls)
        if self._extra_checks:
            try:
                call, shared = record_call(index, method, args, kwargs, wrap_errors=True)
            except InvalidSandboxArgument as refused:
                # Refused before anything is recorded or consumed.
                self._fail(refused)
        else:
            call, shared = record_call(index, method, args, kwargs, wrap_errors=False)
        self._calls.append(call)
        self._shared.append(shared)
        step = self._take(call, method)
        # Consumed synchronously above, before any await: concurrent tool calls consume
        # steps in the order the runner starts them.
        kind = step.kind
        if kind == "result":
            # Nothing else holds a used step's snapshot, so only streams need a copy.
            return thaw(step.value) if step.streams else step.value
        if kind == "error":
            raise step.value
        value = await self._call_responder(step, call, step.value)
        if self._extra_checks:
            # Checked before the value reaches the caller; the step was consumed when the
            # call was taken, so concurrent calls keep the order in which they arrived.
            if inspect.isawaitable(value):
                close_awaitable(value)
                problem: str | None = (
                    f"a responder's awaitable must resolve to the {step.target} result, "
                    "not to another awaitable"
                )
            else:
                problem = result_problem(step.target, value, responded=True)
            if problem is not None:
                self._fail(invalid_step("invalid_outcome", step.input_index, step.target, problem))
        return value

    # --- scriptable session operations ----------------------------------------------

    @scripted
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

    @scripted
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

    @scripted
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

    @scripted
    async def read(self, path: Path, *, user: str | User | None = None) -> io.IOBase:
        result: io.IOBase = await self._answer("read", (path,), {"user": user})
        return result

    @scripted
    async def write(self, path: Path, data: io.IOBase, *, user: str | User | None = None) -> None:
        # Whatever the step scripts comes back, as the SDK's own scripted session does.
        result: None = await self._answer("write", (path, data), {"user": user})
        return result

    @scripted
    async def ls(self, path: Path | str, *, user: str | User | None = None) -> list[FileEntry]:
        result: list[FileEntry] = await self._answer("ls", (path,), {"user": user})
        return result

    @scripted
    async def rm(
        self, path: Path | str, *, recursive: bool = False, user: str | User | None = None
    ) -> None:
        result: None = await self._answer("rm", (path,), {"recursive": recursive, "user": user})
        return result

    @scripted
    async def mkdir(
        self, path: Path | str, *, parents: bool = False, user: str | User | None = None
    ) -> None:
        result: None = await self._answer("mkdir", (path,), {"parents": parents, "user": user})
        return result

    @scripted
    async def mv(
        self, source: Path | str, destination: Path | str, *, user: str | User | None = None
    ) -> None:
        result: None = await self._answer("mv", (source, destination), {"user": user})
        return result

    @scripted
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

    @scripted
    async def apply_patch(self, operations: Any, *, patch_format: Any = "v4a") -> str:
        result: str = await self._answer(
            "apply_patch", (operations,), {"patch_format": patch_format}
        )
        return result

    # --- lifecycle: nothing to start, persist or tear down ----------------------------

    async def start(self) -> None:
        # Nothing to provision: the workspace root is ready as soon as the session starts.
        self.state.workspace_root_ready = True
        self._running = True

    async def stop(self) -> None:
        return None

    async def shutdown(self) -> None:
        self._running = False

    async def running(self) -> bool:
        return self._running

    async def _before_stop(self) -> None:
        # Nothing runs behind a scripted PTY, so there is nothing to terminate.
        return None

    async def _before_shutdown(self) -> None:
        return None

    # --- operations the script cannot serve: never offered ----------------------------

    @never
    async def pty_terminate_all(self) -> None:
        return None

    @never
    async def persist_workspace(self) -> io.IOBase:
        return io.BytesIO()

    @never
    async def hydrate_workspace(self, data: io.IOBase) -> None:
        return None

    @never
    async def extract(self, path: Path | str, data: io.IOBase, **options: Any) -> None:
        # The SDK writes the archive through a temporary file, a live stream a script
        # cannot capture.
        return None

    # --- SDK operations built on a scripted method -----------------------------------

    if hasattr(BaseSandboxSession, "read_bounded"):

        @needs("read")
        async def read_bounded(self, path: Path, *, max_bytes: int) -> bytes:
            return await BaseSandboxSession.read_bounded(self, path, max_bytes=max_bytes)

    async def _apply_entry_batch(self, entries: Any, *, base_dir: Path) -> list[MaterializedFile]:
        # Manifest entries describe the workspace to the model; nothing is materialized.
        return []


# The methods a session may or may not offer.
_OPTIONAL_METHODS: dict[str, Offered] = {
    name: value
    for name, value in vars(ScriptedSandboxSession).items()
    if isinstance(value, Offered)
}


def scripted_sandbox_session(
    steps: Iterable[SandboxStepSpec | AnyOrder[SandboxStepSpec]] = (),
    *,
    manifest: Manifest | None = None,
    extra_checks: bool = False,
) -> ScriptedSandboxSession:
    """A :class:`ScriptedSandboxSession` running ``steps``; a malformed step raises
    ``InvalidSandboxStep``.

    ``manifest`` (default ``Manifest()``) describes the workspace to the model; its entries
    are never materialized. ``extra_checks=True`` turns on the session's stricter checks.
    """
    return ScriptedSandboxSession(steps, manifest=manifest, extra_checks=extra_checks)


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
