"""Errors raised by :class:`~agents_testing.sandbox.ScriptedSandboxSession`.

Every error inherits :class:`SandboxScriptError` and one of the core kind bases, so a
test can catch "any sandbox script problem" or "any leftover step of any double". Each
is built as ``Error(message, *, field=value, ...)``, as the SDK's own sandbox errors
are; the functions below write the messages the session raises. Index fields are
0-based; messages count calls and steps from 1. Call arguments may hold secrets (paths,
commands, file contents), so no message ever shows one: messages name methods, argument
positions and call numbers, and the values are on the error's ``call``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from agents_testing.core import InvalidStepError, UnconsumedStepsError, UnexpectedCallError
from agents_testing.core.errors import BoundaryError, as_sentence, error_fields, ordinal

if TYPE_CHECKING:
    from ._call import SandboxCall
    from ._steps import SandboxStepSpec

__all__ = [
    "InvalidSandboxArgument",
    "InvalidSandboxStep",
    "InvalidSandboxStepReason",
    "SandboxCallMatcherError",
    "SandboxMethodUnavailable",
    "SUPPORTED_STREAMS",
    "SandboxScriptError",
    "UnconsumedSandboxSteps",
    "UnexpectedSandboxCall",
    "argument_error",
    "invalid_step",
    "matcher_rejected",
    "method_unavailable",
    "unconsumed",
    "unexpected_call",
    "unrecordable_argument",
]

InvalidSandboxStepReason = Literal[
    "invalid_input",
    "unknown_method",
    "invalid_matcher",
    "invalid_outcome",
    "invalid_group",
]


class SandboxScriptError(BoundaryError):
    """Base of every error raised by the sandbox boundary's doubles."""


@error_fields
class InvalidSandboxStep(SandboxScriptError, InvalidStepError):
    """A sandbox step was malformed and rejected when the script was built.

    ``reason`` is one of :data:`InvalidSandboxStepReason`; ``input_index`` is the 0-based
    position of the step in the sequence given to ``scripted_sandbox_session()``;
    ``method`` is the step's method name when it has a string one, else ``None``;
    ``detail`` says what is wrong. With ``extra_checks=True`` what only shows when a call
    uses the step is reported the same way, at the call: a responder's value of the wrong
    type (``invalid_outcome``), a matcher that returns an awaitable (``invalid_matcher``),
    and a matcher or responder that cannot be called with the ``SandboxCall`` (its
    ``TypeError`` is the ``__cause__``).
    """

    reason: InvalidSandboxStepReason
    method: str | None = None


@error_fields
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

    call: SandboxCall
    call_index: int
    expected_method: str | None
    remaining_steps: int
    pending_steps: tuple[SandboxStepSpec, ...] = ()
    group_methods: tuple[str, ...] = ()

    def __post_init__(self, message: str) -> None:
        super().__post_init__(message)
        self.actual_method: str = self.call.method


@error_fields
class SandboxCallMatcherError(SandboxScriptError, UnexpectedCallError):
    """The pending step's ``match`` returned ``False`` for a call.

    The step stays pending. In an ``any_order()`` group, every pending member scripting
    the called method rejected it, and ``group_members`` says how many did (0 outside a
    group). ``call`` is the recorded call, ``call_index`` its 0-based
    position in ``sandbox.calls`` and ``method`` the scripted method. (A matcher that
    raises propagates its own exception instead, and also leaves the step pending.)
    """

    call: SandboxCall
    call_index: int
    method: str
    group_members: int = 0


@error_fields
class UnconsumedSandboxSteps(SandboxScriptError, UnconsumedStepsError):
    """``assert_complete()`` found sandbox steps that the workflow never used.

    ``remaining_steps`` is how many are left, ``pending_methods`` their method names and
    ``pending_steps`` the steps themselves (fresh step dicts), in script order.
    """

    remaining_steps: int
    pending_methods: tuple[str, ...]
    pending_steps: tuple[SandboxStepSpec, ...] = ()


@error_fields
class InvalidSandboxArgument(SandboxScriptError, TypeError):
    """An argument the scripted session or one of its methods cannot take; nothing was
    recorded or consumed.

    ``argument`` names the argument (``"args[1]"``, ``"data"``, ``"manifest"``);
    ``method`` is the session method that received it, or ``None`` for an argument of
    ``scripted_sandbox_session()`` itself, and ``call_index`` the 0-based number of that
    call; ``expected`` says what it must be and ``got`` what it was (a type, never the
    value). It is also a ``TypeError``.
    """

    argument: str
    method: str | None = None
    call_index: int | None = None
    expected: str
    got: str


