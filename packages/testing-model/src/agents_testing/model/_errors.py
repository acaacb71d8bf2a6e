"""Errors raised by :class:`~agents_testing.model.ScriptedModel`.

Every error inherits :class:`ModelScriptError` and one of the core kind bases, so a
test can catch "any model script problem" or "any leftover step of any double".
Index fields are 0-based; messages count calls and steps from 1. Each error is built
as ``Error(message, *, field=...)`` (the SDK's built-in doubles take that form too);
the double builds its own with the functions at the end of this module.

Message shapes are stable so that tests can ``match=`` on them:

- ``InvalidModelStep``: ``"Scripted model step #N <the SDK double's sentence> <what is
  wrong>"`` (``"Scripted model step #N must use a sequence for output. ..."``), or
  ``"Scripted model step #N is invalid: <what is wrong>"`` where the SDK's double accepts
  the step;
- ``UnstreamableOutputItem``: ``"Automatic streaming does not support <Class>. Use
  ModelStep.stream(...) to provide exact normalized stream events. ..."``;
- ``UnexpectedModelCall``: ``"Unexpected non-streaming model call #N: no scripted steps
  remain. ..."`` (``streaming`` for a streamed call);
- ``ModelCallMatcherError``: ``"Model matcher of step #N rejected call #M. ..."`` (or
  ``"Model matchers rejected call #M: none of the K pending member(s) ..."`` for a group);
- ``UnconsumedModelSteps``: ``"N scripted model step(s) were not consumed. ..."``;
- ``InvalidModelArgument``: ``"Invalid argument <name>: expected <type>, got <value>."``;
- ``TrajectoryMismatch``: ``"Trajectory does not match (order=..., arguments=...): ..."``
  followed by the expected and the actual steps, one line each;
- ``InvalidScriptedToolCall``: ``"Scripted call #N calls <tool> ..."``;
- ``UnscriptedModelCall``: ``"No script for the model call of agent '<name>' (model ...)..."``;
- ``UnconsumedProviderSteps``: ``"Scripted model steps were not consumed in N of M script(s)..."``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from agents.exceptions import ModelBehaviorError

from agents_testing.core import InvalidStepError, UnconsumedStepsError, UnexpectedCallError
from agents_testing.core.errors import BoundaryError, as_sentence, error_fields, ordinal, safe_repr

if TYPE_CHECKING:
    from ._call import ModelCall
    from ._step import ModelStep
    from ._trajectory.steps import TrajectoryStep

__all__ = [
    "InvalidModelArgument",
    "InvalidModelStep",
    "InvalidModelStepReason",
    "InvalidScriptedToolCall",
    "InvalidToolCallReason",
    "ModelCallMatcherError",
    "ModelScriptError",
    "TrajectoryMismatch",
    "UnconsumedModelSteps",
    "UnconsumedProviderSteps",
    "UnexpectedModelCall",
    "UnscriptedModelCall",
    "UnstreamableOutputItem",
    "invalid_argument",
    "invalid_step",
    "invalid_tool_call",
    "matcher_rejected",
    "unconsumed_provider_steps",
    "unconsumed_steps",
    "unexpected_call",
    "unscripted_call",
    "unstreamable_item",
]

InvalidModelStepReason = Literal[
    "invalid_input",
    "unsupported_field",
    "invalid_error",
    "invalid_responder",
    "invalid_stream_events",
    "conflicting_outcomes",
    "invalid_retry_advice",
    "invalid_matcher",
    "invalid_group",
]

InvalidToolCallReason = Literal["unknown_tool", "invalid_json", "invalid_arguments"]

_ON_PURPOSE = "; to script a wrong call on purpose, pass check_tool_calls=False."


class ModelScriptError(BoundaryError):
    """Base of every error raised by the model boundary's doubles.

    Subclasses take the message first and their fields as keywords; they pickle and copy
    with both.
    """


@error_fields
class InvalidModelStep(ModelScriptError, InvalidStepError):
    """A model step was malformed; it was rejected before it was queued or used.

    ``reason`` is one of :data:`InvalidModelStepReason`; ``input_index`` is the 0-based
    position of the step in the sequence given to the constructor, ``extend()`` (or 0
    for ``enqueue()``). Responder results and stream factories are checked when the
    call uses them and report the index of the step that held the responder.
    ``detail`` is what is wrong, the message without the sentence that names the step.
    """

    reason: InvalidModelStepReason


@error_fields
class UnstreamableOutputItem(InvalidModelStep, ModelBehaviorError):
    """A streamed call reached an output item that has no automatic streaming lifecycle.

    Raised before any event, after the call was recorded and its step consumed. It is
    an ``agents.ModelBehaviorError`` (what the SDK's own double raises) and an
    :class:`InvalidModelStep` with reason ``"invalid_stream_events"``;
    ``output_index`` is the item's 0-based position in the response and ``item_type``
    its Python class name (``"dict"`` for a plain dict).
    """

    reason: InvalidModelStepReason = "invalid_stream_events"
    input_index: int = 0
    output_index: int = 0
    item_type: str = ""


@error_fields
class UnexpectedModelCall(ModelScriptError, UnexpectedCallError):
    """The workflow asked the model for a response after the script ran out.

    ``call`` is the recorded request and ``call_index`` its 0-based position in
    ``ScriptedModel.calls``.
    """

    call: ModelCall
    call_index: int


@error_fields
class ModelCallMatcherError(ModelScriptError, UnexpectedCallError):
    """The ``match`` of every step that could answer a call returned ``False``.

    Nothing is consumed. ``call`` is the recorded request and ``call_index`` its 0-based
    position in ``ScriptedModel.calls``; ``input_index`` is the 0-based index of the
    rejecting step (of the group, for an ``any_order`` group) in the sequence it was
    queued with; ``pending_steps`` holds copies of the steps that rejected the call (the
    pending members of the group, or the one step); ``in_group`` says whether the
    position was a group. A matcher that raises propagates its own exception instead,
    and also leaves the step pending.
    """

    call: ModelCall
    call_index: int
    input_index: int
    pending_steps: tuple[ModelStep, ...] = ()
    in_group: bool = False


@error_fields
class UnconsumedModelSteps(ModelScriptError, UnconsumedStepsError):
    """``assert_complete()`` found scripted steps the workflow never used.

    ``remaining_steps`` is how many are left (the same number as
    ``ScriptedModel.remaining_steps``); ``pending_steps`` holds copies of them, in
    script order (changing them changes nothing queued); ``consumed`` is how many
    steps were used.
    """

    remaining_steps: int
    # Typed as every double's pending steps are (UnconsumedStepsError).
    pending_steps: tuple[object, ...] = ()
    consumed: int = 0


@error_fields
class InvalidModelArgument(ModelScriptError, TypeError):
    """A constructor or builder argument had the wrong type or value.

    ``argument`` names it (``"emit_traces"``, ``"function_call(item_id)"``, ...) and
    ``expected`` says what it must be. It is also a ``TypeError``, as Python raises for
    a wrong argument.
    """

    argument: str
    expected: str
    got: str


@error_fields
class TrajectoryMismatch(ModelScriptError, AssertionError):
    """A run's tool calls and handoffs did not match the expected trajectory.

    ``expected`` and ``actual`` are the two step tuples, ``order`` and ``arguments`` the
    modes compared with, ``reason`` the first difference in words. ``expected_index``
    and ``actual_index`` (0-based) point at the first diverging step on each side, None
    where that side has no step at fault. The message is a step-by-step diff.
    """

    expected: tuple[TrajectoryStep, ...]
    actual: tuple[TrajectoryStep, ...]
    order: str
    arguments: str
    reason: str
    expected_index: int | None = None
    actual_index: int | None = None


@error_fields
class InvalidScriptedToolCall(ModelScriptError):
    """A scripted ``function_call`` does not fit the tools its model call offered.

    Raised by a ``ScriptedModel`` made with ``check_tool_calls=True`` (the pytest
    fixture's default) at the call that would answer with it, so the run fails there
    instead of the SDK turning the tool's failure into a message for the model.
    ``reason`` is ``"unknown_tool"`` (no offered function tool or handoff has that
    name), ``"invalid_json"`` (the arguments are not JSON) or ``"invalid_arguments"``
    (they break the tool's parameter schema). ``call_index`` is the 0-based call,
    ``output_index`` the item's 0-based position in the response, ``tool_name`` the
    called name (``namespace.name`` when namespaced), ``known_tools`` the names the call
    offered, ``path`` the JSON path of the bad argument (``$.city``), ``rule`` the schema
    keyword it breaks (``required``, ``type``, ``enum``, ...) and ``value`` the offending
    value; the last three are None where they do not apply.
    """

    reason: InvalidToolCallReason
    call_index: int
    output_index: int
    tool_name: str
    known_tools: tuple[str, ...] = ()
    path: str | None = None
    rule: str | None = None
    value: Any = None
    detail: str = ""


@error_fields
class UnscriptedModelCall(ModelScriptError, UnexpectedCallError):
    """A :class:`ScriptedModelProvider` was asked for a response it has no script for.

    ``agent_name`` is the agent that made the call (None when no agent run was current)
    and ``model_name`` the model name the runner asked the provider for (None when the
    agent names no model); ``known_agents`` and ``known_models`` are the names that
    have a script, in the order they were given. Nothing was recorded for the call.
    """

    agent_name: str | None
    model_name: str | None
    known_agents: tuple[str, ...] = ()
    known_models: tuple[str, ...] = ()


@error_fields
class UnconsumedProviderSteps(ModelScriptError, UnconsumedStepsError):
    """``ScriptedModelProvider.assert_complete()`` found scripts with steps left.

    ``scripts`` maps each such script's label (``"agent 'Billing'"``, ``"model
    'gpt-4.1'"``, ``"default"``) to its own :class:`UnconsumedModelSteps`, in the order
    the scripts were given; ``pending_steps`` holds their pending steps one script after
    another and ``remaining_steps`` counts them.
    """

    scripts: dict[str, UnconsumedModelSteps]
    total_scripts: int = 0  # len(scripts) when not given

    def __post_init__(self, message: str) -> None:
        super().__post_init__(message)
        self.scripts = dict(self.scripts)
        self.total_scripts = self.total_scripts or len(self.scripts)
        self._set_pending_steps(
            tuple(step for error in self.scripts.values() for step in error.pending_steps)
        )
        self.remaining_steps = sum(error.remaining_steps for error in self.scripts.values())


# -- the errors as the doubles raise them -------------------------------------------------


# What the SDK's own double says of each kind of malformed step, after "Scripted model
# step #N": a test matching that sentence finds it here too, our explanation after it.
STEP_LEADS: dict[str, str] = {
    "output": "must use a sequence for output.",
    "usage": "must use Usage for usage.",
    "response_id": "must use a string or None for response_id.",
    "request_id": "must use a string or None for request_id.",
    "raw_usage": "must use a dictionary or None for raw_usage.",
    "fields": "contains unsupported fields.",
    "error": "must use an Exception for error.",
    "responder": "must use a callable responder.",
    "outcomes": "cannot combine error, responder, and stream_events outcomes.",
    "retry_advice": "requires an error and a ModelRetryAdvice value.",
}


def invalid_step(
    reason: InvalidModelStepReason, input_index: int, detail: str, *, lead: str | None = None
) -> InvalidModelStep:
    """``Scripted model step #N <the SDK double's sentence> <detail>``.

    ``lead`` picks the sentence (a key of :data:`STEP_LEADS`) where the SDK's own double
    refuses the same step; without one the message says the step is invalid.
    """
    number = ordinal(input_index)
    if lead is None:
        message = f"Scripted model step #{number} is invalid: {detail}"
    else:
        message = f"Scripted model step #{number} {STEP_LEADS[lead]} {as_sentence(detail)}"
    return InvalidModelStep(message, reason=reason, input_index=input_index, detail=detail)


def unstreamable_item(
    item_type: str, output_index: int, input_index: int, hint: str
) -> UnstreamableOutputItem:
    """The error of a streamed call whose output has an item without a streaming lifecycle."""
    detail = (
        f"Automatic streaming does not support {item_type}. Use ModelStep.stream(...) to "
        f"provide exact normalized stream events. Output item {ordinal(output_index)} of "
        f"step #{ordinal(input_index)} is one; only assistant messages, reasoning items, "
        f"function calls and apply-patch calls stream automatically.{hint}"
    )
    return UnstreamableOutputItem(
        detail,
        reason="invalid_stream_events",
        input_index=input_index,
        detail=detail,
        output_index=output_index,
        item_type=item_type,
    )


def unexpected_call(call: ModelCall, call_index: int) -> UnexpectedModelCall:
    """``Unexpected <mode> model call #N: no scripted steps remain. ...``."""
    mode = "streaming" if call.streamed else "non-streaming"
    return UnexpectedModelCall(
        f"Unexpected {mode} model call #{ordinal(call_index)}: no scripted steps remain. "
        f"Add a step for it (constructor, enqueue() or extend()) or find out why the "
        f"workflow made another model request.",
        call=call,
        call_index=call_index,
    )


def matcher_rejected(
    call: ModelCall,
    call_index: int,
    input_index: int,
    pending_steps: tuple[ModelStep, ...],
    in_group: bool,
) -> ModelCallMatcherError:
    """The call that no pending step's matcher accepted."""
    number, step = ordinal(call_index), ordinal(input_index)
    if in_group:
        text = (
            f"Model matchers rejected call #{number}: none of the {len(pending_steps)} "
            f"pending member(s) of the any_order() group (step #{step}) accepts it."
        )
    else:
        text = f"Model matcher of step #{step} rejected call #{number}."
    return ModelCallMatcherError(
        f"{text} Fix the matcher or the step order, or inspect the error's call to see "
        f"what the workflow sent.",
        call=call,
        call_index=call_index,
        input_index=input_index,
        pending_steps=pending_steps,
        in_group=in_group,
    )


def unconsumed_steps(pending_steps: tuple[ModelStep, ...], consumed: int) -> UnconsumedModelSteps:
    """``N scripted model step(s) were not consumed. The first is step #M; ...``."""
    remaining = len(pending_steps)
    return UnconsumedModelSteps(
        f"{remaining} scripted model step(s) were not consumed. The first is step "
        f"#{ordinal(consumed)}; the workflow made {consumed} model call(s). Check why the "
        f"workflow ended early, or remove the extra steps.",
        remaining_steps=remaining,
        pending_steps=pending_steps,
        consumed=consumed,
    )


def invalid_argument(argument: str, expected: str, got: str) -> InvalidModelArgument:
    """``Invalid argument <name>: expected <type>, got <value>.``."""
    return InvalidModelArgument(
        f"Invalid argument {argument}: expected {expected}, got {got}.",
        argument=argument,
        expected=expected,
        got=got,
    )


def invalid_tool_call(
    reason: InvalidToolCallReason,
    call_index: int,
    output_index: int,
    tool_name: str,
    known_tools: tuple[str, ...],
    path: str | None = None,
    rule: str | None = None,
    value: Any = None,
    detail: str = "",
) -> InvalidScriptedToolCall:
    """A scripted function call that does not fit the offered tools, explained."""
    call = f"Scripted call #{ordinal(call_index)} calls {safe_repr(tool_name, 80)}"
    if reason == "unknown_tool":
        offered = ", ".join(safe_repr(name, 80) for name in known_tools) or "none"
        message = (
            f"{call}, which is not among the tools this call offered (function tools "
            f"and handoffs: {offered}). Script one of those names or give the agent "
            f"that tool{_ON_PURPOSE}"
        )
    elif reason == "invalid_json":
        message = (
            f"{call} with arguments that are not JSON: {detail}. Give the arguments "
            f"as a mapping or a JSON object string{_ON_PURPOSE}"
        )
    else:
        message = (
            f"{call} with invalid arguments: at {path}: {detail} (schema rule: {rule}). "
            f"Script arguments that fit the tool's parameter schema{_ON_PURPOSE}"
        )
    return InvalidScriptedToolCall(
        message,
        reason=reason,
        call_index=call_index,
        output_index=output_index,
        tool_name=tool_name,
        known_tools=known_tools,
        path=path,
        rule=rule,
        value=value,
        detail=detail,
    )


def unscripted_call(
    agent_name: str | None,
    model_name: str | None,
    known_agents: tuple[str, ...],
    known_models: tuple[str, ...],
) -> UnscriptedModelCall:
    """A provider call with no script for the agent, the model name or a default."""
    caller = "an unknown agent" if agent_name is None else f"agent {safe_repr(agent_name)}"
    model = "no model name" if model_name is None else f"model {safe_repr(model_name)}"
    agents = ", ".join(safe_repr(name) for name in known_agents) or "none"
    models = ", ".join(safe_repr(name) for name in known_models) or "none"
    fixes = []
    if agent_name is not None:
        fixes.append(f"for the agent (by_agent={{{safe_repr(agent_name)}: [...]}})")
    if model_name is not None:
        fixes.append(f"for the model (by_model={{{safe_repr(model_name)}: [...]}})")
    fixes.append("a default script (default=[...])")
    return UnscriptedModelCall(
        f"No script for the model call of {caller} ({model}): the ScriptedModelProvider "
        f"has scripts for agents [{agents}] and models [{models}] and no default. Add a "
        f"script {' or '.join(fixes)}, or find out why this agent made a model call.",
        agent_name=agent_name,
        model_name=model_name,
        known_agents=known_agents,
        known_models=known_models,
    )


def unconsumed_provider_steps(
    scripts: dict[str, UnconsumedModelSteps], total_scripts: int
) -> UnconsumedProviderSteps:
    """The provider's scripts with steps left, one line each."""
    lines = [
        f"Scripted model steps were not consumed in {len(scripts)} of "
        f"{total_scripts} script(s) of the ScriptedModelProvider:"
    ]
    for label, error in scripts.items():
        noun = "step" if error.remaining_steps == 1 else "steps"
        lines.append(
            f"- {label}: {error.remaining_steps} {noun} left (the first is step "
            f"#{ordinal(error.consumed)}; it answered {error.consumed} model call(s))"
        )
    lines.append("Check why the workflow ended early, or remove the extra steps.")
    return UnconsumedProviderSteps("\n".join(lines), scripts=scripts, total_scripts=total_scripts)


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
