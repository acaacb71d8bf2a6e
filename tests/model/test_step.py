"""Every step form through both runner modes, and the validation of malformed steps."""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import Callable
from typing import Any

import pytest
from agents import Agent, ModelResponse, ModelRetryAdvice, RunConfig, Runner, Usage, function_tool
from agents.testing import (
    InvalidModelStep,
    ModelCall,
    ModelScriptError,
    ModelStep,
    ScriptedModel,
    UnconsumedModelSteps,
    assistant_message,
    function_call,
)
from openai.types.responses import ResponseOutputMessage, ResponseOutputText

from agents_testing.core import compat
from agents_testing.model import InvalidModelArgument


class Boom(RuntimeError):
    pass


@function_tool
def get_weather(city: str) -> str:
    """Return the weather for a city."""
    return f"{city}: sunny"


def _message_forms() -> dict[str, Callable[[str], Any]]:
    return {
        "ModelStep": lambda text: ModelStep(output=[assistant_message(text)]),
        "dict": lambda text: {"output": [assistant_message(text)]},
        "ModelResponse": lambda text: ModelResponse(
            output=[assistant_message(text)],
            usage=Usage(requests=1, input_tokens=3, output_tokens=4, total_tokens=7),
            response_id="resp_given",
        ),
        "sequence": lambda text: [assistant_message(text)],
        "tuple": lambda text: (assistant_message(text),),
    }


MESSAGE_FORMS = _message_forms()


@pytest.mark.parametrize("form", sorted(MESSAGE_FORMS))
@pytest.mark.asyncio
async def test_each_response_form_answers_the_call(form: str, run: Any, streamed: bool) -> None:
    model = ScriptedModel([MESSAGE_FORMS[form]("Hello from " + form)])

    result = await run(Agent(name="Assistant", model=model), "Hi", streamed=streamed)

    assert result.final_output == "Hello from " + form
    assert model.last_call is not None
    assert model.last_call.streamed is streamed
    model.assert_complete()


@pytest.mark.asyncio
async def test_exception_step_is_raised_for_its_call(run: Any, streamed: bool) -> None:
    model = ScriptedModel([Boom("provider down")])

    with pytest.raises(Boom, match="provider down"):
        await run(Agent(name="Assistant", model=model), "Hi", streamed=streamed)

    assert len(model.calls) == 1
    model.assert_complete()


@pytest.mark.asyncio
async def test_raise_error_step_is_raised_for_its_call(run: Any, streamed: bool) -> None:
    model = ScriptedModel([ModelStep.raise_error(Boom("scripted failure"))])

    with pytest.raises(Boom, match="scripted failure"):
        await run(Agent(name="Assistant", model=model), "Hi", streamed=streamed)
    model.assert_complete()


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("form", sorted(MESSAGE_FORMS))
@pytest.mark.asyncio
async def test_responder_may_return_each_form(
    form: str, is_async: bool, run: Any, streamed: bool
) -> None:
    seen: list[ModelCall] = []

    def sync_responder(call: ModelCall) -> Any:
        seen.append(call)
        return MESSAGE_FORMS[form](f"echo: {call.input[0]['content']}")  # type: ignore[index,typeddict-item]

    async def async_responder(call: ModelCall) -> Any:
        return sync_responder(call)

    model = ScriptedModel([ModelStep.respond(async_responder if is_async else sync_responder)])

    result = await run(Agent(name="Assistant", model=model), "ping", streamed=streamed)

    assert result.final_output == "echo: ping"
    assert seen == [model.calls[0]]
    assert seen[0].streamed is streamed
    model.assert_complete()


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
@pytest.mark.asyncio
async def test_responder_may_return_an_exception(is_async: bool, run: Any, streamed: bool) -> None:
    def sync_responder(call: ModelCall) -> Any:
        return Boom("derived failure")

    async def async_responder(call: ModelCall) -> Any:
        return Boom("derived failure")

    model = ScriptedModel([ModelStep.respond(async_responder if is_async else sync_responder)])

    with pytest.raises(Boom, match="derived failure"):
        await run(Agent(name="Assistant", model=model), "ping", streamed=streamed)


