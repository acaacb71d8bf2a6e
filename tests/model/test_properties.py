"""Generated scripts through the real runner: only our errors (or the scripted exception)
come out, nothing hangs, and what was scripted or recorded cannot be changed afterwards.

The default hypothesis profile keeps this to a few seconds; ``HYPOTHESIS_PROFILE=thorough``
searches much wider.
"""

from __future__ import annotations

import asyncio
from typing import Any, cast

from agents import Agent, ModelBehaviorError, ModelResponse, RunConfig, Runner, Usage
from agents.testing import (
    InvalidModelStep,
    ModelScriptError,
    ModelStep,
    ScriptedModel,
    UnconsumedModelSteps,
    assistant_message,
    function_call,
)
from hypothesis import event, given
from hypothesis import strategies as st
from openai.types.responses import (
    Response,
    ResponseCompletedEvent,
    ResponseOutputMessage,
    ResponseOutputText,
    ResponseReasoningItem,
    ResponseTextDeltaEvent,
)
from openai.types.responses.response_reasoning_item import Summary

from agents_testing.model import InvalidModelArgument

RUN_TIMEOUT = 10.0
"""Seconds after which a generated run counts as hung."""


def _first_text(item: object) -> ResponseOutputText:
    """The first text part of an output message, narrowed for the type checker."""
    assert isinstance(item, ResponseOutputMessage)
    part = item.content[0]
    assert isinstance(part, ResponseOutputText)
    return part


class Hostile:
    """A value whose ``repr`` and ``str`` fail, as some user objects do."""

    def __repr__(self) -> str:
        raise RuntimeError("repr failed")

    __str__ = __repr__


class Stop(BaseException):
    pass


class Scripted(Exception):
    """The only exception type the generated scripts raise on purpose."""


class NeedsArguments(Exception):
    def __init__(self, code: int, reason: str) -> None:
        super().__init__(code, reason)


def _delta_event() -> ResponseTextDeltaEvent:
    return ResponseTextDeltaEvent(
        type="response.output_text.delta",
        item_id="msg_1",
        output_index=0,
        content_index=0,
        delta="hi",
        sequence_number=0,
        logprobs=[],
    )


def _reasoning(text: str) -> ResponseReasoningItem:
    return ResponseReasoningItem(
        id="rs_1", type="reasoning", summary=[Summary(type="summary_text", text=text)]
    )


junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.just(10**5000),
    st.floats(allow_nan=True),
    st.text(max_size=8),
    st.binary(max_size=4),
    st.builds(Hostile),
    st.builds(object),
    st.just(Stop()),
    st.just(KeyboardInterrupt()),
    st.just(NeedsArguments),
    st.just(UnicodeDecodeError),
    st.just(ValueError),
    st.builds(_delta_event),
    st.just(lambda: None),
    st.just(lambda a, b: None),
)
"""Values that are wrong almost anywhere a step field is expected."""


def _broken_message(field: str, value: Any) -> Any:
    message = assistant_message("broken")
    object.__setattr__(message, field, value)
    return message


def _broken_usage(field: str, value: Any) -> Usage:
    usage = Usage(requests=1)
    setattr(usage, field, value)
    return usage


good_items = st.one_of(
    st.text(max_size=12).map(assistant_message),
    st.text(max_size=12).map(_reasoning),
)
bad_items = st.one_of(
    junk,
    st.builds(_broken_message, st.sampled_from(["id", "content", "role", "status"]), junk),
    st.builds(lambda value: {"type": "apply_patch_call", "call_id": "c", "operation": value}, junk),
    st.dictionaries(st.text(max_size=5), junk, max_size=3),
)
items = st.lists(st.one_of(good_items, bad_items), max_size=3)
usages = st.one_of(
    st.none(),
    st.builds(Usage, requests=st.integers(0, 3), input_tokens=st.integers(0, 50)),
    st.builds(
        _broken_usage,
        st.sampled_from(["requests", "input_tokens", "output_tokens", "input_tokens_details"]),
        junk,
    ),
    junk,
)
field_values = {
    "output": st.one_of(items, junk),
    "usage": usages,
    "response_id": st.one_of(st.none(), st.text(max_size=5), junk),
    "request_id": st.one_of(st.none(), st.text(max_size=5), junk),
    "raw_usage": st.one_of(
        st.none(),
        st.dictionaries(st.text(max_size=4), st.one_of(st.integers(), junk), max_size=3),
        junk,
    ),
    "error": st.one_of(st.builds(Scripted, st.text(max_size=5)), junk),
    "responder": st.one_of(
        junk,
        st.builds(lambda value: lambda call: value, st.one_of(items, junk)),
    ),
    "stream_events": st.one_of(st.lists(junk, max_size=2), junk),
    "retry_advice": junk,
}
step_dicts = st.fixed_dictionaries(
    {}, optional={name: strategy for name, strategy in field_values.items()}
)
steps = st.one_of(
    items,
    step_dicts,
    step_dicts.map(lambda fields: _model_step(fields)),
    st.builds(Scripted, st.text(max_size=5)),
    junk,
    st.dictionaries(st.sampled_from(["outputs", "usage", 1]), junk, max_size=2),
)