@error_fields
class SandboxMethodUnavailable(SandboxScriptError, AttributeError):
    """The session does not offer ``method``: no step scripts it, or the script cannot serve it.

    Only scripted methods exist on a scripted session (the two PTY methods together, and
    SDK operations built on a scripted method, such as ``read_bounded`` on ``read``), so
    ``hasattr(sandbox, "read")`` is false without a ``read`` step; this error is what the
    attribute lookup raises. It is also an ``AttributeError``. ``needed_method`` is the
    step method that would offer it, or ``None`` when no step can.
    """

    method: str
    needed_method: str | None

    def __post_init__(self, message: str) -> None:
        super().__post_init__(message)
        self.name = self.method


# --- the messages the session raises ----------------------------------------------------


# What the SDK's own double says of each kind of malformed step, after "Scripted sandbox
# step #N": a user matching that sentence finds it here too, our explanation after it.
_LEADS: dict[str, str] = {
    "mapping": "must be a mapping.",
    "method": "has an unknown method.",
    "fields": "contains unsupported fields.",
    "outcome": "for {method} must define exactly one outcome.",
    "matcher": "for {method} must use a callable matcher.",
    "responder": "for {method} must use a callable responder.",
    "error": "for {method} must use an Exception.",
    "result": "for {method} contains a result that cannot be snapshotted.",
}


def invalid_step(
    reason: InvalidSandboxStepReason,
    input_index: int,
    method: str | None,
    detail: str,
    *,
    lead: str | None = None,
) -> InvalidSandboxStep:
    """A malformed step, numbered from 1 in the message.

    ``lead`` picks the SDK double's sentence for the problem (a key of ``_LEADS``); the
    ``detail`` follows it. Without one the message says the step is invalid.
    """
    if lead is not None:
        text = f"{_LEADS[lead].format(method=method)} {as_sentence(detail)}"
    elif method is not None:
        text = f"for {method} is invalid: {_ended(detail)}"
    else:
        text = f"is invalid: {_ended(detail)}"
    return InvalidSandboxStep(
        f"Scripted sandbox step #{ordinal(input_index)} {text}",
        reason=reason,
        input_index=input_index,
        method=method,
        detail=detail,
    )


def unexpected_call(
    call: SandboxCall,
    expected_method: str | None,
    pending_steps: tuple[SandboxStepSpec, ...],
    group_methods: tuple[str, ...] = (),
) -> UnexpectedSandboxCall:
    """A call that the next position of the script does not answer."""
    number = ordinal(call.call_index)
    remaining = len(pending_steps)
    if group_methods:
        text = (
            f"Unexpected sandbox {call.method} call #{number}; the next position is an "
            f"any_order() group whose pending members expect "
            f"{', '.join(group_methods)}. {remaining} step(s) pending: "
            "reorder the steps to match the workflow, or fix the workflow."
        )
    elif expected_method is None:
        text = (
            f"Unexpected sandbox {call.method} call #{number}: no scripted steps remain. "
            "Add a step for this call, or find out why the workflow made it."
        )
    else:
        text = (
            f"Unexpected sandbox {call.method} call #{number}; expected {expected_method}. "
            f"{remaining} step(s) pending: reorder the steps to match the "
            "workflow, or fix the workflow."
        )
    return UnexpectedSandboxCall(
        text,
        call=call,
        call_index=call.call_index,
        expected_method=expected_method,
        remaining_steps=remaining,
        pending_steps=pending_steps,
        group_methods=group_methods,
    )


def matcher_rejected(call: SandboxCall, group_members: int = 0) -> SandboxCallMatcherError:
    """A call the pending step's matcher (or every pending group member's) refused."""
    method, number = call.method, ordinal(call.call_index)
    if group_members:
        what = (
            f"Sandbox matchers of the any_order() group rejected {method} call "
            f"#{number} ({group_members} pending {method} member(s))."
        )
    else:
        what = f"Sandbox matcher rejected {method} call #{number}."
    return SandboxCallMatcherError(
        f"{what} Fix the matcher or the step order, or inspect the error's call to see "
        "what the workflow sent.",
        call=call,
        call_index=call.call_index,
        method=method,
        group_members=group_members,
    )