@pytest.mark.asyncio
async def test_responder_step_given_as_a_dict(run: Any, streamed: bool) -> None:
    model = ScriptedModel([{"responder": lambda call: [assistant_message("from dict responder")]}])

    result = await run(Agent(name="Assistant", model=model), "Hi", streamed=streamed)

    assert result.final_output == "from dict responder"


@pytest.mark.asyncio
async def test_responder_returning_a_malformed_form_reports_its_step(
    run: Any, streamed: bool
) -> None:
    model = ScriptedModel([[assistant_message("first")], ModelStep.respond(lambda call: 42)])
    agent = Agent(name="Assistant", model=model)
    await run(agent, "Hi", streamed=streamed)

    with pytest.raises(InvalidModelStep) as raised:
        await run(agent, "Hi again", streamed=streamed)

    assert raised.value.reason == "invalid_input"
    assert raised.value.input_index == 1
    # The SDK's own double says the same of a responder's value that is no step form.
    assert str(raised.value).startswith("Scripted model step #2 must use a sequence for output. ")
    assert len(model.calls) == 2


@pytest.mark.parametrize("shape", ["step", "awaitable", "nested"])
@pytest.mark.asyncio
async def test_responder_may_return_another_responder_step(
    shape: str, run: Any, streamed: bool
) -> None:
    seen: list[str] = []

    def inner(call: ModelCall) -> Any:
        seen.append("inner")
        return [assistant_message("from the inner responder")]

    async def awaitable_of_step(call: ModelCall) -> Any:
        seen.append("outer")
        return ModelStep.respond(inner)

    def outer(call: ModelCall) -> Any:
        if shape == "step":
            seen.append("outer")
            return ModelStep.respond(inner)
        if shape == "awaitable":
            return awaitable_of_step(call)
        seen.append("outer")
        return {"responder": lambda c: awaitable_of_step(c)}

    model = ScriptedModel([ModelStep.respond(outer)])

    result = await run(Agent(name="Assistant", model=model), "Hi", streamed=streamed)

    assert result.final_output == "from the inner responder"
    assert seen[-2:] == ["outer", "inner"]
    model.assert_complete()


@pytest.mark.asyncio
async def test_a_responder_that_only_returns_responders_is_stopped(
    run: Any, streamed: bool
) -> None:
    def forever(call: ModelCall) -> Any:
        return ModelStep.respond(forever)

    model = ScriptedModel([[assistant_message("first")], ModelStep.respond(forever)])
    agent = Agent(name="Assistant", model=model)
    await run(agent, "Hi", streamed=streamed)

    with pytest.raises(InvalidModelStep, match=r"^Scripted model step #2 is invalid: ") as raised:
        await run(agent, "Hi again", streamed=streamed)

    assert raised.value.reason == "invalid_responder"
    assert raised.value.input_index == 1


@pytest.mark.asyncio
async def test_responder_exceptions_propagate_as_they_are(run: Any, streamed: bool) -> None:
    def responder(call: ModelCall) -> Any:
        raise AssertionError("the request was not what the test expected")

    model = ScriptedModel([ModelStep.respond(responder)])

    with pytest.raises(AssertionError, match="not what the test expected"):
        await run(Agent(name="Assistant", model=model), "Hi", streamed=streamed)
    assert len(model.calls) == 1


def test_a_model_step_defaults_to_the_fixed_response_id_and_the_default_usage() -> None:
    assert ModelStep().response_id == "resp-789"
    assert ModelStep.stream([]).response_id == "resp-789"
    assert ModelStep().usage == Usage()
    assert ModelStep().output == []


@pytest.mark.asyncio
async def test_unset_usage_and_response_id_get_deterministic_defaults() -> None:
    model = ScriptedModel([[assistant_message("a")], ModelStep(output=[assistant_message("b")])])

    responses = []
    for _ in range(2):
        from agents import ModelSettings, ModelTracing

        responses.append(
            await model.get_response(
                None,
                "hi",
                ModelSettings(),
                [],
                None,
                [],
                ModelTracing.DISABLED,
                previous_response_id=None,
                conversation_id=None,
                prompt=None,
            )
        )

    assert [response.response_id for response in responses] == ["resp-789", "resp-789"]
    assert [response.usage.requests for response in responses] == [1, 1]
    assert responses[0].usage.total_tokens == 0
    assert responses[0].usage is not responses[1].usage