def _completed(output: list[Any]) -> ResponseCompletedEvent:
    response = Response(
        id="resp_1",
        object="response",
        created_at=0.0,
        model="scripted-model",
        output=output,
        parallel_tool_calls=False,
        tool_choice="auto",
        tools=[],
        status="completed",
    )
    return ResponseCompletedEvent(type="response.completed", sequence_number=9, response=response)


def _factory(events: list[Any], output: list[Any]) -> Any:
    # A strict stream ends with its completed response, as a provider's does; one
    # without it is the SDK's to report (it is how a test checks that handling).
    async def factory(call: Any) -> Any:
        for one in events:
            yield one
        yield _completed(output)

    return factory


def _raiser(error: Exception) -> Any:
    def responder(call: Any) -> Any:
        raise error

    return responder


answers = st.one_of(
    items,
    st.lists(good_items, min_size=1, max_size=2),
    step_dicts,
    st.builds(Scripted, st.text(max_size=5)),
    junk,
)
runnable_steps = st.one_of(
    st.lists(good_items, min_size=1, max_size=2),
    st.builds(lambda value: ModelStep.respond(lambda call: value), answers),
    st.builds(
        lambda value: ModelStep.respond(lambda call: ModelStep.respond(lambda c: value)), answers
    ),
    st.builds(
        lambda error: ModelStep.respond(_raiser(error)), st.builds(Scripted, st.text(max_size=5))
    ),
    st.builds(Scripted, st.text(max_size=5)),
    st.builds(
        lambda events, output: ModelStep.stream(_factory(events, output), output=output),
        st.lists(st.one_of(junk, st.builds(_delta_event)), max_size=2),
        st.lists(good_items, min_size=1, max_size=1),
    ),
)
"""Steps that pass the queue-time checks; their problems show only during the call."""


def _model_step(fields: dict[str, Any]) -> Any:
    try:
        return ModelStep(**fields)
    except Exception as error:  # a ModelStep itself never validates: report it if it does
        raise AssertionError(f"ModelStep(...) raised {type(error).__name__}") from error


async def _run(model: ScriptedModel, streamed: bool) -> Any:
    agent = Agent(name="Assistant", model=model)
    config = RunConfig(tracing_disabled=True)
    if not streamed:
        return (await Runner.run(agent, "Hi", run_config=config)).final_output
    result = Runner.run_streamed(agent, "Hi", run_config=config)
    async for _ in result.stream_events():
        pass
    return result.final_output


def _outcome(model: ScriptedModel, streamed: bool) -> Any:
    async def bounded() -> Any:
        return await asyncio.wait_for(_run(model, streamed), timeout=RUN_TIMEOUT)

    try:
        return asyncio.run(bounded())
    except asyncio.TimeoutError as error:
        raise AssertionError("the run did not finish: a scripted value left it waiting") from error


@given(
    script=st.lists(st.one_of(runnable_steps, runnable_steps, steps), min_size=1, max_size=3),
    streamed=st.booleans(),
)
def test_any_script_fails_only_with_our_errors_or_the_scripted_exception(
    script: list[Any], streamed: bool
) -> None:
    try:
        model = ScriptedModel(script)
    except InvalidModelStep as error:
        event(f"refused when queued: {error.reason}")
        return
    escaped: Exception | None = None
    try:
        _outcome(model, streamed)
        event("ran to completion")
    except ModelScriptError as error:
        event(f"run failed with {type(error).__name__}")
    except Exception as error:
        event("run failed with the scripted exception")
        escaped = error
    if escaped is None or type(escaped) is Scripted:
        return
    # A strict stream is replayed exactly; one scripted without its completed response
    # is the SDK's to report, as it would be from a provider. Automatic streams always
    # complete, so only a streamed run can meet this.
    incomplete_strict_stream = (
        streamed
        and isinstance(escaped, ModelBehaviorError)
        and str(escaped) == "Model did not produce a final response!"
    )
    assert incomplete_strict_stream, f"escaped: {type(escaped).__name__}: {escaped}"


