"""``FaultSchedule``: production failures injected at given calls of one model.

A schedule is attached to a ``ScriptedModel`` or a cassette replay, which asks it, for
each call, whether a fault stands at that call's number. An injected fault is an extra
call: it is recorded in ``model.calls`` but takes no scripted (or recorded) step, so when
the SDK retries, the retry gets the step the fault stood in front of; an injected call is
not compared with a cassette's recorded request either (the retry is). A slow answer
(``answer_after``) is not extra: its call waits, then takes the next step as usual. A cut
stream without a step of its own streams the first events of the next step.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, Union

from agents_testing.core import ArgumentProblem, CallSchedule, schedule_problem, scripted_wait

from .._errors import invalid_argument
from .._script.validation import describe
from .._step import ModelStep, QueuedStep
from .errors import unused_faults
from .fault import ModelFault

if TYPE_CHECKING:
    from agents.items import TResponseStreamEvent

    from .._call import ModelCall
    from .._cassette.replay import CassetteModelProvider
    from .._scripted_model import ScriptedModel

__all__ = ["FaultSchedule"]

_Target = TypeVar("_Target", bound=Union["ScriptedModel", "CassetteModelProvider"])

_FAULTS = (
    "a fault: rate_limit(...), server_error(...), request_timeout(), connection_reset(), "
    "stream_cut(after) or answer_after(seconds)"
)


class FaultSchedule:
    """Faults injected at given calls of one model: ``{3: rate_limit(), 5: stream_cut(4)}``.

    Keys are call numbers counted from 1 over every call the model gets, injected ones
    included; values are what the fault builders return. An injected fault answers its
    call without taking a scripted or recorded step, so the SDK's retry gets that step: a
    recorded run replays with failures injected. ``answer_after(seconds)`` makes its call
    wait, then the call takes the next step; ``stream_cut(after)`` without a step streams
    the first ``after`` events of the next step before the connection drops.

    ``attach(model)`` puts it on a ``ScriptedModel``, a ``CassetteModel`` or a
    ``CassetteModelProvider`` (its model) and returns that; the model's
    ``assert_complete()`` then also raises :class:`UnusedModelFaults` when a call the
    schedule counts on never came. ``injected`` and ``pending`` say what happened.
    """

    def __init__(self, faults: Mapping[int, ModelStep | ModelFault]) -> None:
        problem = schedule_problem(faults, _entry_problem)
        if problem is not None:
            where = "" if problem.call is None else f"[{problem.call}]"
            raise invalid_argument(f"FaultSchedule(faults){where}", problem.expected, problem.got)
        entries = {number: _fault(entry) for number, entry in faults.items()}
        self._schedule: CallSchedule[ModelFault] = CallSchedule(entries)
        self._model: ScriptedModel | None = None

    def attach(self, model: _Target) -> _Target:
        """Inject these faults into ``model``'s calls from now on; returns ``model``."""
        from .._cassette.replay import CassetteModelProvider
        from .._scripted_model import ScriptedModel

        target: Any = model.model if isinstance(model, CassetteModelProvider) else model
        if not isinstance(target, ScriptedModel):
            hint = (
                "; faults are injected into replays: record the run first, then replay it "
                "with the schedule attached"
                if type(model).__name__.startswith("Recording")
                else ""
            )
            raise invalid_argument(
                "FaultSchedule.attach(model)",
                f"a ScriptedModel, a CassetteModel or a CassetteModelProvider{hint}",
                describe(model),
            )
        if self._model is not None:
            raise invalid_argument(
                "FaultSchedule.attach(model)",
                "a schedule not attached yet (a schedule counts the calls of one model; "
                "make another for another model)",
                "a schedule already attached to a model",
            )
        if target._faults is not None:
            raise invalid_argument(
                "FaultSchedule.attach(model)",
                "a model without a schedule (put every fault in one FaultSchedule)",
                "a model that has one already",
            )
        target._faults = self
        self._model = target
        return model

    @property
    def model(self) -> ScriptedModel | None:
        """The model the schedule is attached to, if any."""
        return self._model

    @property
    def injected(self) -> tuple[tuple[int, ModelFault], ...]:
        """``(call number, fault)`` of every fault injected so far, in call order."""
        return self._schedule.used

    @property
    def pending(self) -> dict[int, ModelFault]:
        """The faults whose call has not come yet, by call number."""
        return self._schedule.pending

    def assert_complete(self) -> None:
        """Raise :class:`UnusedModelFaults` if a call the schedule counts on never came."""
        pending = self._schedule.pending
        if pending:
            calls = 0 if self._model is None else len(self._model.calls)
            raise unused_faults(pending, calls)

    def __repr__(self) -> str:
        entries = {**dict(self._schedule.used), **self._schedule.pending}
        return f"FaultSchedule({dict(sorted(entries.items()))!r})"

    # -- what the model asks ---------------------------------------------------------------

    async def _answer(self, model: ScriptedModel, call: ModelCall, index: int) -> QueuedStep:
        """The step that answers call ``index`` (0-based): an injected fault's, or the
        script's (taken after the wait of a slow answer)."""
        fault = self._schedule.take(index + 1)
        if fault is None:
            return model._answering(call, index)
        if fault.kind == "answer_after":
            await scripted_wait(fault.delay)
            return model._answering(call, index)
        events: Sequence[TResponseStreamEvent] | None = None
        if fault.kind == "stream_cut" and call.streamed:
            events = (
                fault._events
                if fault._events is not None
                else _next_events(model, call, index, fault)
            )

        async def injected(call: ModelCall) -> ModelStep:
            return await fault._answer(call, events)

        return QueuedStep(ModelStep.respond(injected), model._follow._script.consumed)