@pytest.mark.parametrize("usage", [None, Usage()], ids=["no usage", "all-zero usage"])
@pytest.mark.asyncio
async def test_a_step_without_usage_reports_the_default_usage(
    usage: Any, run: Any, streamed: bool
) -> None:
    default = Usage(requests=1, input_tokens=10, output_tokens=5, total_tokens=15)
    model = ScriptedModel(
        [ModelStep(output=[assistant_message("a")], usage=usage)], default_usage=default
    )

    result = await run(Agent(name="Assistant", model=model), "Hi", streamed=streamed)

    reported = _raw_responses(result)[0].usage
    assert (reported.input_tokens, reported.output_tokens, reported.total_tokens) == (10, 5, 15)
    assert _usage_of(result).requests == 1


@pytest.mark.asyncio
async def test_set_default_usage_changes_the_usage_of_later_calls(run: Any, streamed: bool) -> None:
    model = ScriptedModel([[assistant_message("a")], [assistant_message("b")]])
    agent = Agent(name="Assistant", model=model)
    first = await run(agent, "one", streamed=streamed)
    usage = Usage(requests=2, input_tokens=7, output_tokens=1, total_tokens=8)

    model.set_default_usage(usage)
    usage.input_tokens = 700  # copied when set
    second = await run(agent, "two", streamed=streamed)

    assert _usage_of(first).input_tokens == 0
    assert _usage_of(second).input_tokens == 7
    if not streamed or compat.streamed_usage_attributes()[0] is not None:
        # Streamed runs carry the request count where the SDK reads it.
        assert _usage_of(second).requests == 2


def test_set_default_usage_refuses_what_is_not_a_usage() -> None:
    model = ScriptedModel()

    with pytest.raises(InvalidModelArgument) as raised:
        model.set_default_usage({"input_tokens": 1})  # type: ignore[arg-type]

    assert raised.value.argument == "set_default_usage(usage)"


@pytest.mark.asyncio
async def test_step_usage_and_default_usage_reach_the_run_result(run: Any, streamed: bool) -> None:
    default = Usage(requests=1, input_tokens=10, output_tokens=5, total_tokens=15)
    model = ScriptedModel(
        [
            {
                "output": [assistant_message("a")],
                "usage": Usage(requests=1, input_tokens=1, output_tokens=2, total_tokens=3),
            },
        ],
        default_usage=default,
    )
    agent = Agent(name="Assistant", model=model)
    first = await run(agent, "one", streamed=streamed)
    model.enqueue([assistant_message("b")])
    second = await run(agent, "two", streamed=streamed)

    first_usage = _usage_of(first)
    second_usage = _usage_of(second)
    assert (first_usage.input_tokens, first_usage.output_tokens) == (1, 2)
    assert (second_usage.input_tokens, second_usage.output_tokens, second_usage.total_tokens) == (
        10,
        5,
        15,
    )


def _usage_of(result: Any) -> Usage:
    inner = getattr(result, "result", result)
    return inner.context_wrapper.usage  # type: ignore[no-any-return]


# -- validation before queuing ------------------------------------------------------


def _ok() -> Any:
    return [assistant_message("fine")]


