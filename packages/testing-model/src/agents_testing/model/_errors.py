"""Errors raised by :class:`~agents_testing.model.ScriptedModel`.

Every error inherits :class:`ModelScriptError` and one of the core kind bases, so a
test can catch "any model script problem" or "any leftover step of any double".
Index fields are 0-based; messages count calls and steps from 1.

Message shapes are stable so that tests can ``match=`` on them:

- ``InvalidModelStep``: ``"Invalid model step #N: <what is wrong>"``;
- ``UnexpectedModelCall``: ``"Unexpected model call #N: the script has no step left ..."``;
- ``UnconsumedModelSteps``: ``"N scripted model step(s) were not consumed ..."``;
- ``InvalidModelArgument``: ``"Invalid argument <name>: expected <type>, got <value>."``;
- ``UnscriptedModelCall``: ``"No script for the model call of agent '<name>' (model ...)..."``;
- ``UnconsumedProviderSteps``: ``"Scripted model steps were not consumed in N of M script(s)..."``.
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
    from ._call import ModelCall
    from ._step import ModelStep

__all__ = [
    "InvalidModelArgument",
    "InvalidModelStep",
    "InvalidModelStepReason",
    "ModelScriptError",
    "UnconsumedModelSteps",
    "UnconsumedProviderSteps",
    "UnexpectedModelCall",
    "UnscriptedModelCall",
]

InvalidModelStepReason = Literal[
    "invalid_input",
    "unsupported_field",
    "invalid_error",
    "invalid_responder",
    "invalid_stream_events",
    "conflicting_outcomes",
    "invalid_retry_advice",
]


class ModelScriptError(AgentsTestingError):
    """Base of every error raised by the model boundary's doubles."""


class InvalidModelStep(ModelScriptError, InvalidStepError):
    """A model step was malformed; it was rejected before it was queued or used.

    ``reason`` is one of :data:`InvalidModelStepReason`; ``input_index`` is the 0-based
    position of the step in the sequence given to the constructor, ``extend()`` (or 0
    for ``enqueue()``). Responder results and stream factories are checked when the
    call uses them and report the index of the step that held the responder.
    """

    reason: InvalidModelStepReason
    input_index: int

    def __init__(self, reason: InvalidModelStepReason, input_index: int, detail: str) -> None:
        self.reason = reason
        self.input_index = input_index
        self.detail = detail
        super().__init__(f"Invalid model step #{ordinal(input_index)}: {detail}")

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.reason, self.input_index, self.detail))


class UnexpectedModelCall(ModelScriptError, UnexpectedCallError):
    """The workflow asked the model for a response after the script ran out.

    ``call`` is the recorded request and ``call_index`` its 0-based position in
    ``ScriptedModel.calls``.
    """

    def __init__(self, call: ModelCall, call_index: int) -> None:
        self.call = call
        self.call_index = call_index
        mode = "streamed" if call.streamed else "non-streamed"
        super().__init__(
            f"Unexpected model call #{ordinal(call_index)}: the script has no step left "
            f"({mode} call). Add a step for it (constructor, enqueue() or extend()) or "
            f"find out why the workflow made another model request."
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.call, self.call_index))


class UnconsumedModelSteps(ModelScriptError, UnconsumedStepsError):
    """``assert_complete()`` found scripted steps the workflow never used.

    ``remaining_steps`` is how many are left (the same number as
    ``ScriptedModel.remaining_steps``); ``pending_steps`` holds copies of them, in
    script order (changing them changes nothing queued); ``consumed`` is how many
    steps were used.
    """

    remaining_steps: int

    def __init__(self, pending_steps: tuple[ModelStep, ...], consumed: int) -> None:
        self.pending_steps = pending_steps
        self.remaining_steps = len(pending_steps)
        self.consumed = consumed
        first = ordinal(consumed)
        noun = "step was" if self.remaining_steps == 1 else "steps were"
        super().__init__(
            f"{self.remaining_steps} scripted model {noun} not consumed (the first is "
            f"step #{first}; the workflow made {consumed} model call(s)). Check why the "
            f"workflow ended early, or remove the extra steps."
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.pending_steps, self.consumed))


class InvalidModelArgument(ModelScriptError, TypeError):
    """A constructor or builder argument had the wrong type or value.

    ``argument`` names it (``"emit_traces"``, ``"function_call(item_id)"``, ...) and
    ``expected`` says what it must be. It is also a ``TypeError``, as Python raises for
    a wrong argument.
    """

    def __init__(self, argument: str, expected: str, got: str) -> None:
        self.argument = argument
        self.expected = expected
        self.got = got
        super().__init__(f"Invalid argument {argument}: expected {expected}, got {got}.")

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.argument, self.expected, self.got))


class UnscriptedModelCall(ModelScriptError, UnexpectedCallError):
    """A :class:`ScriptedModelProvider` was asked for a response it has no script for.

    ``agent_name`` is the agent that made the call (None when no agent run was current)
    and ``model_name`` the model name the runner asked the provider for (None when the
    agent names no model); ``known_agents`` and ``known_models`` are the names that
    have a script, in the order they were given. Nothing was recorded for the call.
    """

    def __init__(
        self,
        agent_name: str | None,
        model_name: str | None,
        known_agents: tuple[str, ...],
        known_models: tuple[str, ...],
    ) -> None:
        self.agent_name = agent_name
        self.model_name = model_name
        self.known_agents = known_agents
        self.known_models = known_models
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
        super().__init__(
            f"No script for the model call of {caller} ({model}): the ScriptedModelProvider "
            f"has scripts for agents [{agents}] and models [{models}] and no default. Add a "
            f"script {' or '.join(fixes)}, or find out why this agent made a model call."
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (
            type(self),
            (self.agent_name, self.model_name, self.known_agents, self.known_models),
        )


class UnconsumedProviderSteps(ModelScriptError, UnconsumedStepsError):
    """``ScriptedModelProvider.assert_complete()`` found scripts with steps left.

    ``scripts`` maps each such script's label (``"agent 'Billing'"``, ``"model
    'gpt-4.1'"``, ``"default"``) to its own :class:`UnconsumedModelSteps`, in the order
    the scripts were given; ``pending_steps`` holds their pending steps one script after
    another and ``remaining_steps`` counts them.
    """

    remaining_steps: int

    def __init__(self, scripts: dict[str, UnconsumedModelSteps], total_scripts: int) -> None:
        self.scripts = dict(scripts)
        self.total_scripts = total_scripts
        self._set_pending_steps(
            tuple(step for error in self.scripts.values() for step in error.pending_steps)
        )
        lines = [
            f"Scripted model steps were not consumed in {len(self.scripts)} of "
            f"{total_scripts} script(s) of the ScriptedModelProvider:"
        ]
        for label, error in self.scripts.items():
            noun = "step" if error.remaining_steps == 1 else "steps"
            lines.append(
                f"- {label}: {error.remaining_steps} {noun} left (the first is step "
                f"#{ordinal(error.consumed)}; it answered {error.consumed} model call(s))"
            )
        lines.append("Check why the workflow ended early, or remove the extra steps.")
        super().__init__("\n".join(lines))

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.scripts, self.total_scripts))