def _entry_problem(entry: object) -> ArgumentProblem | None:
    fault = entry.responder if isinstance(entry, ModelStep) else entry
    if not isinstance(fault, ModelFault):
        return ArgumentProblem(_FAULTS, describe(entry))
    if fault.kind == "answer_after" and fault._step is not None:
        return ArgumentProblem(
            "answer_after(seconds) without a step: in a schedule the delayed call takes the "
            "model's next step",
            repr(fault),
        )
    return None


def _fault(entry: ModelStep | ModelFault) -> ModelFault:
    fault = entry.responder if isinstance(entry, ModelStep) else entry
    assert isinstance(fault, ModelFault)
    return fault


def _next_events(
    model: ScriptedModel, call: ModelCall, index: int, fault: ModelFault
) -> list[TResponseStreamEvent]:
    """The first events the model's next step would stream for ``call``, taking nothing.

    Call ids are given from a copy of the model's counter: the events show the ids the
    step gets when the retry takes it.
    """
    after = fault.after or 0
    if after == 0:
        return []
    where = f"FaultSchedule(faults)[{index + 1}]: stream_cut(after)"
    head = model._follow._script.peek()
    if head is None or model._follow._script.in_group():
        raise invalid_argument(
            where,
            "a next scripted step whose events are known (a plain step, not an any_order() "
            "group), or stream_cut(after, step) with events of its own",
            "no step left" if head is None else "an any_order() group next",
        )
    step = head.step
    if step.responder is not None or step.error is not None or callable(step.stream_events):
        raise invalid_argument(
            where,
            "a next scripted step whose events are known (output items, or ModelStep.stream "
            "with a list of events), or stream_cut(after, step) with events of its own",
            "a responder, an error or a stream factory next",
        )
    if step.stream_events is not None:
        events = [copy.deepcopy(event) for event in step.stream_events]
    else:
        from .._script.validation import apply_patch_item
        from .._streaming.lifecycle import lifecycle_events

        if head.ready is not None:
            output = list(head.ready)
        else:
            items = [
                apply_patch_item(item)
                if isinstance(item, dict) and item.get("type") == "apply_patch_call"
                else item
                for item in step.output
            ]
            request = call._input
            output = copy.deepcopy(model._call_ids).assign(
                items, request if isinstance(request, str) else list(request)
            )
        model._check_streamable(output, head.input_index)
        events = lifecycle_events(
            step.response_id,
            output,
            model._usage(head),
            step.request_id,
            None,
            all_items=model._stream_all_items,
        )
    if after >= len(events):
        raise invalid_argument(
            where,
            f"fewer events than the {len(events)} the next step streams (at most "
            f"{len(events) - 1}: the connection drops before the stream ends)",
            str(after),
        )
    return events[:after]


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