# Each malformed step, the reason, and the sentence the SDK's own double says for it
# (None where that double takes the step as it is or fails otherwise).
INVALID: list[tuple[str, Any, str, str | None]] = [
    ("int", 42, "invalid_input", "must use a sequence for output."),
    ("str", "just text", "invalid_input", "must use a sequence for output."),
    (
        "bad usage",
        {"output": [], "usage": {"input_tokens": 1}},
        "invalid_input",
        "must use Usage for usage.",
    ),
    (
        "bad response_id",
        ModelStep(response_id=7),  # type: ignore[arg-type]
        "invalid_input",
        "must use a string or None for response_id.",
    ),
    (
        "bad request_id",
        ModelStep(request_id=7),  # type: ignore[arg-type]
        "invalid_input",
        "must use a string or None for request_id.",
    ),
    (
        "bad raw_usage",
        ModelStep(raw_usage=7),  # type: ignore[arg-type]
        "invalid_input",
        "must use a dictionary or None for raw_usage.",
    ),
    (
        "bad output",
        ModelStep(output=7),  # type: ignore[arg-type]
        "invalid_input",
        "must use a sequence for output.",
    ),
    ("unknown key", {"outputs": []}, "unsupported_field", "contains unsupported fields."),
    ("error not exception", {"error": "boom"}, "invalid_error", "must use an Exception for error."),
    ("exception class", Boom, "invalid_input", "must use a sequence for output."),
    (
        "responder not callable",
        {"responder": "respond"},
        "invalid_responder",
        "must use a callable responder.",
    ),
    ("events not a sequence", ModelStep.stream(42), "invalid_stream_events", None),  # type: ignore[arg-type]
    (
        "events with a dict",
        ModelStep.stream([{"type": "response.created"}]),  # type: ignore[list-item]
        "invalid_stream_events",
        None,
    ),
    (
        "error and responder",
        {"error": Boom("x"), "responder": lambda call: []},
        "conflicting_outcomes",
        "cannot combine error, responder, and stream_events outcomes.",
    ),
    (
        "error and stream events",
        ModelStep(error=Boom("x"), stream_events=[]),
        "conflicting_outcomes",
        "cannot combine error, responder, and stream_events outcomes.",
    ),
    (
        "responder and stream events",
        ModelStep(responder=lambda call: [], stream_events=[]),
        "conflicting_outcomes",
        "cannot combine error, responder, and stream_events outcomes.",
    ),
    (
        "advice not advice",
        ModelStep.raise_error(Boom("x"), retry_advice={"suggested": True}),  # type: ignore[arg-type]
        "invalid_retry_advice",
        "requires an error and a ModelRetryAdvice value.",
    ),
    (
        "advice without error",
        {"output": [], "retry_advice": ModelRetryAdvice(suggested=True)},
        "invalid_retry_advice",
        "requires an error and a ModelRetryAdvice value.",
    ),
]

# Refused only by a model made with extra_checks=True; a bare model takes them, as the
# SDK's own double does.
STRICTER: list[tuple[str, Any, str]] = [
    ("dict item", [{"type": "message", "content": "x"}], "invalid_input"),
    (
        "apply-patch dict without operation",
        [{"type": "apply_patch_call", "call_id": "c1"}],
        "invalid_input",
    ),
    (
        "error and output",
        {"error": Boom("x"), "output": [assistant_message("y")]},
        "conflicting_outcomes",
    ),
    (
        "error and response id",
        {"error": Boom("x"), "response_id": "resp_x", "usage": Usage(requests=1)},
        "conflicting_outcomes",
    ),
    (
        "responder and output",
        {"responder": lambda call: [], "output": [assistant_message("y")]},
        "conflicting_outcomes",
    ),
]


@pytest.mark.parametrize(
    ("label", "bad", "reason", "sentence"), INVALID, ids=[case[0] for case in INVALID]
)
@pytest.mark.parametrize("extra_checks", [False, True], ids=["bare", "extra_checks"])
def test_malformed_step_is_rejected_by_the_constructor(
    label: str, bad: Any, reason: str, sentence: str | None, extra_checks: bool
) -> None:
    """The message begins with the SDK double's sentence for the same step, so a test
    matching it passes with either double; our explanation follows on the same line."""
    with pytest.raises(InvalidModelStep) as raised:
        ScriptedModel([_ok(), _ok(), bad], extra_checks=extra_checks)

    assert raised.value.reason == reason
    assert raised.value.input_index == 2
    text = str(raised.value)
    assert text.startswith(f"Scripted model step #3 {sentence or 'is invalid:'} ")
    assert text.endswith(raised.value.detail[1:])
    assert "\n" not in text