@given(step=steps)
def test_enqueue_and_extend_reject_exactly_what_the_constructor_rejects(step: Any) -> None:
    def outcome(build: Any) -> str:
        try:
            build()
        except InvalidModelStep as error:
            return error.reason
        return "accepted"

    by_constructor = outcome(lambda: ScriptedModel([step]))
    assert outcome(lambda: ScriptedModel().enqueue(step)) == by_constructor
    assert outcome(lambda: ScriptedModel().extend([step])) == by_constructor


@given(emit_traces=junk, default_usage=usages)
def test_constructor_arguments_of_the_wrong_type_raise_a_named_argument_error(
    emit_traces: Any, default_usage: Any
) -> None:
    refused: InvalidModelArgument | None = None
    try:
        ScriptedModel(emit_traces=emit_traces, default_usage=default_usage)
    except InvalidModelArgument as error:
        refused = error
    if refused is None:
        assert isinstance(emit_traces, bool)
        return
    assert refused.argument in {"emit_traces", "default_usage"}
    assert str(refused).startswith(f"Invalid argument {refused.argument}: ")


@given(
    texts=st.lists(st.text(max_size=10), min_size=1, max_size=3),
    tokens=st.integers(0, 10**6),
    replacement=st.text(max_size=10),
    streamed=st.booleans(),
)
def test_changing_scripted_values_after_queuing_changes_no_response(
    texts: list[str], tokens: int, replacement: str, streamed: bool
) -> None:
    messages = [assistant_message(text) for text in texts]
    usage = Usage(requests=1, input_tokens=tokens, total_tokens=tokens)
    raw = {"tokens": [tokens]}
    model = ScriptedModel([{"output": messages, "usage": usage, "raw_usage": raw}])

    for message in messages:
        _first_text(message).text = replacement
    messages.append(assistant_message(replacement))
    usage.input_tokens = tokens + 1
    raw["tokens"].append(0)
    try:
        model.assert_complete()
    except UnconsumedModelSteps as unconsumed:
        pending = unconsumed.pending_steps[0]
        assert isinstance(pending, ModelStep)
        _first_text(pending.output[0]).text = replacement
        assert pending.usage is not None
        pending.usage.input_tokens = -1

    async def run() -> ModelResponse:
        agent = Agent(name="Assistant", model=model)
        config = RunConfig(tracing_disabled=True)
        if streamed:
            streaming = Runner.run_streamed(agent, "Hi", run_config=config)
            async for _ in streaming.stream_events():
                pass
            return streaming.raw_responses[0]
        return (await Runner.run(agent, "Hi", run_config=config)).raw_responses[0]

    response = asyncio.run(asyncio.wait_for(run(), timeout=RUN_TIMEOUT))

    assert [_first_text(item).text for item in response.output] == texts
    assert response.usage.input_tokens == tokens


@given(
    arguments=st.dictionaries(
        st.text(max_size=5),
        st.recursive(
            st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5)),
            lambda inner: st.lists(inner, max_size=3),
            max_leaves=6,
        ),
        max_size=3,
    ),
    streamed=st.booleans(),
)
def test_recorded_input_keeps_value_and_type_and_later_edits_change_nothing(
    arguments: dict[str, Any], streamed: bool
) -> None:
    model = ScriptedModel(
        [
            ModelStep.respond(lambda call: [assistant_message("ok")]),
        ]
    )
    sent = [
        {"role": "user", "content": "first"},
        function_call("lookup", arguments, call_id="c1").model_dump(exclude_unset=True),
        {"type": "function_call_output", "call_id": "c1", "output": repr(arguments)},
    ]

    async def run() -> None:
        agent = Agent(name="Assistant", model=model)
        config = RunConfig(tracing_disabled=True)
        if streamed:
            streaming = Runner.run_streamed(agent, sent, run_config=config)  # type: ignore[arg-type]
            async for _ in streaming.stream_events():
                pass
            return
        await Runner.run(agent, sent, run_config=config)  # type: ignore[arg-type]

    asyncio.run(asyncio.wait_for(run(), timeout=RUN_TIMEOUT))
    recorded = model.calls[0].input
    assert isinstance(recorded, list)
    recorded_types = [type(value) for item in recorded for value in item.values()]

    sent[0]["content"] = "changed"
    cast("dict[str, Any]", recorded[0])["content"] = "changed too"

    again = model.calls[0].input
    assert isinstance(again, list)
    assert cast("dict[str, Any]", again[0])["content"] == "first"
    assert [type(value) for item in again for value in item.values()] == recorded_types
