"""Record through the SDK's real OpenAI models on a local server, then replay with no network.

The scenario crosses a handoff, a function tool, a provider error retried by the
runner's retry policy and a final message, over the Responses API and the Chat
Completions API, with ``Runner.run`` and ``Runner.run_streamed``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from agents import (
    Agent,
    ModelRetrySettings,
    ModelSettings,
    RunConfig,
    Runner,
    function_tool,
    retry_policies,
)
from agents.items import TResponseInputItem
from agents.models.openai_chatcompletions import OpenAIChatCompletionsModel
from agents.models.openai_responses import OpenAIResponsesModel
from agents.result import RunResult, RunResultStreaming
from agents.stream_events import StreamEvent
from openai import AsyncOpenAI
from pydantic import BaseModel

from agents_testing.core._guard.requests import RequestGuard
from agents_testing.model import (
    CassetteModel,
    ModelCassette,
    ModelRequestMismatch,
    ScriptedModel,
    UnexpectedModelCall,
    assistant_message,
)

from .._openai_server import OpenAIServer, failure, message, tool_call

KEY = "sk-test-" + "k3y" * 8

TURNS = [
    tool_call("transfer_to_booking_desk", "{}", "call_handoff"),
    tool_call("search_flights", '{"city": "Paris"}', "call_search"),
    failure(500, "The server is overloaded."),
    message("AF1 leaves for Paris at 9:00."),
]


@function_tool
def search_flights(city: str) -> str:
    """Find flights to a city."""
    return f"AF1 to {city} at 9:00"


def make_agents(model: Any, *, instructions: str = "Book flights.") -> Agent[Any]:
    retry = ModelRetrySettings(
        max_retries=1,
        backoff={"initial_delay": 0.0, "max_delay": 0.0, "jitter": False},
        policy=retry_policies.http_status([500]),
    )
    booking = Agent(
        name="Booking desk",
        instructions=instructions,
        model=model,
        tools=[search_flights],
        model_settings=ModelSettings(retry=retry),
    )
    return Agent(
        name="Triage",
        instructions="Send booking questions to the booking desk.",
        model=model,
        handoffs=[booking],
    )


def real_model(api: str, base_url: str) -> Any:
    client = AsyncOpenAI(api_key=KEY, base_url=base_url, max_retries=0, organization="org-9x8y7z6w")
    if api == "responses":
        return OpenAIResponsesModel("gpt-test", client)
    return OpenAIChatCompletionsModel("gpt-test", client)


class Outcome:
    """What a run showed: final output, items, usage and (streamed) the event sequence."""

    def __init__(self, result: RunResult | RunResultStreaming, events: list[StreamEvent]) -> None:
        self.final_output = result.final_output
        self.items = [
            (item.type, item.raw_item if isinstance(item.raw_item, dict) else _dump(item.raw_item))
            for item in result.new_items
        ]
        usage = result.context_wrapper.usage
        self.usage = (usage.requests, usage.input_tokens, usage.output_tokens, usage.total_tokens)
        self.events = [_event(event) for event in events]


def _dump(value: Any) -> Any:
    return value.model_dump(mode="json", exclude_unset=True)


def _event(event: StreamEvent) -> Any:
    if event.type == "raw_response_event":
        data = _dump(event.data)
        response = data.get("response")
        if isinstance(response, dict):
            # The Chat Completions adapter stamps the clock here; cassettes write 0.
            response.pop("created_at", None)
        return (event.type, data)
    if event.type == "run_item_stream_event":
        raw = event.item.raw_item
        return (event.type, event.name, raw if isinstance(raw, dict) else _dump(raw))
    return (event.type, event.new_agent.name)


async def run(agent: Agent[Any], text: str, *, streamed: bool, **kwargs: Any) -> Outcome:
    config = RunConfig(tracing_disabled=True, **kwargs)
    if not streamed:
        return Outcome(await Runner.run(agent, text, run_config=config), [])
    result = Runner.run_streamed(agent, text, run_config=config)
    events = [event async for event in result.stream_events()]
    return Outcome(result, events)


@pytest.fixture(params=["responses", "chat_completions"])
def api(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    with OpenAIServer(list(TURNS)) as running:
        yield running


async def record(api: str, path: Path, *, streamed: bool, **options: Any) -> Outcome:
    with OpenAIServer(list(TURNS)) as server:
        cassette = ModelCassette(path, **options)
        model = cassette.record(real_model(api, server.base_url))
        outcome = await run(make_agents(model), "A flight to Paris?", streamed=streamed)
        assert len(server.requests) == 4
        cassette.save()
    return outcome


@pytest.mark.asyncio
async def test_a_recorded_run_replays_the_same_with_no_network_and_the_guard_on(
    api: str, streamed: bool, tmp_path: Path
) -> None:
    path = tmp_path / "booking.json"
    recorded = await record(api, path, streamed=streamed)

    with RequestGuard("replay") as guard:
        model = ModelCassette(path).replay()
        replayed = await run(make_agents(model), "A flight to Paris?", streamed=streamed)

    assert guard.attempts == []
    assert isinstance(model, ScriptedModel)
    model.assert_complete()
    assert len(model.calls) == 4
    assert recorded.final_output == replayed.final_output == "AF1 leaves for Paris at 9:00."
    assert replayed.items == recorded.items
    assert ("tool_call_output_item", _output("call_search")) in [
        (kind, _output(raw.get("call_id"))) for kind, raw in replayed.items if "output" in raw
    ]
    assert replayed.usage == recorded.usage
    assert replayed.events == recorded.events
    if streamed:
        assert len(replayed.events) > 10


def _output(call_id: object) -> object:
    return call_id


@pytest.mark.asyncio
async def test_record_replay_and_rerecord_give_the_same_bytes(
    api: str, streamed: bool, tmp_path: Path
) -> None:
    first = tmp_path / "first.json"
    await record(api, first, streamed=streamed)
    again = tmp_path / "again.json"
    await record(api, again, streamed=streamed)

    from_replay = ModelCassette(tmp_path / "from_replay.json")
    model = from_replay.record(ModelCassette(first).replay())
    await run(make_agents(model), "A flight to Paris?", streamed=streamed)
    from_replay.save()

    text = first.read_text(encoding="utf-8")
    assert again.read_text(encoding="utf-8") == text
    assert (tmp_path / "from_replay.json").read_text(encoding="utf-8") == text


@pytest.mark.asyncio
async def test_the_cassette_holds_the_request_outcome_and_retry_advice(
    api: str, tmp_path: Path
) -> None:
    import json

    path = tmp_path / "c.json"
    await record(api, path, streamed=False)
    calls = json.loads(path.read_text())["calls"]

    first = calls[0]["request"]
    assert first["input"] == [{"content": "A flight to Paris?", "role": "user"}]
    assert "transfer_to_booking_desk" in first["handoffs"]
    assert calls[1]["request"]["system_instructions"] == "Book flights."
    assert calls[1]["request"]["tools"]["search_flights"]["parameters"]["required"] == ["city"]
    assert calls[1]["request"]["input_prefix"] == 1
    error = calls[2]["error"]
    assert error["type"] == "openai.InternalServerError"
    assert error["status_code"] == 500
    assert error["retry_advice"] is not None
    # The retry resends exactly the failed call's input: nothing new after the prefix.
    assert calls[3]["request"]["input"] == []
    assert calls[3]["request"]["input_prefix"] == calls[2]["request"]["input_prefix"] + 2
    assert calls[3]["response"]["usage"]["total_tokens"] == 18


@pytest.mark.asyncio
async def test_a_changed_prompt_fails_replay_with_a_diff_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    await record("responses", path, streamed=False)
    model = ModelCassette(path).replay()

    with pytest.raises(ModelRequestMismatch) as caught:
        await run(
            make_agents(model, instructions="Book trains."), "A flight to Paris?", streamed=False
        )

    assert caught.value.call_index == 1
    assert caught.value.differences == (
        "request.system_instructions: recorded 'Book flights.', now 'Book trains.'",
    )
    assert "model call 2 differs" in str(caught.value)
    assert model.remaining_steps == 3
    # The differing request is on record, as an unexpected call would be.
    assert [call.system_instructions for call in model.calls][-1] == "Book trains."


@pytest.mark.asyncio
async def test_ignored_parts_are_not_compared(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    await record("responses", path, streamed=False)
    model = ModelCassette(path, ignore=["system_instructions"]).replay()

    outcome = await run(
        make_agents(model, instructions="Book trains."), "A flight to Paris?", streamed=False
    )

    assert outcome.final_output == "AF1 leaves for Paris at 9:00."


@pytest.mark.asyncio
async def test_a_changed_input_fails_replay_naming_the_item(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    await record("responses", path, streamed=False)

    with pytest.raises(ModelRequestMismatch) as caught:
        await run(make_agents(ModelCassette(path).replay()), "A flight to Rome?", streamed=False)

    assert caught.value.differences == (
        "request.input[0].content: recorded 'A flight to Paris?', now 'A flight to Rome?'",
    )


@pytest.mark.asyncio
async def test_a_changed_tool_schema_fails_replay_naming_the_tool(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    await record("chat_completions", path, streamed=True)

    @function_tool(name_override="search_flights")
    def search_flights_by_date(city: str, date: str) -> str:
        """Find flights to a city."""
        return "none"

    agent = make_agents(ModelCassette(path).replay())
    booking = agent.handoffs[0]
    assert isinstance(booking, Agent)
    booking.tools = [search_flights_by_date]

    with pytest.raises(ModelRequestMismatch) as caught:
        await run(agent, "A flight to Paris?", streamed=True)

    text = "\n".join(caught.value.differences)
    assert "request.tools.search_flights.parameters" in text
    assert "date" in text


class Booking(BaseModel):
    flight: str


@pytest.mark.asyncio
async def test_a_changed_output_type_fails_replay_naming_the_output_schema(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    await record("responses", path, streamed=False)
    agent = make_agents(ModelCassette(path).replay())
    booking = agent.handoffs[0]
    assert isinstance(booking, Agent)
    booking.output_type = Booking

    with pytest.raises(ModelRequestMismatch) as caught:
        await run(agent, "A flight to Paris?", streamed=False)

    assert caught.value.differences[0].startswith("request.output_schema: recorded None, now {")


@pytest.mark.asyncio
async def test_an_extra_model_call_after_the_cassette_is_an_unexpected_call(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    await record("responses", path, streamed=False)
    model = ModelCassette(path).replay()
    await run(make_agents(model), "A flight to Paris?", streamed=False)

    with pytest.raises(UnexpectedModelCall):
        await run(Agent(name="Again", model=model), "Hello?", streamed=False)


@pytest.mark.asyncio
async def test_a_provider_records_every_model_it_hands_out(tmp_path: Path) -> None:
    from agents.models.openai_provider import OpenAIProvider

    path = tmp_path / "c.json"
    with OpenAIServer(list(TURNS)) as server:
        cassette = ModelCassette(path)
        provider = cassette.record_provider(
            lambda: OpenAIProvider(api_key=KEY, base_url=server.base_url, use_responses=True)
        )
        recorded = await run(
            make_agents("gpt-test"), "A flight to Paris?", streamed=False, model_provider=provider
        )
        cassette.save()

    replay_provider = ModelCassette(path).replay_provider()
    replayed = await run(
        make_agents("gpt-test"),
        "A flight to Paris?",
        streamed=False,
        model_provider=replay_provider,
    )

    assert replayed.final_output == recorded.final_output
    assert replayed.items == recorded.items
    model = replay_provider.model
    assert isinstance(model, CassetteModel)
    assert getattr(replay_provider.get_model("gpt-test"), "recorded_calls", None) == 3
    # The provider's own client retried the 500 below the model boundary (max_retries=2),
    # so the runner saw three model calls and the cassette holds three.
    assert model.recorded_calls == 3


@pytest.mark.asyncio
async def test_an_earlier_item_changed_in_a_later_call_fails_replay_naming_it(
    tmp_path: Path,
) -> None:
    from agents.run import CallModelData, ModelInputData

    path = tmp_path / "c.json"
    await record("responses", path, streamed=False)
    seen = {"calls": 0}

    def rewrite_history(data: CallModelData[Any]) -> ModelInputData:
        seen["calls"] += 1
        items = list(data.model_data.input)
        if seen["calls"] == 3:
            items[0] = cast("TResponseInputItem", {**items[0], "content": "A flight to Rome?"})
        return ModelInputData(input=items, instructions=data.model_data.instructions)

    with pytest.raises(ModelRequestMismatch) as caught:
        await run(
            make_agents(ModelCassette(path).replay()),
            "A flight to Paris?",
            streamed=False,
            call_model_input_filter=rewrite_history,
        )

    assert caught.value.call_index == 2
    assert caught.value.differences == (
        "request.input[0].content: recorded 'A flight to Paris?', now 'A flight to Rome?'",
    )


@pytest.mark.parametrize("streamed", [False, True], ids=["run", "run_streamed"])
@pytest.mark.asyncio
async def test_a_response_that_contains_itself_runs_and_refuses_the_write(
    tmp_path: Path, streamed: bool
) -> None:
    """A recorded model may answer with an item that refers back to itself (a bare
    ``ScriptedModel`` does, as the SDK's double): the run goes on as with the model alone,
    and writing the cassette is refused naming the cycle, never a ``RecursionError``."""
    from agents_testing.core.cassette import CassetteWriteError

    message = assistant_message("looped")
    message.content.append(message)  # type: ignore[arg-type]
    cassette = ModelCassette(tmp_path / "looped.json")
    agent = Agent(name="Desk", model=cassette.record(ScriptedModel([[message]])))

    if streamed:
        result: Any = Runner.run_streamed(agent, "Hi", run_config=RunConfig(tracing_disabled=True))
        async for _ in result.stream_events():
            pass
    else:
        result = await Runner.run(agent, "Hi", run_config=RunConfig(tracing_disabled=True))

    assert result.final_output == "looped"
    with pytest.raises(CassetteWriteError, match=r"refers back to .*contains itself \(a cycle\)"):
        cassette.save()
    assert not cassette.exists