@pytest.mark.parametrize(
    ("label", "bad", "reason", "sentence"), INVALID, ids=[case[0] for case in INVALID]
)
def test_malformed_step_is_never_queued_by_extend_or_enqueue(
    label: str, bad: Any, reason: str, sentence: str | None
) -> None:
    model = ScriptedModel([_ok()])

    with pytest.raises(InvalidModelStep) as extended:
        model.extend([_ok(), bad])
    with pytest.raises(InvalidModelStep) as enqueued:
        model.enqueue(bad)

    assert (extended.value.reason, extended.value.input_index) == (reason, 1)
    assert (enqueued.value.reason, enqueued.value.input_index) == (reason, 0)
    assert model.remaining_steps == 1


@pytest.mark.parametrize(("label", "bad", "reason"), STRICTER, ids=[case[0] for case in STRICTER])
def test_extra_checks_refuse_more_steps_when_queued(label: str, bad: Any, reason: str) -> None:
    model = ScriptedModel([_ok()], extra_checks=True)

    with pytest.raises(InvalidModelStep, match=r"^Scripted model step #2 is invalid: ") as extended:
        model.extend([_ok(), bad])
    with pytest.raises(InvalidModelStep) as enqueued:
        model.enqueue(bad)

    assert (extended.value.reason, extended.value.input_index) == (reason, 1)
    assert (enqueued.value.reason, enqueued.value.input_index) == (reason, 0)
    assert model.remaining_steps == 1


@pytest.mark.parametrize(("label", "bad", "reason"), STRICTER, ids=[case[0] for case in STRICTER])
def test_a_bare_model_queues_what_only_extra_checks_refuse(
    label: str, bad: Any, reason: str
) -> None:
    model = ScriptedModel([_ok(), bad])

    model.enqueue(bad)

    assert model.remaining_steps == 3


@pytest.mark.asyncio
async def test_response_fields_next_to_an_error_are_ignored_by_a_bare_model(
    run: Any, streamed: bool
) -> None:
    model = ScriptedModel(
        [{"error": Boom("down"), "output": [assistant_message("never")], "response_id": "x"}]
    )

    with pytest.raises(Boom, match="down"):
        await run(Agent(name="Assistant", model=model), "Hi", streamed=streamed)

    model.assert_complete()


@pytest.mark.asyncio
async def test_output_next_to_a_responder_is_ignored_by_a_bare_model(
    run: Any, streamed: bool
) -> None:
    model = ScriptedModel(
        [
            ModelStep(
                responder=lambda call: [assistant_message("from the responder")],
                output=[assistant_message("ignored")],
            )
        ]
    )

    result = await run(Agent(name="Assistant", model=model), "Hi", streamed=streamed)

    assert result.final_output == "from the responder"


def test_a_single_step_instead_of_a_list_of_steps_is_rejected() -> None:
    with pytest.raises(InvalidModelStep) as raised:
        ScriptedModel(assistant_message("forgot the brackets"))  # type: ignore[arg-type]

    assert raised.value.reason == "invalid_input"
    assert "[[" in str(raised.value)


def test_output_items_are_snapshotted_when_queued() -> None:
    item = assistant_message("original")
    model = ScriptedModel([[item]])
    item.content[0].text = "changed later"  # type: ignore[union-attr]

    with pytest.raises(UnconsumedModelSteps) as raised:
        model.assert_complete()
    pending = raised.value.pending_steps
    assert pending[0].output[0].content[0].text == "original"  # type: ignore[attr-defined]


def _raw_responses(result: Any) -> list[ModelResponse]:
    return list(getattr(result, "result", result).raw_responses)


@pytest.mark.asyncio
async def test_response_and_request_ids_reach_the_run_result(run: Any, streamed: bool) -> None:
    model = ScriptedModel(
        [
            {
                "output": [assistant_message("ids")],
                "response_id": "resp_custom",
                "request_id": "req_42",
            }
        ]
    )

    result = await run(Agent(name="Assistant", model=model), "Hi", streamed=streamed)

    (response,) = _raw_responses(result)
    assert response.response_id == "resp_custom"
    assert response.request_id == "req_42"


@pytest.mark.asyncio
async def test_stream_step_output_usage_and_id_serve_a_non_streamed_call(run: Any) -> None:
    usage = Usage(requests=1, input_tokens=2, output_tokens=3, total_tokens=5)
    step = ModelStep.stream(
        [], output=[assistant_message("terminal")], usage=usage, response_id="resp_stream"
    )
    model = ScriptedModel([step])

    result = await run(Agent(name="Assistant", model=model), "Hi", streamed=False)

    (response,) = _raw_responses(result)
    assert result.final_output == "terminal"
    assert response.response_id == "resp_stream"
    assert response.usage.total_tokens == 5


