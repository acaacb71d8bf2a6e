"""Fault builders check their arguments when called and say what they built."""

from __future__ import annotations

import math
import pickle
from typing import Any

import pytest
from agents import ModelRetryAdvice
from openai.types.responses import ResponseCompletedEvent

from agents_testing.model import (
    InvalidModelArgument,
    InvalidModelStep,
    ModelFault,
    ModelStep,
    ScriptedModel,
    _stream_events_for_step,
    answer_after,
    assistant_message,
    code_interpreter_call,
    connection_reset,
    rate_limit,
    request_timeout,
    server_error,
    stream_cut,
)


@pytest.mark.parametrize(
    ("build", "argument", "got"),
    [
        (lambda: rate_limit(delay=-1), "rate_limit(delay)", "-1"),
        (lambda: rate_limit(retry_after=-0.5), "rate_limit(retry_after)", "-0.5"),
        (lambda: rate_limit(retry_after=math.nan), "rate_limit(retry_after)", "nan"),
        (lambda: rate_limit(delay=True), "rate_limit(delay)", "bool True"),
        (lambda: rate_limit(message=3), "rate_limit(message)", "int 3"),  # type: ignore[arg-type]
        (lambda: rate_limit(headers={"x": 1}), "rate_limit(headers)", "dict {'x': 1}"),  # type: ignore[dict-item]
        (lambda: server_error(404), "server_error(status)", "int 404"),
        (lambda: server_error(True), "server_error(status)", "bool True"),
        (lambda: server_error(delay=math.inf), "server_error(delay)", "inf"),
        (lambda: request_timeout(delay="5"), "request_timeout(delay)", "str '5'"),  # type: ignore[arg-type]
        (lambda: connection_reset(retry_advice="always"), "connection_reset(retry_advice)", "str"),  # type: ignore[arg-type]
        (lambda: stream_cut(-1), "stream_cut(after)", "int -1"),
        (lambda: stream_cut(2.5), "stream_cut(after)", "float 2.5"),  # type: ignore[call-overload]
        (lambda: answer_after(-30), "answer_after(seconds)", "-30"),
    ],
)
def test_a_bad_argument_is_refused_when_the_fault_is_built(
    build: Any, argument: str, got: str
) -> None:
    with pytest.raises(InvalidModelArgument) as caught:
        build()

    assert caught.value.argument == argument
    assert caught.value.got.startswith(got)
    assert str(caught.value).startswith(f"Invalid argument {argument}: expected ")
    assert isinstance(caught.value, TypeError)


def test_an_unknown_status_names_the_ones_a_server_error_can_have() -> None:
    with pytest.raises(InvalidModelArgument, match="expected one of 500, 502, 503, 504, got"):
        server_error(418)


def test_a_cut_after_more_events_than_the_stream_has_is_refused() -> None:
    events = _stream_events_for_step(
        ModelStep(output=[assistant_message("Hi")]), preserve_raw_usage=False
    )
    assert isinstance(events[-1], ResponseCompletedEvent)

    # The last event the connection can drop before is response.completed.
    assert stream_cut(len(events) - 1, [assistant_message("Hi")]).responder is not None
    for after in (len(events), len(events) + 5):
        with pytest.raises(InvalidModelArgument) as caught:
            stream_cut(after, [assistant_message("Hi")])
        assert caught.value.argument == "stream_cut(after)"
        assert f"the {len(events)} the step streams" in caught.value.expected


def test_a_cut_of_exact_events_counts_those_events() -> None:
    events = _stream_events_for_step(
        ModelStep(output=[assistant_message("Hi")]), preserve_raw_usage=False
    )[:3]

    stream_cut(2, ModelStep.stream(events))
    with pytest.raises(InvalidModelArgument, match="the 3 the step streams"):
        stream_cut(3, ModelStep.stream(events))


@pytest.mark.parametrize(
    ("step", "got"),
    [
        (ModelStep.respond(lambda call: [assistant_message("Hi")]), "a responder step"),
        (ModelStep.raise_error(RuntimeError("down")), "an error step"),
        ([code_interpreter_call("print(1)")], "Automatic streaming does not support"),
        ("not a step", "str 'not a step'; a step is a ModelStep"),
    ],
    ids=["responder", "error", "unstreamable", "not-a-step"],
)
def test_a_cut_needs_a_step_whose_events_are_known_now(step: Any, got: str) -> None:
    with pytest.raises(InvalidModelArgument) as caught:
        stream_cut(1, step)

    assert caught.value.argument == "stream_cut(step)"
    assert got in caught.value.got


def test_a_slow_answer_checks_its_step_when_built() -> None:
    with pytest.raises(InvalidModelArgument) as caught:
        answer_after(5, {"outputs": []})

    assert caught.value.argument == "answer_after(step)"
    assert "unknown key" in caught.value.got
    assert isinstance(caught.value.__cause__, InvalidModelStep)


def test_a_fault_says_what_it_is() -> None:
    fault = rate_limit(retry_after=3, headers={"X-Should-Retry": "true"}).responder
    assert isinstance(fault, ModelFault)

    assert repr(fault) == "rate_limit(retry_after=3.0, headers={'X-Should-Retry': 'true'})"
    assert (fault.kind, fault.status, fault.delay, fault.after) == ("rate_limit", 429, 0.0, None)
    assert fault.headers == {
        "x-request-id": "req_scripted_fault",
        "retry-after": "3",
        "x-should-retry": "true",
    }
    assert fault.body == {
        "error": {
            "message": "Rate limit reached for requests. Please try again later.",
            "type": "requests",
            "param": None,
            "code": "rate_limit_exceeded",
        }
    }
    assert fault.retry_advice == "openai"
    assert repr(server_error(503).responder) == "server_error(status=503)"
    assert repr(request_timeout().responder) == "request_timeout()"
    assert repr(stream_cut(4)) == "stream_cut(after=4)"
    assert repr(answer_after(30)) == "answer_after(seconds=30.0)"


def test_what_a_fault_hands_out_is_a_copy() -> None:
    advice = ModelRetryAdvice(suggested=False, reason="quota")
    step = stream_cut(1, [assistant_message("Hi")], retry_advice=advice)
    fault = step.responder
    assert isinstance(fault, ModelFault)
    advice.reason = "changed"

    assert fault.retry_advice == ModelRetryAdvice(suggested=False, reason="quota")
    assert fault.step is not None
    assert fault.step is not fault.step
    limit = rate_limit().responder
    assert isinstance(limit, ModelFault)
    body = limit.body
    assert body is not None
    body["error"]["message"] = "changed"
    assert limit.body == rate_limit().responder.body  # type: ignore[union-attr]


def test_a_fault_for_a_schedule_only_is_refused_as_a_scripted_step() -> None:
    # Without a step of its own, a cut or a slow answer stands in front of the model's
    # next step, which only a FaultSchedule has.
    with pytest.raises(InvalidModelStep) as caught:
        ScriptedModel([answer_after(30)])  # type: ignore[list-item]
    assert caught.value.reason == "invalid_input"
    assert "answer_after(seconds=30.0)" in str(caught.value)


def test_a_scripted_fault_step_survives_pickling_of_its_error_fields() -> None:
    with pytest.raises(InvalidModelArgument) as caught:
        rate_limit(delay=-1)
    copy = pickle.loads(pickle.dumps(caught.value))
    assert (copy.argument, copy.expected, copy.got) == (
        caught.value.argument,
        caught.value.expected,
        caught.value.got,
    )
