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
    safe_repr,
)

if TYPE_CHECKING:
    from ._call import SandboxCall
    from ._steps import SandboxStepSpec

__all__ = [
    "InvalidSandboxArgument",
    "InvalidSandboxStep",
    "InvalidSandboxStepReason",
    "SandboxCallMatcherError",
    "SandboxMethodUnavailable",
    "SandboxScriptError",
    "UnconsumedSandboxSteps",
    "UnexpectedSandboxCall",
]

InvalidSandboxStepReason = Literal[
    "invalid_input",
    "unknown_method",
    "invalid_matcher",
    "invalid_outcome",
    "invalid_group",
]


class SandboxScriptError(AgentsTestingError):
    """Base of every error raised by the sandbox boundary's doubles."""


class InvalidSandboxStep(SandboxScriptError, InvalidStepError):
    """A sandbox step was malformed and rejected when the script was built.

    ``reason`` is one of :data:`InvalidSandboxStepReason`; ``input_index`` is the 0-based
    position of the step in the sequence given to ``scripted_sandbox_session()``;
    ``method`` is the step's method name when it has a string one, else ``None``. What
    only shows when a call uses the step is reported the same way, at the call: a
    responder's value of the wrong type (``invalid_outcome``), a matcher that returns an
    awaitable (``invalid_matcher``), and a matcher or responder that cannot be called with
    the ``SandboxCall`` (its ``TypeError`` is the ``__cause__``).
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
        named = f" ({safe_repr(method)})" if method is not None else ""
        super().__init__(
            f"Sandbox step #{ordinal(input_index)}{named} is invalid ({reason}): {detail}"
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.reason, self.input_index, self.method, self.detail))


class UnexpectedSandboxCall(SandboxScriptError, UnexpectedCallError):
    """The workflow called a session method that the next step does not script.

    ``expected_method`` is the method of the pending step, or ``None`` when the script
    had already run out; ``actual_method`` is what the workflow called; ``call`` is the
    recorded call and ``call_index`` its 0-based position in ``sandbox.calls``;
    ``remaining_steps`` is how many steps are still pending and ``pending_steps`` holds
    them (fresh step dicts), in script order. When the next position is an
    ``any_order()`` group, ``group_methods`` lists the methods of its pending members (in
    the order given; ``expected_method`` is the first of them), else it is empty.
    Nothing is consumed.
    """

    remaining_steps: int
    pending_steps: tuple[SandboxStepSpec, ...]

    def __init__(
        self,
        call: SandboxCall,
        call_index: int,
        expected_method: str | None,
        pending_steps: tuple[SandboxStepSpec, ...],
        group_methods: tuple[str, ...] = (),
    ) -> None:
        self.call = call
        self.call_index = call_index
        self.actual_method = call.method
        self.expected_method = expected_method
        self.group_methods = group_methods
        self.pending_steps = pending_steps
        self.remaining_steps = len(pending_steps)
        # Call arguments may hold secrets: the message names the method and number only;
        # the arguments are on ``call``.
        number = ordinal(call_index)
        if group_methods:
            text = (
                f"Unexpected sandbox {call.method} call #{number}; the next position is an "
                f"any_order() group whose pending members expect "
                f"{', '.join(group_methods)}. {self.remaining_steps} step(s) pending: "
                "reorder the steps to match the workflow, or fix the workflow."
            )
        elif expected_method is None:
            text = (
                f"Unexpected sandbox {call.method} call #{number}; no sandbox steps remain. "
                "Add a step for this call, or find out why the workflow made it."
            )
        else:
            text = (
                f"Unexpected sandbox {call.method} call #{number}; expected {expected_method}. "
                f"{self.remaining_steps} step(s) pending: reorder the steps to match the "
                "workflow, or fix the workflow."
            )
        super().__init__(text)

    def __reduce__(self) -> tuple[object, ...]:
        return (
            type(self),
            (
                self.call,
                self.call_index,
                self.expected_method,
                self.pending_steps,
                self.group_methods,
            ),
        )


class SandboxCallMatcherError(SandboxScriptError, UnexpectedCallError):
    """The pending step's ``match`` returned ``False`` for a call.

    The step stays pending. In an ``any_order()`` group, every pending member scripting
    the called method rejected it, and ``group_members`` says how many did (0 outside a
    group). ``call`` is the recorded call, ``call_index`` its 0-based
    position in ``sandbox.calls`` and ``method`` the scripted method. (A matcher that
    raises propagates its own exception instead, and also leaves the step pending.)
    """

    def __init__(
        self, call: SandboxCall, call_index: int, method: str, group_members: int = 0
    ) -> None:
        self.call = call
        self.call_index = call_index
        self.method = method
        self.group_members = group_members
        if group_members:
            what = (
                f"Sandbox matchers of the any_order() group rejected {method} call "
                f"#{ordinal(call_index)} ({group_members} pending {method} member(s))."
            )
        else:
            what = f"Sandbox matcher rejected {method} call #{ordinal(call_index)}."
        super().__init__(
            f"{what} Fix the matcher or the step order, or inspect the error's call to see "
            "what the workflow sent."
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.call, self.call_index, self.method, self.group_members))


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


class InvalidSandboxArgument(SandboxScriptError, TypeError):
    """An argument of the wrong type or state, given to the scripted session or one of its
    methods; nothing was recorded or consumed.

    ``argument`` names the argument, ``expected`` says what it must be and ``got`` what it
    was; ``method`` is the session method that received it, or ``None`` for an argument of
    ``scripted_sandbox_session()`` itself. It is also a ``TypeError``.
    """

    def __init__(self, argument: str, expected: str, got: str, method: str | None = None) -> None:
        self.argument = argument
        self.expected = expected
        self.got = got
        self.method = method
        if method is None:
            where = f"scripted_sandbox_session() argument {argument!r}"
        else:
            where = f"Sandbox {method} call argument {argument!r}"
        super().__init__(f"{where} must be {expected}, got {got}.")

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.argument, self.expected, self.got, self.method))


class SandboxMethodUnavailable(SandboxScriptError, AttributeError):
    """The session does not offer ``method``: no step scripts it, or the script cannot serve it.

    Only scripted methods exist on a scripted session (the two PTY methods together, and
    SDK operations built on a scripted method, such as ``read_bounded`` on ``read``), so
    ``hasattr(sandbox, "read")`` is false without a ``read`` step; this error is what the
    attribute lookup raises. It is also an ``AttributeError``. ``needed_method`` is the
    step method that would offer it, or ``None`` when no step can.
    """

    def __init__(self, method: str, needed_method: str | None) -> None:
        self.method = method
        self.needed_method = needed_method
        if needed_method is not None:
            hint = (
                f"no step scripts {needed_method}, so the session does not offer it; add a "
                f"{{'method': {needed_method!r}, ...}} step"
            )
        else:
            hint = "a scripted session cannot serve it; use a custom sandbox session"
        super().__init__(f"'ScriptedSandboxSession' object has no attribute {method!r}: {hint}.")
        self.name = method

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.method, self.needed_method))