# -- response ids ------------------------------------------------------------------------


_CALL = function_call("get_weather", {"city": "Oslo"}, call_id="call_1")


@pytest.mark.parametrize(
    "step",
    [
        ModelStep(output=[_CALL], response_id=None),
        {"output": [_CALL], "response_id": None},
        ModelResponse(output=[_CALL], usage=Usage(requests=1), response_id=None),
    ],
    ids=["ModelStep", "dict", "ModelResponse"],
)
@pytest.mark.asyncio
async def test_a_step_without_a_response_id_gives_none_and_nothing_is_chained(
    step: Any, run: Any, streamed: bool
) -> None:
    model = ScriptedModel([step, [assistant_message("Sunny.")]])
    agent = Agent(name="Assistant", model=model, tools=[get_weather])

    result = await run(agent, "Weather?", streamed=streamed, auto_previous_response_id=True)

    assert result.final_output == "Sunny."
    assert [response.response_id for response in _raw_responses(result)] == [None, "resp-789"]
    assert model.calls[1].previous_response_id is None


@pytest.mark.parametrize(
    "step",
    [[_CALL], ModelStep(output=[_CALL]), {"output": [_CALL]}],
    ids=["sequence", "ModelStep", "dict without the key"],
)
@pytest.mark.asyncio
async def test_a_step_that_names_no_response_id_gets_the_fixed_one(
    step: Any, run: Any, streamed: bool
) -> None:
    model = ScriptedModel([step, [assistant_message("Sunny.")]])
    agent = Agent(name="Assistant", model=model, tools=[get_weather])

    result = await run(agent, "Weather?", streamed=streamed, auto_previous_response_id=True)

    assert [response.response_id for response in _raw_responses(result)] == [
        "resp-789",
        "resp-789",
    ]
    assert model.calls[1].previous_response_id == "resp-789"


# -- scripted exceptions ---------------------------------------------------------------


class Stop(BaseException):
    pass


@pytest.mark.parametrize(
    "error",
    [KeyboardInterrupt(), SystemExit(3), asyncio.CancelledError(), GeneratorExit(), Stop()],
    ids=lambda error: type(error).__name__,
)
@pytest.mark.parametrize(
    "form",
    [
        lambda error: error,
        lambda error: ModelStep.raise_error(error),
        lambda error: {"error": error},
    ],
    ids=["bare", "raise_error", "dict"],
)
def test_a_base_exception_that_is_not_an_exception_cannot_be_scripted(
    error: BaseException, form: Callable[[BaseException], Any]
) -> None:
    with pytest.raises(InvalidModelStep) as raised:
        ScriptedModel([[assistant_message("ok")], form(error)])

    assert raised.value.reason == "invalid_error"
    assert raised.value.input_index == 1
    assert "not an Exception" in str(raised.value)


@pytest.mark.asyncio
async def test_a_responder_returning_a_base_exception_fails_with_our_error(
    run: Any, streamed: bool
) -> None:
    model = ScriptedModel([ModelStep.respond(lambda call: Stop())])

    with pytest.raises(InvalidModelStep) as raised:
        await asyncio.wait_for(
            run(Agent(name="Assistant", model=model), "Hi", streamed=streamed), timeout=10
        )

    assert raised.value.reason == "invalid_error"


@pytest.mark.parametrize("streamed", [False, True], ids=["run", "run_streamed"])
def test_a_keyboard_interrupt_raised_by_a_responder_propagates(streamed: bool) -> None:
    def responder(call: ModelCall) -> Any:
        raise KeyboardInterrupt

    model = ScriptedModel([ModelStep.respond(responder)])
    agent = Agent(name="Assistant", model=model)

    async def main() -> None:
        config = RunConfig(tracing_disabled=True)
        if not streamed:
            await Runner.run(agent, "Hi", run_config=config)
            return
        result = Runner.run_streamed(agent, "Hi", run_config=config)
        async for _ in result.stream_events():
            pass

    # asyncio lets KeyboardInterrupt out of the event loop itself, so the run gets a
    # loop of its own here.
    loop = asyncio.new_event_loop()
    try:
        with pytest.raises(KeyboardInterrupt):
            loop.run_until_complete(asyncio.wait_for(main(), timeout=10))
    finally:
        _close_interrupted(loop)
    assert len(model.calls) == 1


