"""Fault errors are the installed openai client's own, as a real provider model meets them.

Each fault is compared with its production twin: the SDK's real ``OpenAIResponsesModel``
on the real ``AsyncOpenAI`` client, talking HTTP to a local server that answers with the
same status, headers and body, or drops the connection part-way. Both go through the
runner, and the runner surfaces the same exception (class, message, status, body,
headers, cause) and the model gives the same retry advice — on openai 2 (httpx) and
openai 3 (httpx2) alike.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import openai
import pytest
from agents import Agent, ModelRetryAdvice
from agents.models.openai_responses import OpenAIResponsesModel
from agents.retry import ModelRetryAdviceRequest
from openai import AsyncOpenAI

from agents_testing.model import (
    ModelFault,
    ModelStep,
    ScriptedModel,
    assistant_message,
    connection_reset,
    rate_limit,
    request_timeout,
    server_error,
    stream_cut,
)

from .._openai_server import OpenAIServer, Turn, cut, failure, message
from ..conftest import run_agent

KEY = "test-key"


def _http() -> ModuleType:
    """The HTTP library the installed openai client runs on (httpx, or httpx2)."""
    client = AsyncOpenAI(api_key=KEY)
    roots = [base.__module__.partition(".")[0] for base in type(client._client).__mro__]
    return importlib.import_module(next(root for root in roots if root.startswith("httpx")))


# What a model call can fail with here: the client's errors, and on openai 2 the HTTP
# library's own error for a stream whose connection dropped.
FAILURES = (openai.APIError, _http().RemoteProtocolError)


async def _failure_of(agent: Agent[Any], *, streamed: bool) -> Any:
    with pytest.raises(FAILURES) as caught:
        await run_agent(agent, "Book me a flight.", streamed=streamed)
    return caught.value


async def production_failure(turn: Turn, *, streamed: bool) -> tuple[Any, Any]:
    """What the runner raises when the SDK's OpenAI model meets ``turn`` on the wire."""
    with OpenAIServer([turn]) as server:
        real = OpenAIResponsesModel(
            "gpt-4.1", AsyncOpenAI(api_key=KEY, base_url=server.base_url, max_retries=0)
        )
        error = await _failure_of(Agent(name="Desk", model=real), streamed=streamed)
    return error, real


async def scripted_failure(step: ModelStep, *, streamed: bool) -> tuple[Any, ScriptedModel]:
    """What the runner raises when a scripted model answers with the fault ``step``."""
    model = ScriptedModel([step])
    error = await _failure_of(Agent(name="Desk", model=model), streamed=streamed)
    return error, model


def _advice(model: Any, error: Exception, *, streamed: bool) -> ModelRetryAdvice | None:
    advice: ModelRetryAdvice | None = model.get_retry_advice(
        ModelRetryAdviceRequest(error=error, attempt=1, stream=streamed)
    )
    return advice


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("fault", "status", "headers"),
    [
        (rate_limit(retry_after=3), 429, {"retry-after": "3"}),
        (
            rate_limit(retry_after=None, headers={"retry-after-ms": "1500"}),
            429,
            {"retry-after-ms": "1500"},
        ),
        (server_error(), 500, {}),
        (server_error(502), 502, {}),
        (server_error(503, retry_after=2.5), 503, {"retry-after": "2.5"}),
        (server_error(504, headers={"x-should-retry": "false"}), 504, {"x-should-retry": "false"}),
    ],
    ids=["429", "429-retry-after-ms", "500", "502", "503-retry-after", "504-should-not-retry"],
)
async def test_an_http_fault_raises_what_the_client_raises_for_that_answer(
    fault: ModelStep, status: int, headers: dict[str, str], streamed: bool
) -> None:
    fault_of_step = fault.responder
    assert isinstance(fault_of_step, ModelFault)
    body = fault_of_step.body
    wire = failure(
        status, "", headers={**headers, "x-request-id": "req_scripted_fault"}, error=body
    )
    real, real_model = await production_failure(wire, streamed=streamed)

    ours, model = await scripted_failure(fault, streamed=streamed)

    assert isinstance(real, openai.APIStatusError)
    assert type(ours) is type(real)
    assert isinstance(ours, openai.RateLimitError if status == 429 else openai.InternalServerError)
    assert str(ours) == str(real)
    assert (ours.status_code, ours.body, ours.request_id) == (
        real.status_code,
        real.body,
        real.request_id,
    )
    assert type(ours.response) is type(real.response)
    for name, value in headers.items():
        assert ours.response.headers[name] == real.response.headers[name] == value
    assert (ours.request.method, ours.request.url.path) == ("POST", real.request.url.path)
    assert ours.__cause__ is None
    assert ours.__suppress_context__
    # The SDK's OpenAI model advises on both errors alike; a bare model would give none.
    assert _advice(model, ours, streamed=streamed) == _advice(real_model, real, streamed=streamed)