def unconsumed(pending_steps: tuple[SandboxStepSpec, ...]) -> UnconsumedSandboxSteps:
    """The steps left when ``assert_complete()`` was called."""
    methods = tuple(step["method"] for step in pending_steps)
    return UnconsumedSandboxSteps(
        f"Scripted sandbox session has {len(methods)} unconsumed step(s). Pending: "
        f"{', '.join(methods)}. The workflow ended before reaching them; remove them or "
        "find out why the workflow stopped early.",
        remaining_steps=len(methods),
        pending_methods=methods,
        pending_steps=pending_steps,
    )


def _where(method: str | None, call_index: int | None, argument: str) -> str:
    if method is None:
        return f"scripted_sandbox_session() argument {argument!r}"
    number = "" if call_index is None else f" #{ordinal(call_index)}"
    return f"sandbox {method} call{number} argument {argument!r}"


def argument_error(
    argument: str,
    expected: str,
    got: str,
    method: str | None = None,
    call_index: int | None = None,
    *,
    advice: str = "",
) -> InvalidSandboxArgument:
    """An argument of the wrong kind; ``got`` names its type, never its value."""
    where = _where(method, call_index, argument)
    text = f"{where[0].upper()}{where[1:]} must be {expected}, got {got}."
    if method is not None:
        text += " Nothing was recorded or consumed."
    return InvalidSandboxArgument(
        f"{text}{advice}",
        argument=argument,
        expected=expected,
        got=got,
        method=method,
        call_index=call_index,
    )


#: What a stream argument or static result must be, for messages and ``expected``.
SUPPORTED_STREAMS = "an open io.BytesIO or io.StringIO"


# What the recorded history cannot take of an argument: the message after the argument's
# place, what the argument must be, and what it was. ``{kind}`` is its type's name.
_UNRECORDABLE: dict[str, tuple[str, str, str]] = {
    "unsupported_stream": (
        "Sandbox stream snapshots support only io.BytesIO and io.StringIO. The {where} is "
        "a {kind}, a live stream that cannot be replayed. Read its content into an "
        "io.BytesIO first.",
        SUPPORTED_STREAMS,
        "a {kind}",
    ),
    "closed_stream": (
        "Cannot snapshot a closed sandbox {stream} stream. The {where} is a closed {kind}. "
        "Pass it before closing it.",
        SUPPORTED_STREAMS,
        "a closed {kind}",
    ),
    "uncopyable": (
        "{Where} (a {kind}) cannot be copied for the recorded history: its copy raised "
        "{failure} (the cause). Pass a value that copy.deepcopy can copy.",
        "a value that can be copied",
        "a {kind}",
    ),
    # Only the argument's position is named, never where inside it the cycle is: the keys
    # of an argument are data too.
    "cyclic": (
        "{Where} (a {kind}) contains itself (a reference cycle) and cannot be copied for "
        "the recorded history. Pass a value without a cycle.",
        "a value without a reference cycle",
        "a {kind} that contains itself",
    ),
}


def unrecordable_argument(
    problem: str, kind: str, method: str, call_index: int, argument: str, **details: str
) -> InvalidSandboxArgument:
    """An argument the recorded history cannot take: ``problem`` is a stream of a kind that
    cannot be snapshotted (``"unsupported_stream"``), a closed one (``"closed_stream"``,
    ``stream="text"`` or ``"byte"``), a value whose copy raised (``"uncopyable"``,
    ``failure=`` its class name) or one that contains itself (``"cyclic"``)."""
    where = _where(method, call_index, argument)
    text, expected, got = _UNRECORDABLE[problem]
    values = {"where": where, "Where": where[0].upper() + where[1:], "kind": kind, **details}
    return InvalidSandboxArgument(
        f"{text.format(**values)} Nothing was recorded or consumed.",
        argument=argument,
        expected=expected,
        got=got.format(**values),
        method=method,
        call_index=call_index,
    )


def method_unavailable(method: str, needed_method: str | None) -> SandboxMethodUnavailable:
    """The attribute error of a method the session does not offer."""
    if needed_method is not None:
        hint = (
            f"no step scripts {needed_method}, so the session does not offer it; add a "
            f"{{'method': {needed_method!r}, ...}} step"
        )
    else:
        hint = "a scripted session cannot serve it; use a custom sandbox session"
    return SandboxMethodUnavailable(
        f"'ScriptedSandboxSession' object has no attribute {method!r}: {hint}.",
        method=method,
        needed_method=needed_method,
    )


def _ended(detail: str) -> str:
    return detail if detail.endswith((".", "?", "!")) else f"{detail}."


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
