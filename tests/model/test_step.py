"""Every step form through both runner modes, and the validation of malformed steps."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from agents import Agent, ModelResponse, ModelRetryAdvice, Usage
from agents.testing import (
    InvalidModelStep,
    ModelCall,
    ModelScriptError,
    ModelStep,
    ScriptedModel,
    UnconsumedModelSteps,
    assistant_message,
)

from agents_testing.core import compat


class Boom(RuntimeError):
    pass


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
    assert str(raised.value).startswith("Model step 2 is invalid")
    assert len(model.calls) == 2


@pytest.mark.asyncio
async def test_responder_returning_another_responder_is_rejected(run: Any, streamed: bool) -> None:
    inner = ModelStep.respond(lambda call: [assistant_message("too deep")])
    model = ScriptedModel([[assistant_message("first")], ModelStep.respond(lambda call: inner)])
    agent = Agent(name="Assistant", model=model)
    await run(agent, "Hi", streamed=streamed)

    with pytest.raises(InvalidModelStep) as raised:
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


@pytest.mark.asyncio
async def test_unset_usage_and_response_id_get_deterministic_defaults() -> None:
    model = ScriptedModel([[assistant_message("a")], [assistant_message("b")]])

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

    assert [response.response_id for response in responses] == [
        "resp_scripted_1",
        "resp_scripted_2",
    ]
    assert [response.usage.requests for response in responses] == [1, 1]
    assert responses[0].usage.total_tokens == 0


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


INVALID: list[tuple[str, Any, str]] = [
    ("int", 42, "invalid_input"),
    ("str", "just text", "invalid_input"),
    ("dict item", [{"type": "message", "content": "x"}], "invalid_input"),
    ("bad usage", {"output": [], "usage": {"input_tokens": 1}}, "invalid_input"),
    ("bad response_id", ModelStep(response_id=7), "invalid_input"),  # type: ignore[arg-type]
    ("bad output", ModelStep(output="text"), "invalid_input"),  # type: ignore[arg-type]
    ("unknown key", {"outputs": []}, "unsupported_field"),
    ("error not exception", {"error": "boom"}, "invalid_error"),
    ("exception class", Boom, "invalid_error"),
    ("responder not callable", {"responder": "respond"}, "invalid_responder"),
    ("events not a sequence", ModelStep.stream(42), "invalid_stream_events"),  # type: ignore[arg-type]
    (
        "events with a dict",
        ModelStep.stream([{"type": "response.created"}]),  # type: ignore[list-item]
        "invalid_stream_events",
    ),
    (
        "error and output",
        {"error": Boom("x"), "output": [assistant_message("y")]},
        "conflicting_outcomes",
    ),
    (
        "responder and output",
        {"responder": lambda call: [], "output": [assistant_message("y")]},
        "conflicting_outcomes",
    ),
    (
        "error and responder",
        {"error": Boom("x"), "responder": lambda call: []},
        "conflicting_outcomes",
    ),
    (
        "advice not advice",
        ModelStep.raise_error(Boom("x"), retry_advice={"suggested": True}),  # type: ignore[arg-type]
        "invalid_retry_advice",
    ),
    (
        "advice without error",
        {"output": [], "retry_advice": ModelRetryAdvice(suggested=True)},
        "invalid_retry_advice",
    ),
]


@pytest.mark.parametrize(("label", "bad", "reason"), INVALID, ids=[case[0] for case in INVALID])
def test_malformed_step_is_rejected_by_the_constructor(label: str, bad: Any, reason: str) -> None:
    with pytest.raises(InvalidModelStep) as raised:
        ScriptedModel([_ok(), _ok(), bad])

    assert raised.value.reason == reason
    assert raised.value.input_index == 2
    assert str(raised.value).startswith("Model step 3 is invalid")


@pytest.mark.parametrize(("label", "bad", "reason"), INVALID, ids=[case[0] for case in INVALID])
def test_malformed_step_is_never_queued_by_extend_or_enqueue(
    label: str, bad: Any, reason: str
) -> None:
    model = ScriptedModel([_ok()])

    with pytest.raises(InvalidModelStep) as extended:
        model.extend([_ok(), bad])
    with pytest.raises(InvalidModelStep) as enqueued:
        model.enqueue(bad)

    assert (extended.value.reason, extended.value.input_index) == (reason, 1)
    assert (enqueued.value.reason, enqueued.value.input_index) == (reason, 0)
    assert model.remaining_steps == 1


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


@pytest.mark.skipif(
    not compat.model_response_has_raw_usage(),
    reason="ModelResponse.raw_usage exists only in newer SDK releases",
)
@pytest.mark.asyncio
async def test_raw_usage_reaches_the_model_response(run: Any) -> None:
    model = ScriptedModel(
        [{"output": [assistant_message("raw")], "raw_usage": {"input_tokens": 9}}]
    )

    result = await run(Agent(name="Assistant", model=model), "Hi", streamed=False)

    (response,) = _raw_responses(result)
    assert response.raw_usage == {"input_tokens": 9}


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


def test_default_usage_must_be_a_usage() -> None:
    with pytest.raises(ModelScriptError, match="default_usage"):
        ScriptedModel(default_usage={"input_tokens": 1})  # type: ignore[arg-type]
