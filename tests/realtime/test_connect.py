"""connect_calls: what a connect asked for, never a credential."""

from __future__ import annotations

import pickle
from collections.abc import Mapping
from typing import Any

import pytest
from agents import function_tool
from agents.realtime import (
    RealtimeAgent,
    RealtimePlaybackTracker,
    RealtimeRunConfig,
    RealtimeRunner,
)
from agents.realtime.model import RealtimeModelConfig

from agents_testing.realtime import RealtimeConnectCall, RealtimeScriptError, ScriptedRealtimeModel

API_KEY = "sk-live-string-key-0001"
CALLABLE_KEY = "sk-live-callable-key-0002"
HEADER_TOKEN = "Bearer sk-live-header-token-0003"
AZURE_KEY = "azure-header-key-0004"
URL_USER, URL_PASSWORD = "realtime-user", "url-password-0005"
QUERY_TOKEN = "query-token-0006"
FRAGMENT = "fragment-secret-0007"
SECRETS = (
    API_KEY,
    CALLABLE_KEY,
    HEADER_TOKEN,
    "sk-live-header-token-0003",
    AZURE_KEY,
    URL_USER,
    URL_PASSWORD,
    QUERY_TOKEN,
    FRAGMENT,
)
URL = (
    f"wss://{URL_USER}:{URL_PASSWORD}@realtime.example.test:8443/v1/realtime"
    f"?model=gpt-realtime&token={QUERY_TOKEN}#{FRAGMENT}"
)


@function_tool
def lookup_order(order_id: str) -> str:
    """Look up an order by ID."""
    return f"Order {order_id} has shipped."


def runner_for(model: ScriptedRealtimeModel) -> RealtimeRunner:
    config: RealtimeRunConfig = {"tracing_disabled": True}
    agent = RealtimeAgent(name="Assistant", instructions="Be brief.", tools=[lookup_order])
    return RealtimeRunner(agent, model=model, config=config)


def assert_no_secret(call: RealtimeConnectCall) -> None:
    texts = [repr(call), str(call)]
    texts.extend(repr(value) for value in call.values())
    for text in texts:
        for secret in SECRETS:
            assert secret not in text


async def connect_once(model_config: RealtimeModelConfig) -> RealtimeConnectCall:
    model = ScriptedRealtimeModel()
    async with await runner_for(model).run(model_config=model_config):
        pass
    (call,) = model.connect_calls
    assert_no_secret(call)
    # The session always passes its settings; other keys only when the options hold them.
    assert {"api_key_provided", "headers_provided", "initial_model_settings"} <= set(call)
    assert set(call) - {"api_key_provided", "headers_provided", "initial_model_settings"} <= (
        set(model_config)
    )
    return call


@pytest.mark.asyncio
async def test_api_key_string_is_recorded_only_as_provided() -> None:
    call = await connect_once({"api_key": API_KEY})
    assert call.api_key_provided is True
    assert call.headers_provided is False
    assert "url" not in call
    assert call.url is None


@pytest.mark.asyncio
async def test_api_key_callable_is_neither_called_nor_kept() -> None:
    calls: list[int] = []

    def key_provider() -> str:
        calls.append(1)
        return CALLABLE_KEY

    call = await connect_once({"api_key": key_provider})
    assert call.api_key_provided is True
    assert calls == []
    assert "key_provider" not in repr(call)


@pytest.mark.asyncio
async def test_authorization_headers_are_recorded_only_as_provided() -> None:
    call = await connect_once({"headers": {"Authorization": HEADER_TOKEN, "api-key": AZURE_KEY}})
    assert call.headers_provided is True
    assert call.api_key_provided is False
    assert "Authorization" not in repr(call)


@pytest.mark.asyncio
async def test_url_keeps_scheme_host_port_and_path_only() -> None:
    """Shows RT-1."""
    call = await connect_once({"url": URL})
    assert call.url == "wss://realtime.example.test:8443/v1/realtime"


@pytest.mark.asyncio
async def test_everything_at_once_leaves_no_secret_anywhere() -> None:
    tracker = RealtimePlaybackTracker()
    call = await connect_once(
        {
            "api_key": API_KEY,
            "headers": {"Authorization": HEADER_TOKEN},
            "url": URL,
            "playback_tracker": tracker,
            "call_id": "rtc_call_1",
        }
    )
    assert (call.api_key_provided, call.headers_provided) == (True, True)
    assert call.url == "wss://realtime.example.test:8443/v1/realtime"
    assert call.playback_tracker is tracker
    assert call.call_id == "rtc_call_1"


@pytest.mark.asyncio
async def test_no_options_records_nothing_provided() -> None:
    call = await connect_once({})
    assert set(call) == {"api_key_provided", "headers_provided", "initial_model_settings"}
    assert (call.url, call.api_key_provided, call.headers_provided) == (None, False, False)
    assert call.playback_tracker is None
    assert call.call_id is None


@pytest.mark.asyncio
async def test_a_record_is_a_plain_dict_holding_only_the_keys_that_were_given() -> None:
    """Shows RT-1."""
    model = ScriptedRealtimeModel()
    await model.connect({"call_id": "c1"})
    await model.close()
    await model.connect({})

    assert model.connect_calls == (
        {"api_key_provided": False, "headers_provided": False, "call_id": "c1"},
        {"api_key_provided": False, "headers_provided": False},
    )
    assert all(isinstance(call, dict) for call in model.connect_calls)


