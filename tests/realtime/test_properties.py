"""Generated scripts, malformed and well-formed, run through real ``RealtimeRunner`` sessions.

With ``extra_checks=True`` whatever is generated, only the realtime error family or an
exception the script itself supplied may come out; a bare model gives the same for
well-formed scripts. Every run ends within a bound, and what was scripted, sent and
handed out stays exactly as it was, whatever is mutated afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Coroutine
from typing import Any

from agents.realtime import (
    RealtimeAgent,
    RealtimeModelAudioEvent,
    RealtimeModelErrorEvent,
    RealtimeModelExceptionEvent,
    RealtimeModelInputAudioTranscriptionCompletedEvent,
    RealtimeModelItemDeletedEvent,
    RealtimeModelSendAudio,
    RealtimeModelSendInterrupt,
    RealtimeModelSendUserInput,
    RealtimeModelTranscriptDeltaEvent,
    RealtimeModelTurnEndedEvent,
    RealtimeModelTurnStartedEvent,
    RealtimeRawModelEvent,
    RealtimeRunConfig,
    RealtimeRunner,
)
from hypothesis import event, given
from hypothesis import strategies as st

from agents_testing.realtime import (
    RealtimeScriptError,
    RealtimeStep,
    ScriptedRealtimeModel,
)

# A guard against hangs, not a timing assertion: a healthy run takes milliseconds.
BOUND_SECONDS = 10

HELLO = RealtimeModelSendUserInput(user_input="Hello")


class PredicateBug(Exception):
    """What a generated predicate raises: an exception the script supplied."""


class NeedsArguments(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(code)


class HostileRepr:
    def __repr__(self) -> str:
        raise RuntimeError("repr exploded")


def run_bounded(scenario: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    """Run ``scenario`` on a fresh loop; a run that does not finish fails the property.

    The scenario's own outcome is carried out of ``wait_for`` as a value, so a scripted
    ``TimeoutError`` is told apart from the bound running out.
    """

    async def outcome() -> tuple[bool, Any]:
        try:
            return True, await scenario()
        except Exception as error:
            return False, error

    async def bounded() -> tuple[bool, Any]:
        try:
            return await asyncio.wait_for(outcome(), BOUND_SECONDS)
        except TimeoutError as error:
            raise AssertionError("the realtime run did not finish") from error

    finished, value = asyncio.run(bounded())
    if not finished:
        raise value
    return value


def runner_for(model: ScriptedRealtimeModel) -> RealtimeRunner:
    config: RealtimeRunConfig = {"tracing_disabled": True}
    return RealtimeRunner(RealtimeAgent(name="Assistant"), model=model, config=config)


# -- strategies --------------------------------------------------------------------------

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=4),
    st.binary(max_size=4),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.builds(HostileRepr),
    st.just(10**5000),
    st.builds(threading.Lock),
    st.sampled_from([object, int, dict, list[int], RealtimeModelTranscriptDeltaEvent]),
)

TEXT = st.text(max_size=6)


def sometimes_junk(good: st.SearchStrategy[Any], malformed: bool) -> st.SearchStrategy[Any]:
    """``good``, or with ``malformed`` now and then a junk value instead."""
    return st.one_of(good, good, good, JUNK) if malformed else good


def events(malformed: bool) -> st.SearchStrategy[Any]:
    """Incoming events whose fields are well typed, or (with ``malformed``) not always."""

    def either(good: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return sometimes_junk(good, malformed)

    return sometimes_junk(
        st.one_of(
            st.builds(RealtimeModelTranscriptDeltaEvent, either(TEXT), either(TEXT), either(TEXT)),
            st.builds(
                RealtimeModelAudioEvent,
                either(st.binary(max_size=4)),
                either(TEXT),
                either(TEXT),
                either(st.integers(0, 3)),
            ),
            st.builds(RealtimeModelItemDeletedEvent, either(TEXT)),
            st.builds(
                RealtimeModelInputAudioTranscriptionCompletedEvent, either(TEXT), either(TEXT)
            ),
            st.builds(RealtimeModelTurnStartedEvent),
            st.builds(RealtimeModelTurnEndedEvent),
            st.builds(RealtimeModelErrorEvent, JUNK),
            st.builds(RealtimeModelExceptionEvent, either(st.builds(PredicateBug))),
        ),
        malformed,
    )


RAISABLE = st.one_of(
    st.builds(PredicateBug), st.sampled_from([ConnectionResetError, TimeoutError()])
)
UNRAISABLE = st.sampled_from(
    [
        NeedsArguments,
        KeyboardInterrupt,
        SystemExit(3),
        asyncio.CancelledError(),
        GeneratorExit,
        StopIteration,
        StopAsyncIteration(),
    ]
)


def _coroutine_result(event: Any) -> Any:
    async def later() -> bool:
        return True

    return later()


def _numpy_result(event: Any) -> Any:
    import numpy

    return numpy.array([True, False])


def _raising(event: Any) -> bool:
    raise PredicateBug("bug in a predicate")


# Predicates whose shape is fine when built; some misbehave when called.
CALLABLE_PREDICATES = st.one_of(
    JUNK.map(lambda result: lambda event: result),
    st.sampled_from(
        [
            lambda event: True,
            lambda event: False,
            _coroutine_result,
            _numpy_result,
            _raising,
            max,
        ]
    ),
)
# Predicates that answer with a bool or raise their own error: what a bare model is for.
WELL_BEHAVED_PREDICATES = st.sampled_from([lambda event: True, lambda event: False, _raising])
MISSHAPEN_PREDICATES = st.sampled_from([lambda event, other: True, lambda: True, list[int]])
GOOD_EXPECTATIONS = st.sampled_from(
    [HELLO, RealtimeModelSendInterrupt(), RealtimeModelSendUserInput, RealtimeModelSendAudio]
)


class StepSpec(dict[str, Any]):
    """The keyword arguments of one generated ``RealtimeStep``."""


@st.composite
def model_specs(draw: st.DrawFn, malformed: bool, well_behaved: bool = False) -> dict[str, Any]:
    """Arguments of a ``ScriptedRealtimeModel``: with ``malformed``, any part may be junk;
    with ``well_behaved``, predicates answer with a bool or raise their own error."""
    errors = st.one_of(RAISABLE, UNRAISABLE, JUNK) if malformed else RAISABLE
    predicates = WELL_BEHAVED_PREDICATES if well_behaved else CALLABLE_PREDICATES
    expectations = st.one_of(GOOD_EXPECTATIONS, GOOD_EXPECTATIONS, predicates)
    if malformed:
        expectations = st.one_of(expectations, MISSHAPEN_PREDICATES, JUNK)
    event_lists = sometimes_junk(st.lists(events(malformed), max_size=3), malformed)

    def step() -> StepSpec:
        spec = StepSpec(expect=draw(expectations))
        if draw(st.booleans()):
            spec["emit"] = draw(event_lists)
        if draw(st.integers(0, 3)) == 0 and not (spec.get("emit") and not malformed):
            spec["error"] = draw(errors)
        return spec

    steps: list[Any] = []
    for _ in range(draw(st.integers(0, 3))):
        junk_step = malformed and draw(st.integers(0, 5)) == 0
        steps.append(draw(JUNK) if junk_step else step())
    arguments: dict[str, Any] = {
        "steps": draw(sometimes_junk(st.just(steps), malformed)),
        "strict": draw(sometimes_junk(st.booleans(), malformed)),
    }
    if draw(st.booleans()):
        arguments["connect_events"] = draw(event_lists)
    for name in ("connect_error", "close_error"):
        if draw(st.integers(0, 4)) == 0:
            arguments[name] = draw(errors)
    return arguments


def build(arguments: dict[str, Any], extra_checks: bool) -> ScriptedRealtimeModel:
    steps = arguments["steps"]
    if isinstance(steps, list):
        steps = [RealtimeStep(**item) if isinstance(item, StepSpec) else item for item in steps]
    return ScriptedRealtimeModel(**{**arguments, "steps": steps}, extra_checks=extra_checks)


def scripted_exceptions(arguments: dict[str, Any]) -> list[Any]:
    """Every exception (instance or class) the generated script could raise itself."""
    found: list[Any] = [PredicateBug]
    steps = arguments["steps"] if isinstance(arguments["steps"], list) else []
    found.extend(item.get("error") for item in steps if isinstance(item, StepSpec))
    found.extend(arguments.get(name) for name in ("connect_error", "close_error"))
    return [item for item in found if item is not None]


def is_scripted(error: BaseException, scripted: list[Any]) -> bool:
    return any(
        error is item or (isinstance(item, type) and type(error) is item) for item in scripted
    )


# -- properties --------------------------------------------------------------------------


@given(
    st.one_of(
        st.tuples(model_specs(malformed=False), st.just(True)),
        st.tuples(model_specs(malformed=True), st.just(True)),
        st.tuples(model_specs(malformed=False, well_behaved=True), st.just(False)),
    )
)
def test_generated_scripts_raise_only_our_errors_or_their_own_and_always_finish(
    generated: tuple[dict[str, Any], bool],
) -> None:
    arguments, extra_checks = generated

    async def scenario() -> None:
        try:
            model = build(arguments, extra_checks)
        except RealtimeScriptError:
            event("rejected when built")
            raise
        event("built and run")
        async with await runner_for(model).run() as session:
            await session.send_message("Hello")
            await session.interrupt()
            await session.send_audio(b"\x00\x01")
        model.assert_complete()

    try:
        run_bounded(scenario)
    except RealtimeScriptError:
        pass
    except Exception as error:
        if not is_scripted(error, scripted_exceptions(arguments)):
            raise


@given(
    st.lists(GOOD_EXPECTATIONS, max_size=2),
    st.one_of(CALLABLE_PREDICATES, MISSHAPEN_PREDICATES),
    st.booleans(),
)
def test_misbehaving_predicates_fail_with_our_error_or_their_own_and_always_finish(
    before: list[Any], predicate: Any, strict: bool
) -> None:
    async def scenario() -> None:
        try:
            steps = [*map(RealtimeStep, before), RealtimeStep(expect=predicate)]
        except RealtimeScriptError:
            event("rejected when built")
            raise
        model = ScriptedRealtimeModel(steps, strict=strict, extra_checks=True)
        async with await runner_for(model).run() as session:
            await session.send_message("Hello")
            await session.interrupt()
            await session.send_audio(b"\x00")
            await session.send_message("Hello")

    with contextlib.suppress(RealtimeScriptError, PredicateBug):
        run_bounded(scenario)


@given(st.lists(TEXT, min_size=1, max_size=4), st.lists(TEXT, max_size=2))
def test_scripted_events_are_emitted_as_built_whatever_is_mutated_later(
    replies: list[str], greetings: list[str]
) -> None:
    def events(texts: list[str]) -> list[RealtimeModelTranscriptDeltaEvent]:
        return [
            RealtimeModelTranscriptDeltaEvent(item_id=f"item_{n}", delta=text, response_id="r")
            for n, text in enumerate(texts)
        ]

    emit, connect_events = events(replies), events(greetings)
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=HELLO, emit=emit)], connect_events=connect_events
    )
    for scripted in (*emit, *connect_events):
        scripted.delta += " (mutated)"
        scripted.item_id = "mutated"
    emit.append(emit[0])
    step = model.pending_steps[0]
    step.emit[0].delta = "mutated through the accessor"  # type: ignore[union-attr]

    async def scenario() -> list[Any]:
        seen: list[Any] = []
        async with await runner_for(model).run() as session:
            await session.send_message("Hello")
            async for session_event in session:
                if isinstance(session_event, RealtimeRawModelEvent):
                    assert isinstance(session_event.data, RealtimeModelTranscriptDeltaEvent)
                    seen.append(session_event.data)
                    session_event.data.delta = "mutated by the listener"
                    if len(seen) == len(greetings) + len(replies):
                        break
        return seen

    seen = run_bounded(scenario)

    assert [(event.item_id, event.delta) for event in seen] == [
        (f"item_{n}", "mutated by the listener") for n in range(len(greetings))
    ] + [(f"item_{n}", "mutated by the listener") for n in range(len(replies))]
    model.assert_complete()


SCALARS = st.one_of(
    st.booleans(),
    st.integers(-3, 3),
    st.floats(-3, 3, allow_nan=False),
    st.none(),
    st.text(max_size=3),
)
PAYLOADS = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)


def exactly(left: Any, right: Any) -> bool:
    """Equal in value and in the type of every part (``1``, ``1.0`` and ``True`` differ)."""
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(exactly(left[k], right[k]) for k in left)
    if isinstance(left, list):
        return len(left) == len(right) and all(map(exactly, left, right))
    return bool(left == right)


def thaw(value: Any) -> Any:
    """An independent copy built by hand, to compare the history with."""
    if isinstance(value, dict):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, list):
        return [thaw(item) for item in value]
    return value


def user_input_of(sent: object) -> Any:
    """What a recorded user-input send carried; the tests also send malformed messages."""
    assert isinstance(sent, RealtimeModelSendUserInput)
    return sent.user_input


@given(st.lists(PAYLOADS, min_size=1, max_size=4), st.booleans())
def test_sent_history_equals_what_was_sent_in_value_and_type_after_any_mutation(
    payloads: list[Any], strict: bool
) -> None:
    messages: list[Any] = [
        {"type": "message", "role": "user", "content": [{"payload": payload}]}
        for payload in payloads
    ]
    originals = [thaw(message) for message in messages]

    def vandal(event: Any) -> bool:
        event.user_input["content"].append("added by the matcher")
        return True

    steps = [RealtimeStep(expect=vandal) for _ in messages] if strict else []
    model = ScriptedRealtimeModel(steps, strict=strict)

    async def scenario() -> None:
        async with await runner_for(model).run() as session:
            for message in messages:
                await session.send_message(message)
                message["content"].append("added by the application")
                user_input_of(model.sent_events[-1])["content"].clear()

    run_bounded(scenario)

    recorded = [user_input_of(event) for event in model.sent_events]
    assert all(map(exactly, recorded, originals))
    assert len(recorded) == len(originals)
    model.assert_complete()


@given(st.lists(st.sampled_from([1, True, 1.0, 0, False, 0.0]), min_size=2, max_size=5))
def test_equal_values_of_different_types_are_recorded_with_their_own_types(
    values: list[Any],
) -> None:
    model = ScriptedRealtimeModel(strict=False)

    async def scenario() -> None:
        async with await runner_for(model).run() as session:
            for value in values:
                await session.send_message({"n": value})  # type: ignore[arg-type]

    run_bounded(scenario)

    recorded = [user_input_of(event)["n"] for event in model.sent_events]
    assert [(type(value), value) for value in recorded] == [
        (type(value), value) for value in values
    ]