def _close_interrupted(loop: asyncio.AbstractEventLoop) -> None:
    """Finish what the interrupted run left in ``loop``, then close it.

    Tasks and async generators left behind would otherwise be finalized by a later
    garbage collection, in whichever test happens to run then, re-raising the interrupt.
    """
    for _ in range(10):
        pending = [task for task in asyncio.all_tasks(loop) if not task.done()]
        if not pending:
            break
        for task in pending:
            task.cancel()
        with contextlib.suppress(KeyboardInterrupt, asyncio.CancelledError):
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
    with contextlib.suppress(KeyboardInterrupt):
        loop.run_until_complete(loop.shutdown_asyncgens())
    loop.close()

    # The runner's own task ended with the interrupt, which the test has already seen.
    def ignore_interrupts(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if not isinstance(context.get("exception"), KeyboardInterrupt):
            loop.default_exception_handler(context)

    loop.set_exception_handler(ignore_interrupts)
    gc.collect()


# -- snapshots of what was scripted ----------------------------------------------------


def test_a_usage_in_a_step_is_copied_when_queued() -> None:
    usage = Usage(requests=1, input_tokens=5)
    model = ScriptedModel([{"output": [assistant_message("a")], "usage": usage}])

    usage.input_tokens = 999

    with pytest.raises(UnconsumedModelSteps) as raised:
        model.assert_complete()
    pending = raised.value.pending_steps[0]
    assert isinstance(pending, ModelStep)
    assert pending.usage is not None
    assert pending.usage.input_tokens == 5


@pytest.mark.asyncio
async def test_pending_steps_are_copies_that_change_nothing_queued(run: Any) -> None:
    model = ScriptedModel(
        [
            ModelStep(
                output=[assistant_message("original")],
                usage=Usage(requests=1, input_tokens=5),
            )
        ]
    )
    with pytest.raises(UnconsumedModelSteps) as raised:
        model.assert_complete()
    pending = raised.value.pending_steps[0]
    assert isinstance(pending, ModelStep)
    assert pending.usage is not None
    pending.usage.input_tokens = 999
    pending_message = pending.output[0]
    assert isinstance(pending_message, ResponseOutputMessage)
    pending_text = pending_message.content[0]
    assert isinstance(pending_text, ResponseOutputText)
    pending_text.text = "changed"

    result = await run(Agent(name="Assistant", model=model), "Hi", streamed=False)

    assert result.final_output == "original"
    assert result.context_wrapper.usage.input_tokens == 5
    with pytest.raises(UnconsumedModelSteps):
        ScriptedModel([pending]).assert_complete()


def test_a_model_step_is_a_mutable_value() -> None:
    step = ModelStep(output=[assistant_message("a")], response_id="a")

    step.response_id = "b"

    assert step == ModelStep(output=[assistant_message("a")], response_id="b")
    assert step != ModelStep(output=[assistant_message("a")], response_id="a")
    with pytest.raises(TypeError):
        hash(step)


@pytest.mark.asyncio
async def test_changing_a_step_after_it_was_queued_changes_nothing_queued(
    run: Any, streamed: bool
) -> None:
    """Shows MOD-10."""
    usage = Usage(requests=1, input_tokens=5)
    step = ModelStep(
        output=[assistant_message("as queued")],
        usage=usage,
        response_id="resp_a",
        raw_usage={"tokens": 1},
    )
    model = ScriptedModel([step])

    step.response_id = "resp_b"
    message: Any = step.output[0]
    message.content[0].text = "changed"
    step.output.append(assistant_message("appended"))  # type: ignore[attr-defined]
    usage.input_tokens = 500
    step.usage = Usage(requests=9)
    assert step.raw_usage is not None
    step.raw_usage["tokens"] = 2  # type: ignore[index]

    result = await run(Agent(name="Assistant", model=model), "Hi", streamed=streamed)

    (response,) = _raw_responses(result)
    assert result.final_output == "as queued"
    assert response.response_id == "resp_a"
    assert response.usage.input_tokens == 5
    assert len(response.output) == 1


def test_changing_queued_retry_advice_or_stream_events_changes_nothing_queued() -> None:
    advice = ModelRetryAdvice(suggested=True)
    events: list[Any] = []
    failing = ModelStep.raise_error(Boom("x"), retry_advice=advice)
    streaming = ModelStep.stream(events, output=[assistant_message("a")])
    model = ScriptedModel([failing, streaming])

    advice.suggested = False
    events.append("not an event")
    failing.retry_advice = None

    first, second = model.pending_steps
    assert first.retry_advice is not None
    assert first.retry_advice.suggested is True
    assert second.stream_events == []


@pytest.mark.asyncio
async def test_stream_freezes_the_events_it_was_given_when_the_step_is_built() -> None:
    """MOD-17: ``ModelStep.stream(events)`` keeps a tuple made when the step is built, so
    emptying the caller's list afterwards changes neither the step nor the streamed run."""
    from agents.testing.model import _stream_events_for_step  # type: ignore[attr-defined]

    events = list(
        _stream_events_for_step(
            ModelStep(output=[assistant_message("streamed")]), preserve_raw_usage=False
        )
    )
    frozen = tuple(events)
    step = ModelStep.stream(events, output=[assistant_message("not streamed")])
    events.clear()

    assert step.stream_events == frozen
    assert isinstance(step.stream_events, tuple)
    result = Runner.run_streamed(
        Agent(name="a", model=ScriptedModel([step])),
        "hi",
        run_config=RunConfig(tracing_disabled=True),
    )
    async for _ in result.stream_events():
        pass
    assert result.final_output == "streamed"


# -- constructor arguments -------------------------------------------------------------


@pytest.mark.parametrize("value", [1, 0, "yes", None, [True]])
def test_emit_traces_must_be_a_bool(value: Any) -> None:
    with pytest.raises(InvalidModelArgument) as raised:
        ScriptedModel(emit_traces=value)

    assert raised.value.argument == "emit_traces"
    assert raised.value.expected == "a bool"
    assert str(raised.value).startswith("Invalid argument emit_traces: expected a bool, got ")


@pytest.mark.parametrize("value", [{"input_tokens": 1}, 5, "usage"])
def test_default_usage_must_be_a_usage(value: Any) -> None:
    with pytest.raises(InvalidModelArgument) as raised:
        ScriptedModel(default_usage=value)

    assert raised.value.argument == "default_usage"
    assert isinstance(raised.value, ModelScriptError)


def test_a_malformed_default_usage_names_the_field() -> None:
    usage = Usage()
    usage.output_tokens = [1]  # type: ignore[assignment]

    with pytest.raises(InvalidModelArgument, match=r"default_usage\.output_tokens"):
        ScriptedModel(default_usage=usage)


@pytest.mark.parametrize("steps", [5, "text", {"output": []}, None, assistant_message("x")])
def test_steps_that_are_not_a_sequence_of_steps_are_rejected(steps: Any) -> None:
    with pytest.raises(InvalidModelStep) as raised:
        ScriptedModel(steps)

    assert raised.value.reason == "invalid_input"


@pytest.mark.parametrize("how", ["enqueue", "extend"])
@pytest.mark.asyncio
async def test_steps_added_later_are_snapshotted_too(how: str, run: Any, streamed: bool) -> None:
    message = assistant_message("as queued")
    usage = Usage(requests=1, output_tokens=4)
    step = {"output": [message], "usage": usage}
    model = ScriptedModel()
    if how == "enqueue":
        model.enqueue(step)
    else:
        model.extend([step])

    message.content[0].text = "changed"  # type: ignore[union-attr]
    usage.output_tokens = 400

    result = await run(Agent(name="Assistant", model=model), "Hi", streamed=streamed)

    assert result.final_output == "as queued"
    assert _raw_responses(result)[0].usage.output_tokens == 4