@pytest.mark.asyncio
async def test_a_key_given_as_none_counts_as_provided_and_is_kept_as_none() -> None:
    """Shows RT-1."""
    model = ScriptedRealtimeModel()
    await model.connect(
        {"api_key": None, "headers": None, "url": None, "call_id": None}  # type: ignore[typeddict-item]
    )

    assert model.connect_calls == (
        {"api_key_provided": True, "headers_provided": True, "url": None, "call_id": None},
    )


@pytest.mark.asyncio
async def test_a_connect_refused_by_connect_error_is_recorded_all_the_same() -> None:
    model = ScriptedRealtimeModel(connect_error=ConnectionRefusedError("no"))
    with pytest.raises(ConnectionRefusedError):
        await model.connect({"call_id": "c1", "api_key": API_KEY})

    assert model.connect_calls == (
        {"api_key_provided": True, "headers_provided": False, "call_id": "c1"},
    )


@pytest.mark.parametrize("extra_checks", [False, True])
@pytest.mark.asyncio
async def test_a_url_that_is_not_a_string_is_refused_in_every_mode(extra_checks: bool) -> None:
    class Url:
        def __str__(self) -> str:
            return URL

    model = ScriptedRealtimeModel(extra_checks=extra_checks)
    with pytest.raises(RealtimeScriptError, match="'url' must be a string, got Url") as caught:
        await model.connect({"url": Url()})  # type: ignore[typeddict-item]

    assert all(secret not in str(caught.value) for secret in SECRETS)
    assert model.connect_calls == ()


@pytest.mark.asyncio
async def test_a_call_id_that_is_not_a_string_is_kept_bare_and_refused_with_extra_checks() -> None:
    bare = ScriptedRealtimeModel()
    await bare.connect({"call_id": 7})  # type: ignore[typeddict-item]
    assert bare.connect_calls[0]["call_id"] == 7

    checked = ScriptedRealtimeModel(extra_checks=True)
    with pytest.raises(RealtimeScriptError, match="'call_id' must be a string, got int"):
        await checked.connect({"call_id": 7})  # type: ignore[typeddict-item]
    assert checked.connect_calls == ()


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        pytest.param("wss://host/path", "wss://host/path", id="plain"),
        pytest.param("wss://u@host", "wss://host", id="user-only"),
        pytest.param("wss://u:p@[::1]:9000/rt?x=1", "wss://[::1]:9000/rt", id="ipv6"),
        pytest.param("wss://host/a@b?q=1", "wss://host/a@b", id="at-in-path"),
        pytest.param("wss://host#frag", "wss://host", id="fragment-only"),
        pytest.param(f"wss://u:p?{URL_PASSWORD}@host/", "wss://", id="raw-question-mark"),
        pytest.param(f"wss://host?t=a@{QUERY_TOKEN}/x", "wss://", id="at-in-query"),
        pytest.param(f"{URL_USER}:{URL_PASSWORD}@host/rt", "host/rt", id="no-scheme"),
    ],
)
@pytest.mark.asyncio
async def test_url_snapshot_never_keeps_user_info_query_or_fragment(
    url: str, expected: str
) -> None:
    call = await connect_once({"url": url})
    assert call.url == expected


@pytest.mark.asyncio
async def test_initial_settings_are_detached_but_tools_keep_identity() -> None:
    model = ScriptedRealtimeModel()
    async with await runner_for(model).run():
        pass

    settings = model.connect_calls[0].initial_model_settings
    assert settings is not None
    assert settings["instructions"] == "Be brief."
    assert settings["tools"][0] is lookup_order
    mutable: Any = settings
    mutable["instructions"] = "changed"
    mutable["tools"].clear()
    again = model.connect_calls[0].initial_model_settings
    assert again is not None
    assert again["instructions"] == "Be brief."
    assert again["tools"] == [lookup_order]


@pytest.mark.asyncio
async def test_connect_calls_are_plain_subscriptable_mappings() -> None:
    tracker = RealtimePlaybackTracker()
    call = await connect_once({"api_key": API_KEY, "url": URL, "playback_tracker": tracker})

    assert isinstance(call, Mapping)
    assert isinstance(call, dict)
    assert call["api_key_provided"] is True
    assert call["headers_provided"] is False
    assert call["url"] == "wss://realtime.example.test:8443/v1/realtime"
    assert call["playback_tracker"] is tracker
    assert "call_id" not in call
    assert dict(call) == {
        "url": "wss://realtime.example.test:8443/v1/realtime",
        "api_key_provided": True,
        "headers_provided": False,
        "initial_model_settings": call["initial_model_settings"],
        "playback_tracker": tracker,
    }
    assert call.api_key_provided is call["api_key_provided"]


@pytest.mark.asyncio
async def test_changing_a_connect_call_mapping_changes_nothing_recorded() -> None:
    model = ScriptedRealtimeModel()
    async with await runner_for(model).run(model_config={"url": URL}):
        pass

    handed_out = model.connect_calls[0]
    handed_out["url"] = "wss://changed"
    handed_out["api_key_provided"] = True
    settings: Any = handed_out["initial_model_settings"]
    settings["instructions"] = "changed"
    handed_out["call_id"] = "added"

    again = model.connect_calls[0]
    assert again is not handed_out
    assert again["url"] == "wss://realtime.example.test:8443/v1/realtime"
    assert again["api_key_provided"] is False
    assert again["initial_model_settings"]["instructions"] == "Be brief."
    assert "call_id" not in again


def test_connect_call_mapping_survives_pickling() -> None:
    call = RealtimeConnectCall(
        url="wss://host/rt",
        api_key_provided=True,
        headers_provided=False,
        initial_model_settings={"instructions": "Hi"},
    )
    copy = pickle.loads(pickle.dumps(call))
    assert type(copy) is RealtimeConnectCall
    assert copy == call
    assert copy.url == "wss://host/rt"
