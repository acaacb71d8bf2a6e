"""Responders and strict stream factories at call time: their shape, and closing streams."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from agents import Agent, ModelSettings, ModelTracing, RunConfig
from agents.testing import (
    InvalidModelStep,
    ModelCall,
    ModelStep,
    ScriptedModel,
    assistant_message,
)
from openai.types.responses import Response, ResponseCreatedEvent


def _created(number: int = 0) -> ResponseCreatedEvent:
    return ResponseCreatedEvent(
        type="response.created",
        sequence_number=number,
        response=Response(
            id="resp_1",
            object="response",
            created_at=0.0,
            model="scripted-model",
            output=[],
            parallel_tool_calls=False,
            tool_choice="auto",
            tools=[],
            status="in_progress",
        ),
    )


def _two_arguments(call: ModelCall, extra: int) -> Any:
    return [assistant_message("never")]


@pytest.mark.parametrize(
    "responder",
    [UnicodeDecodeError, KeyError, _two_arguments, lambda: [assistant_message("x")]],
    ids=["UnicodeDecodeError", "KeyError", "two arguments", "no argument"],
)
@pytest.mark.parametrize("place", ["respond", "dict", "stream factory"])
def test_a_responder_of_the_wrong_shape_is_rejected_when_queued(responder: Any, place: str) -> None:
    if place == "respond":
        step: Any = ModelStep.respond(responder)
    elif place == "dict":
        step = {"responder": responder}
    else:
        step = ModelStep.stream(responder)

    with pytest.raises(InvalidModelStep) as raised:
        ScriptedModel([[assistant_message("ok")], step])

    assert raised.value.reason == (
        "invalid_stream_events" if place == "stream factory" else "invalid_responder"
    )
    assert raised.value.input_index == 1


@pytest.mark.asyncio
async def test_a_responder_whose_shape_shows_only_when_called_fails_with_our_error(
    run: Any, streamed: bool
) -> None:
    # A builtin without a signature: it can only be found out by calling it.
    responder = getattr
    model = ScriptedModel([ModelStep.respond(responder)])  # type: ignore[arg-type]

    with pytest.raises(InvalidModelStep) as raised:
        await run(Agent(name="Assistant", model=model), "Hi", streamed=streamed)

    assert raised.value.reason == "invalid_responder"
    assert isinstance(raised.value.__cause__, TypeError)
    assert str(raised.value).startswith("Scripted model step #1 is invalid: calling the responder")


@pytest.mark.asyncio
async def test_a_type_error_from_inside_a_responder_propagates_as_it_is(
    run: Any, streamed: bool
) -> None:
    def responder(call: ModelCall) -> Any:
        return len(5)  # type: ignore[arg-type]

    model = ScriptedModel([ModelStep.respond(responder)])

    with pytest.raises(TypeError, match="has no len"):
        await run(Agent(name="Assistant", model=model), "Hi", streamed=streamed)


def _open_stream(model: ScriptedModel) -> Any:
    return model.stream_response(
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


@pytest.mark.asyncio
async def test_closing_the_model_stream_closes_the_factory_stream() -> None:
    closed: list[str] = []

    async def factory(call: ModelCall) -> AsyncIterator[Any]:
        try:
            yield _created(0)
            yield _created(1)
        finally:
            closed.append("factory stream")

    stream = _open_stream(ScriptedModel([ModelStep.stream(factory)]))
    await stream.__anext__()
    await stream.aclose()

    assert closed == ["factory stream"]


class _FailingClose:
    """An async iterator of one event whose ``aclose`` fails."""

    def __init__(self) -> None:
        self.sent = False

    def __aiter__(self) -> _FailingClose:
        return self

    async def __anext__(self) -> Any:
        if self.sent:
            raise StopAsyncIteration
        self.sent = True
        return _created(0)

    async def aclose(self) -> None:
        raise OSError("could not close the stream")


class _StuckWithFailingClose:
    """An async iterator that waits forever for its first event and cannot be closed."""

    def __init__(self, started: asyncio.Event) -> None:
        self.started = started
        self.close_attempts = 0

    def __aiter__(self) -> _StuckWithFailingClose:
        return self

    async def __anext__(self) -> Any:
        self.started.set()
        await asyncio.Event().wait()

    async def aclose(self) -> None:
        self.close_attempts += 1
        raise OSError("could not close the stream")


@pytest.mark.asyncio
async def test_cancellation_survives_a_factory_stream_whose_close_fails() -> None:
    started = asyncio.Event()
    stuck = _StuckWithFailingClose(started)
    model = ScriptedModel([ModelStep.stream(lambda call: stuck)])
    stream = _open_stream(model)

    async def consume() -> None:
        async for _ in stream:
            pass

    task = asyncio.ensure_future(consume())
    await asyncio.wait_for(started.wait(), timeout=10)
    task.cancel()

    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, timeout=10)
    assert stuck.close_attempts == 1


@pytest.mark.asyncio
async def test_a_close_failure_after_the_factory_stream_is_exhausted_surfaces(
    run: Any,
) -> None:
    model = ScriptedModel([ModelStep.stream(lambda call: _FailingClose())])

    with pytest.raises(OSError, match="could not close the stream"):
        await run(Agent(name="Assistant", model=model), "Hi", streamed=True)


@pytest.mark.asyncio
async def test_a_cancelled_streamed_run_closes_the_factory_stream(run: Any) -> None:
    started = asyncio.Event()
    closed: list[str] = []

    async def factory(call: ModelCall) -> AsyncIterator[Any]:
        try:
            yield _created(0)
            started.set()
            await asyncio.Event().wait()
        finally:
            closed.append("factory stream")

    model = ScriptedModel([ModelStep.stream(factory)])
    from agents import Runner

    result = Runner.run_streamed(
        Agent(name="Assistant", model=model), "Hi", run_config=RunConfig(tracing_disabled=True)
    )

    async def drain() -> None:
        async for _ in result.stream_events():
            if started.is_set():
                result.cancel()

    await asyncio.wait_for(drain(), timeout=10)

    assert closed == ["factory stream"]


@pytest.mark.asyncio
async def test_a_factory_returning_something_else_fails_with_our_error(run: Any) -> None:
    model = ScriptedModel([ModelStep.stream(lambda call: 42)])  # type: ignore[arg-type, return-value]

    with pytest.raises(InvalidModelStep) as raised:
        await run(Agent(name="Assistant", model=model), "Hi", streamed=True)

    assert raised.value.reason == "invalid_stream_events"
    assert "factory returned int 42" in str(raised.value)