@pytest.mark.asyncio
async def test_a_stream_cut_raises_what_the_client_raises_when_the_connection_drops(
    streamed: bool,
) -> None:
    real, real_model = await production_failure(
        cut(message("Your flight is booked."), 3), streamed=streamed
    )

    ours, model = await scripted_failure(
        stream_cut(3, [assistant_message("Your flight is booked.")]), streamed=streamed
    )

    # openai 3 wraps it in APIConnectionError everywhere; openai 2 lets the HTTP library's
    # RemoteProtocolError out of a stream.
    assert type(ours) is type(real)
    assert str(ours) == str(real)
    assert type(ours.__cause__) is type(real.__cause__) or isinstance(
        ours, _http().RemoteProtocolError
    )
    assert _advice(model, ours, streamed=streamed) == _advice(real_model, real, streamed=streamed)


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("fault", "kind", "message", "cause", "timeout"),
    [
        (request_timeout(), openai.APITimeoutError, "Request timed out.", "ReadTimeout", True),
        (connection_reset(), openai.APIConnectionError, "Connection error.", "ReadError", False),
    ],
    ids=["timeout", "reset"],
)
async def test_a_transport_fault_raises_the_clients_error_caused_by_the_transports(
    fault: ModelStep,
    kind: type[openai.APIConnectionError],
    message: str,
    cause: str,
    timeout: bool,
    streamed: bool,
) -> None:
    ours, model = await scripted_failure(fault, streamed=streamed)

    assert type(ours) is kind
    assert str(ours) == message
    assert type(ours.__cause__) is getattr(_http(), cause)
    assert ours.request.url == "https://api.openai.com/v1/responses"
    advice = _advice(model, ours, streamed=streamed)
    assert advice is not None
    assert advice.suggested is True
    assert advice.normalized is not None
    assert advice.normalized.is_network_error is True
    assert advice.normalized.is_timeout is timeout


@pytest.mark.asyncio
async def test_a_fault_without_advice_gets_none_and_a_fixed_advice_is_handed_out_fresh() -> None:
    silent, model = await scripted_failure(rate_limit(retry_advice=None), streamed=False)
    assert _advice(model, silent, streamed=False) is None

    fixed = ModelRetryAdvice(suggested=False, reason="quota exhausted")
    vetoed, model = await scripted_failure(rate_limit(retry_advice=fixed), streamed=False)
    first = _advice(model, vetoed, streamed=False)
    assert first == fixed
    assert first is not fixed
    assert first is not None
    first.suggested = True
    assert _advice(model, vetoed, streamed=False) == fixed


@pytest.mark.asyncio
async def test_a_bare_double_gives_no_advice_for_a_client_error_it_did_not_make() -> None:
    """Drop-in: advice comes only with our fault builders, never for a scripted error."""
    fault_error, _ = await scripted_failure(rate_limit(), streamed=False)
    plain = type(fault_error)(
        str(fault_error), response=fault_error.response, body=fault_error.body
    )
    model = ScriptedModel([ModelStep.raise_error(plain)])

    error = await _failure_of(Agent(name="Desk", model=model), streamed=False)

    assert error is plain
    assert _advice(model, error, streamed=False) is None
