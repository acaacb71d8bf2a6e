"""Errors raised by :class:`~agents_testing.sandbox.ScriptedSandboxSession`.

Every error inherits :class:`SandboxScriptError` and one of the core kind bases, so a
test can catch "any sandbox script problem" or "any leftover step of any double".
Index fields are 0-based; messages count calls and steps from 1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from agents_testing.core import (
    AgentsTestingError,
    InvalidStepError,
    UnconsumedStepsError,
    UnexpectedCallError,
    ordinal,
)

if TYPE_CHECKING:
    from ._call import SandboxCall
    from ._steps import SandboxStepSpec

__all__ = [
    "InvalidSandboxStep",
    "InvalidSandboxStepReason",
    "SandboxCallMatcherError",
    "SandboxScriptError",
    "UnconsumedSandboxSteps",
    "UnexpectedSandboxCall",
]

InvalidSandboxStepReason = Literal[
    "invalid_input",
    "unknown_method",
    "invalid_matcher",
    "invalid_outcome",
]


class SandboxScriptError(AgentsTestingError):
    """Base of every error raised by the sandbox boundary's doubles."""


class InvalidSandboxStep(SandboxScriptError, InvalidStepError):
    """A sandbox step was malformed and rejected when the script was built.

    ``reason`` is one of :data:`InvalidSandboxStepReason`; ``input_index`` is the 0-based
    position of the step in the sequence given to ``scripted_sandbox_session()``;
    ``method`` is the step's method name when it has a string one, else ``None``. A
    responder that returns a value of the wrong type is reported the same way
    (``invalid_outcome``) when the call uses it.
    """

    reason: InvalidSandboxStepReason
    input_index: int

    def __init__(
        self,
        reason: InvalidSandboxStepReason,
        input_index: int,
        method: str | None,
        detail: str,
    ) -> None:
        self.reason = reason
        self.input_index = input_index
        self.method = method
        self.detail = detail
        named = f" ({method!r})" if method is not None else ""
        super().__init__(
            f"Sandbox step {ordinal(input_index)}{named} is invalid ({reason}): {detail}"
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.reason, self.input_index, self.method, self.detail))


class UnexpectedSandboxCall(SandboxScriptError, UnexpectedCallError):
    """The workflow called a session method that the next step does not script.

    ``expected_method`` is the method of the pending step, or ``None`` when the script
    had already run out; ``actual_method`` is what the workflow called; ``call`` is the
    recorded call and ``call_index`` its 0-based position in ``sandbox.calls``;
    ``remaining_steps`` is how many steps are still pending and ``pending_steps`` holds
    them (fresh step dicts), in script order. Nothing is consumed.
    """

    remaining_steps: int
    pending_steps: tuple[SandboxStepSpec, ...]

    def __init__(
        self,
        call: SandboxCall,
        call_index: int,
        expected_method: str | None,
        pending_steps: tuple[SandboxStepSpec, ...],
    ) -> None:
        self.call = call
        self.call_index = call_index
        self.actual_method = call.method
        self.expected_method = expected_method
        self.pending_steps = pending_steps
        self.remaining_steps = len(pending_steps)
        if expected_method is None:
            problem = "but the script has no steps left"
            hint = "Add a step for this call, or find out why the workflow made it."
        else:
            problem = (
                f"but the next step scripts {expected_method!r} "
                f"({self.remaining_steps} step(s) pending)"
            )
            hint = "Reorder the steps to match the workflow, or fix the workflow."
        super().__init__(
            f"Sandbox call {ordinal(call_index)} was {call.method}{call.args!r} {problem}. {hint}"
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (
            type(self),
            (self.call, self.call_index, self.expected_method, self.pending_steps),
        )


class SandboxCallMatcherError(SandboxScriptError, UnexpectedCallError):
    """The pending step's ``match`` returned ``False`` for a call, or raised.

    The step stays pending. ``call`` is the recorded call, ``call_index`` its 0-based
    position in ``sandbox.calls`` and ``method`` the scripted method. When the matcher
    raised, its exception is this error's ``__cause__``.
    """

    def __init__(self, call: SandboxCall, call_index: int, method: str) -> None:
        self.call = call
        self.call_index = call_index
        self.method = method
        super().__init__(
            f"Sandbox call {ordinal(call_index)} ({method}{call.args!r}, "
            f"kwargs={dict(call.kwargs)!r}) was rejected by the pending step's matcher. "
            "Fix the matcher or the step order, or check what the workflow sent."
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.call, self.call_index, self.method))


class UnconsumedSandboxSteps(SandboxScriptError, UnconsumedStepsError):
    """``assert_complete()`` found sandbox steps that the workflow never used.

    ``remaining_steps`` is how many are left, ``pending_steps`` holds them (fresh step
    dicts) in script order and ``pending_methods`` their method names.
    """

    remaining_steps: int
    pending_steps: tuple[SandboxStepSpec, ...]

    def __init__(self, pending_steps: tuple[SandboxStepSpec, ...]) -> None:
        self._set_pending_steps(pending_steps)
        self.pending_methods: tuple[str, ...] = tuple(step["method"] for step in pending_steps)
        super().__init__(
            f"{self.remaining_steps} sandbox step(s) were never used: "
            f"{', '.join(self.pending_methods)}. The workflow ended before reaching them; "
            "remove them or find out why the workflow stopped early."
        )
