"""The guard against real model requests: ``--agents-block-model-requests`` and its ini twin."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap
import time
from typing import Any

import pytest
from agents.models.openai_chatcompletions import OpenAIChatCompletionsModel
from agents.models.openai_responses import OpenAIResponsesModel

from agents_testing.core import AgentsTestingError, ModelRequestBlocked

from .._once import computed_once
from .conftest import INNER_INI, PROVIDER_CONFTEST

RESPONSES_TESTS = """
import pickle

import pytest
from agents import Agent, OpenAIResponsesModel, RunConfig, Runner


@pytest.mark.asyncio
async def test_real_model(client, transport):
    model = OpenAIResponsesModel(model="gpt-4o", openai_client=client)
    try:
        await Runner.run(
            Agent(name="a", model=model), "hi", run_config=RunConfig(tracing_disabled=True)
        )
    finally:
        assert transport.requests == []


@pytest.mark.asyncio
@pytest.mark.agents_allow_model_requests
async def test_allowed_real_model(client, transport):
    model = OpenAIResponsesModel(model="gpt-4o", openai_client=client)
    with pytest.raises(pytest.fail.Exception, match="the network was reached"):
        await Runner.run(
            Agent(name="a", model=model), "hi", run_config=RunConfig(tracing_disabled=True)
        )
    assert transport.requests == ["http://provider.invalid/v1/responses"]
"""


def test_cli_option_blocks_a_real_responses_model_before_any_connection(
    guarded: pytest.Pytester,
) -> None:
    guarded.makepyfile(test_guarded=RESPONSES_TESTS)

    result = guarded.runpytest("--agents-block-model-requests")

    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "E   *ModelRequestBlocked: test_guarded.py::test_real_model: "
            "OpenAIResponsesModel.get_response() would send a request to the model provider*",
            "FAILED test_guarded.py::test_real_model - *",
        ]
    )
    result.stdout.no_fnmatch_line("*the network was reached*")


def test_ini_option_blocks_like_the_cli_option(guarded: pytest.Pytester) -> None:
    guarded.makeini(
        """
        [pytest]
        asyncio_mode = strict
        asyncio_default_fixture_loop_scope = function
        agents_block_model_requests = true
        """
    )
    guarded.makepyfile(test_guarded=RESPONSES_TESTS)

    result = guarded.runpytest()

    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        ["E   *ModelRequestBlocked: test_guarded.py::test_real_model: *get_response() would*"]
    )


def test_without_the_option_real_models_are_left_alone(guarded: pytest.Pytester) -> None:
    guarded.makepyfile(test_guarded=RESPONSES_TESTS)

    result = guarded.runpytest()

    # The unguarded real model reaches the transport, which fails that test.
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*the network was reached: http://provider.invalid/v1/responses*"])
    result.stdout.no_fnmatch_line("*ModelRequestBlocked*")


def test_streamed_runs_and_chat_completions_are_blocked_too(guarded: pytest.Pytester) -> None:
    guarded.makepyfile(
        test_guarded="""
        import pytest
        from agents import (
            Agent, OpenAIChatCompletionsModel, OpenAIResponsesModel, RunConfig, Runner,
        )

        MODELS = {"responses": OpenAIResponsesModel, "chat": OpenAIChatCompletionsModel}


        @pytest.mark.asyncio
        @pytest.mark.parametrize("kind", ["responses", "chat"])
        async def test_streamed(client, kind):
            model = MODELS[kind](model="gpt-4o", openai_client=client)
            result = Runner.run_streamed(
                Agent(name="a", model=model), "hi", run_config=RunConfig(tracing_disabled=True)
            )
            async for _ in result.stream_events():
                pass


        @pytest.mark.asyncio
        async def test_chat(client):
            model = OpenAIChatCompletionsModel(model="gpt-4o", openai_client=client)
            await Runner.run(
                Agent(name="a", model=model), "hi", run_config=RunConfig(tracing_disabled=True)
            )
        """
    )

    result = guarded.runpytest("--agents-block-model-requests")

    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines_random(
        [
            "*test_streamed?responses?: OpenAIResponsesModel.stream_response() would send*",
            "*test_streamed?chat?: OpenAIChatCompletionsModel.stream_response() would send*",
            "*test_chat: OpenAIChatCompletionsModel.get_response() would send*",
        ]
    )
    result.stdout.no_fnmatch_line("*the network was reached*")


REALTIME_AND_VOICE_TESTS = """
from collections.abc import AsyncIterator

import numpy as np
import pytest
from agents.realtime import RealtimeAgent, RealtimeRunner
from agents.realtime.openai_realtime import OpenAIRealtimeWebSocketModel
from agents.voice import (
    AudioInput, STTModel, VoicePipeline, VoicePipelineConfig, VoiceWorkflowBase,
)
from agents.voice.models.openai_stt import OpenAISTTModel
from agents.voice.models.openai_tts import OpenAITTSModel


class Echo(VoiceWorkflowBase):
    async def run(self, transcription: str) -> AsyncIterator[str]:
        yield "Hello there."


class FixedSTT(STTModel):
    model_name = "fixed"

    async def transcribe(self, input, settings, *args):
        return "hi"

    async def create_session(self, input, settings, *args):
        raise AssertionError("not streamed")


@pytest.mark.asyncio
async def test_realtime():
    runner = RealtimeRunner(
        RealtimeAgent(name="a"),
        model=OpenAIRealtimeWebSocketModel(),
        config={"tracing_disabled": True},
    )
    session = await runner.run(
        model_config={"api_key": "sk-test", "url": "ws://127.0.0.1:9/"}
    )
    async with session:
        pass


async def run_pipeline(stt, tts):
    pipeline = VoicePipeline(
        workflow=Echo(), stt_model=stt, tts_model=tts,
        config=VoicePipelineConfig(tracing_disabled=True),
    )
    result = await pipeline.run(AudioInput(np.zeros(2, dtype=np.int16)))
    async for _ in result.stream():
        pass


@pytest.mark.asyncio
async def test_stt(client):
    await run_pipeline(
        OpenAISTTModel("whisper-1", client), OpenAITTSModel("tts-1", client)
    )


@pytest.mark.asyncio
async def test_tts(client):
    await run_pipeline(FixedSTT(), OpenAITTSModel("tts-1", client))


@pytest.mark.asyncio
async def test_stt_session(client):
    await OpenAISTTModel("whisper-1", client).create_session(None, None, False, False)
"""


def test_realtime_and_voice_models_are_blocked(fresh_guarded_run: pytest.RunResult) -> None:
    assert _outcomes(fresh_guarded_run, "test_realtime_voice.py") == {"failed": 4}
    fresh_guarded_run.stdout.fnmatch_lines_random(
        [
            "*test_realtime: OpenAIRealtimeWebSocketModel.connect() would send*",
            "*test_stt: OpenAISTTModel.transcribe() would send*",
            "*test_tts: OpenAITTSModel.run() would send*",
            "*test_stt_session: OpenAISTTModel.create_session() would send*",
        ]
    )
    fresh_guarded_run.stdout.no_fnmatch_line("*the network was reached*")


def test_a_blocked_request_fails_the_test_even_when_the_code_swallows_it(
    guarded: pytest.Pytester,
) -> None:
    guarded.makepyfile(
        test_guarded="""
        import pytest
        from agents import Agent, OpenAIResponsesModel, RunConfig, Runner


        @pytest.mark.asyncio
        async def test_fallback_hides_errors(client):
            model = OpenAIResponsesModel(model="gpt-4o", openai_client=client)
            try:
                await Runner.run(
                    Agent(name="a", model=model), "hi",
                    run_config=RunConfig(tracing_disabled=True),
                )
            except Exception:
                pass  # an application fallback that hides provider errors
        """
    )

    result = guarded.runpytest("--agents-block-model-requests")

    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["E   *ModelRequestBlocked: test_guarded.py::test_fallback_hides_errors: *"]
    )


def test_the_guard_is_removed_after_each_test(guarded: pytest.Pytester) -> None:
    originals = (
        OpenAIResponsesModel.get_response,
        OpenAIResponsesModel.stream_response,
        OpenAIChatCompletionsModel.get_response,
    )
    guarded.makepyfile(test_guarded=RESPONSES_TESTS)

    result = guarded.runpytest("--agents-block-model-requests")

    result.assert_outcomes(passed=1, failed=1)
    assert (
        OpenAIResponsesModel.get_response,
        OpenAIResponsesModel.stream_response,
        OpenAIChatCompletionsModel.get_response,
    ) == originals


def test_the_option_ini_and_markers_are_documented(project: pytest.Pytester) -> None:
    help_text = project.runpytest("--help")
    markers = project.runpytest("--markers")

    help_text.stdout.fnmatch_lines(
        [
            "*--agents-record-mode=*rewrite*",
            "*--agents-record-in-ci*",
            "*--agents-block-model-requests*",
            "*--agents-block-network*",
            "*--agents-allow-network*",
            "*agents_block_model_requests (bool)*",
            "*agents_block_network (bool)*",
        ]
    )
    markers.stdout.fnmatch_lines(
        [
            "@pytest.mark.agents_testing(assert_complete=True, disable_tracing=True, "
            "check_tool_calls=True): *",
            "@pytest.mark.agents_allow_model_requests: *",
            "@pytest.mark.agents_allow_network: *",
        ]
    )
    markers.stdout.fnmatch_lines(["@pytest.mark.agents_cassette(*allowed_secrets=()*"])


def test_the_blocked_error_has_structured_fields_and_survives_pickling() -> None:
    error = ModelRequestBlocked(
        test="test_app.py::test_x", model="OpenAIResponsesModel", operation="get_response"
    )

    copy = pickle.loads(pickle.dumps(error))

    assert isinstance(error, AgentsTestingError)
    assert (copy.test, copy.model, copy.operation) == (
        "test_app.py::test_x",
        "OpenAIResponsesModel",
        "get_response",
    )
    assert str(copy) == str(error)
    assert str(error).startswith(
        "test_app.py::test_x: OpenAIResponsesModel.get_response() would send a request"
    )


def test_a_bad_ini_value_is_a_usage_error(project: pytest.Pytester) -> None:
    project.makeini(
        """
        [pytest]
        agents_block_model_requests = sometimes
        """
    )
    project.makepyfile(test_nothing="def test_nothing():\n    pass\n")

    result = project.runpytest()

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*agents_block_model_requests must be true or false in the ini file*sometimes*"]
    )


def test_a_hidden_blocked_request_is_shown_next_to_the_failure_it_caused(
    guarded: pytest.Pytester,
) -> None:
    guarded.makepyfile(
        test_guarded="""
        import pytest
        from agents import Agent, OpenAIResponsesModel, RunConfig, Runner


        @pytest.mark.asyncio
        async def test_fallback_answer(client):
            model = OpenAIResponsesModel(model="gpt-4o", openai_client=client)
            try:
                result = await Runner.run(
                    Agent(name="a", model=model), "hi",
                    run_config=RunConfig(tracing_disabled=True),
                )
                answer = result.final_output
            except Exception:
                answer = None  # an application fallback that hides provider errors
            assert answer == "hello", "the user's own assertion"
        """
    )

    result = guarded.runpytest("--agents-block-model-requests")

    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "E * AssertionError: the user's own assertion",
            "*- blocked model requests -*",
            "test_guarded.py::test_fallback_answer: "
            "OpenAIResponsesModel.get_response() would send a request*",
        ]
    )


def test_every_request_method_is_blocked_when_called_directly(guarded: pytest.Pytester) -> None:
    guarded.makepyfile(
        test_guarded="""
        import pytest
        from agents import ModelSettings, OpenAIChatCompletionsModel, OpenAIResponsesModel
        from agents.models.interface import ModelTracing
        from agents.realtime.openai_realtime import OpenAIRealtimeWebSocketModel
        from agents.voice import TTSModelSettings
        from agents.voice.models.openai_stt import OpenAISTTModel
        from agents.voice.models.openai_tts import OpenAITTSModel

        ARGS = (None, "hi", ModelSettings(), [], None, [], ModelTracing.DISABLED)


        async def drain(stream):
            async for _ in stream:
                pass


        CALLS = {
            "responses.get_response": lambda c: OpenAIResponsesModel("m", c).get_response(*ARGS),
            "responses.stream_response": lambda c: drain(
                OpenAIResponsesModel("m", c).stream_response(*ARGS)
            ),
            "chat.get_response": lambda c: OpenAIChatCompletionsModel("m", c).get_response(*ARGS),
            "chat.stream_response": lambda c: drain(
                OpenAIChatCompletionsModel("m", c).stream_response(*ARGS)
            ),
            "realtime.connect": lambda c: OpenAIRealtimeWebSocketModel().connect(
                {"api_key": "sk-test", "url": "ws://127.0.0.1:9/"}
            ),
            "stt.transcribe": lambda c: OpenAISTTModel("m", c).transcribe(None, None, False, False),
            "stt.create_session": lambda c: OpenAISTTModel("m", c).create_session(
                None, None, False, False
            ),
            "tts.run": lambda c: drain(OpenAITTSModel("m", c).run("hi", TTSModelSettings())),
        }


        @pytest.mark.asyncio
        @pytest.mark.parametrize("target", sorted(CALLS))
        async def test_call(client, target):
            await CALLS[target](client)
        """
    )

    result = guarded.runpytest("--agents-block-model-requests")

    result.assert_outcomes(failed=8)
    result.stdout.fnmatch_lines_random(
        [
            f"E   *ModelRequestBlocked: test_guarded.py::test_call?{target}?: {model}.{method}() *"
            for target, model, method in [
                ("responses.get_response", "OpenAIResponsesModel", "get_response"),
                ("responses.stream_response", "OpenAIResponsesModel", "stream_response"),
                ("chat.get_response", "OpenAIChatCompletionsModel", "get_response"),
                ("chat.stream_response", "OpenAIChatCompletionsModel", "stream_response"),
                ("realtime.connect", "OpenAIRealtimeWebSocketModel", "connect"),
                ("stt.transcribe", "OpenAISTTModel", "transcribe"),
                ("stt.create_session", "OpenAISTTModel", "create_session"),
                ("tts.run", "OpenAITTSModel", "run"),
            ]
        ]
    )
    result.stdout.no_fnmatch_line("*the network was reached*")


NAMED_MODEL_TESTS = """
from collections.abc import AsyncIterator

import numpy as np
import pytest
from agents import Agent, RunConfig, Runner
from agents.voice import AudioInput, VoicePipeline, VoicePipelineConfig, VoiceWorkflowBase


class Echo(VoiceWorkflowBase):
    async def run(self, transcription: str) -> AsyncIterator[str]:
        yield "Hello there."


@pytest.mark.asyncio
async def test_named_model():
    await Runner.run(
        Agent(name="a", model="gpt-4.1"), "hi", run_config=RunConfig(tracing_disabled=True)
    )


@pytest.mark.asyncio
async def test_default_voice_models():
    pipeline = VoicePipeline(
        workflow=Echo(), config=VoicePipelineConfig(tracing_disabled=True)
    )
    result = await pipeline.run(AudioInput(np.zeros(2, dtype=np.int16)))
    async for _ in result.stream():
        pass
"""

# Each test runs in three environments: no key, a key, and a default client of the
# test's own (set through the SDK, as an application does).
ENVIRONMENTS = """
from agents import set_default_openai_client
from agents.models import _openai_shared


@pytest.fixture(autouse=True, params=["no key", "a key", "a default client"])
def environment(request, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    if request.param == "a key":
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    if request.param == "a default client":
        set_default_openai_client(request.getfixturevalue("client"), use_for_tracing=False)
    yield
    _openai_shared.set_default_openai_client(None)
"""


def test_the_guard_answers_first_whatever_the_environment(
    fresh_guarded_run: pytest.RunResult,
) -> None:
    assert _outcomes(fresh_guarded_run, "test_environments.py") == {"failed": 6}
    fresh_guarded_run.stdout.fnmatch_lines_random(
        [
            f"*test_{test}[[]{environment}[]]: {blocked} would send a request*"
            for environment in ("no key", "a key", "a default client")
            for test, blocked in (
                ("named_model", "OpenAIResponsesModel.get_response()"),
                ("default_voice_models", "OpenAISTTModel.transcribe()"),
            )
        ]
    )
    fresh_guarded_run.stdout.no_fnmatch_line("*Missing credentials*")
    fresh_guarded_run.stdout.no_fnmatch_line("*the network was reached*")


TRACED_RUN_TESTS = """
import http.server
import threading

import pytest
from agents import Agent, Runner, set_trace_processors
from agents.tracing.processors import BackendSpanExporter, BatchTraceProcessor, default_processor
from agents.testing import ScriptedModel, assistant_message


class Collector(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.server.posts.append(self.path)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args):
        pass


@pytest.fixture
def collector():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Collector)
    server.posts = []
    threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
    ).start()
    endpoint = f"http://127.0.0.1:{server.server_port}/v1/traces/ingest"
    processor = BatchTraceProcessor(BackendSpanExporter(api_key="sk-test", endpoint=endpoint))
    set_trace_processors([processor])
    yield server.posts, processor
    set_trace_processors([default_processor()])
    server.shutdown()
    server.server_close()


@pytest.mark.asyncio
async def test_traced_run(collector):
    posts, processor = collector
    model = ScriptedModel([[assistant_message("Hello.")]])
    await Runner.run(Agent(name="a", model=model), "hi")
    processor.force_flush()
    print(f"uploads: {len(posts)}")
"""


@pytest.mark.parametrize("blocking", [True, False])
def test_under_the_guard_no_trace_is_uploaded(project: pytest.Pytester, blocking: bool) -> None:
    project.makepyfile(test_traced=TRACED_RUN_TESTS)

    result = project.runpytest("-s", *(["--agents-block-model-requests"] if blocking else []))

    result.assert_outcomes(passed=1)
    # Without the guard the same run uploads its trace (the collector stands in for the
    # provider); with it nothing leaves the process.
    result.stdout.fnmatch_lines(["*uploads: 0*" if blocking else "*uploads: 1*"])


def test_the_allow_option_lifts_an_ini_enabled_guard_for_one_run(
    guarded: pytest.Pytester,
) -> None:
    guarded.makeini(
        """
        [pytest]
        asyncio_mode = strict
        asyncio_default_fixture_loop_scope = function
        agents_block_model_requests = true
        """
    )
    guarded.makepyfile(test_guarded=RESPONSES_TESTS)

    result = guarded.runpytest("--agents-allow-model-requests")

    # The real model reaches the (network-failing) transport, as with no guard at all.
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*the network was reached: http://provider.invalid/v1/responses*"])
    result.stdout.no_fnmatch_line("*ModelRequestBlocked*")


def test_blocking_and_allowing_on_one_command_line_is_a_usage_error(
    project: pytest.Pytester,
) -> None:
    project.makepyfile(test_nothing="def test_nothing():\n    pass\n")

    result = project.runpytest("--agents-block-model-requests", "--agents-allow-model-requests")

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*contradict each other*"])


# Stand-ins for the optional packages behind the SDK's LiteLLM and any-llm models: enough
# for the SDK's modules to import, and failing the test if a request ever reached them.
LITELLM_STAND_IN = """
async def acompletion(*args, **kwargs):
    raise AssertionError("the litellm package was asked to send a request")
"""

ANY_LLM_STAND_IN = """
class AnyLLM:
    @classmethod
    def create(cls, *args, **kwargs):
        raise AssertionError("the any-llm package was asked to send a request")
"""

OPTIONAL_MODEL_TESTS = """
import pytest
from agents import Agent, RunConfig, Runner
from agents.extensions.models.any_llm_model import AnyLLMModel

CONFIG = RunConfig(tracing_disabled=True)


@pytest.mark.asyncio
async def test_litellm_imported_during_the_test():
    from agents.extensions.models.litellm_model import LitellmModel

    await Runner.run(Agent(name="a", model=LitellmModel("openai/gpt-4.1")), "hi", run_config=CONFIG)


@pytest.mark.asyncio
async def test_litellm_streamed():
    from agents.extensions.models.litellm_model import LitellmModel

    result = Runner.run_streamed(
        Agent(name="a", model=LitellmModel("openai/gpt-4.1")), "hi", run_config=CONFIG
    )
    async for _ in result.stream_events():
        pass


@pytest.mark.asyncio
async def test_litellm_provider():
    from agents.extensions.models.litellm_provider import LitellmProvider

    config = RunConfig(tracing_disabled=True, model_provider=LitellmProvider())
    await Runner.run(Agent(name="a", model="anthropic/claude-sonnet-4"), "hi", run_config=config)


@pytest.mark.asyncio
async def test_any_llm():
    await Runner.run(Agent(name="a", model=AnyLLMModel("openai/gpt-4.1")), "hi", run_config=CONFIG)


@pytest.mark.asyncio
@pytest.mark.parametrize("name", ["litellm/openai/gpt-4.1", "any-llm/openai/gpt-4.1"])
async def test_prefixed_model_name(name):
    await Runner.run(Agent(name="a", model=name), "hi", run_config=CONFIG)


@pytest.mark.asyncio
@pytest.mark.agents_allow_model_requests
async def test_any_llm_allowed():
    await Runner.run(Agent(name="a", model=AnyLLMModel("openai/gpt-4.1")), "hi", run_config=CONFIG)
"""


def test_litellm_and_any_llm_models_are_refused_before_their_packages_are_asked(
    fresh_guarded_run: pytest.RunResult,
) -> None:
    result = fresh_guarded_run

    assert _outcomes(result, "test_optional.py") == {"failed": 7}
    result.stdout.fnmatch_lines_random(
        [
            "*test_litellm_imported_during_the_test: LitellmModel.get_response() would send*",
            "*test_litellm_streamed: LitellmModel.stream_response() would send*",
            "*test_litellm_provider: LitellmModel.get_response() would send*",
            "*test_any_llm: AnyLLMModel.get_response() would send*",
            "*test_prefixed_model_name?litellm/openai/gpt-4.1?: LitellmModel.get_response()*",
            "*test_prefixed_model_name?any-llm/openai/gpt-4.1?: AnyLLMModel.get_response()*",
        ]
    )
    # Only where the guard is lifted does the request reach the package.
    result.stdout.fnmatch_lines(["FAILED test_optional.py::test_any_llm_allowed - AssertionError*"])
    reached = [
        line
        for line in result.stdout.lines
        if line.startswith("E ") and "package was asked to send a request" in line
    ]
    assert reached == ["E       AssertionError: the any-llm package was asked to send a request"]


NAMED_OPTIONAL_TESTS = """
import pytest
from agents import Agent, RunConfig, Runner


@pytest.mark.asyncio
@pytest.mark.parametrize("name", ["litellm/anthropic/claude-sonnet-4", "any-llm/openai/gpt-4.1"])
async def test_named(name):
    await Runner.run(Agent(name="a", model=name), "hi", run_config=RunConfig(tracing_disabled=True))
"""


def test_litellm_and_any_llm_names_are_refused_even_without_their_packages(
    project: pytest.Pytester,
) -> None:
    project.makepyfile(test_named=NAMED_OPTIONAL_TESTS)

    result = project.runpytest("--agents-block-model-requests")

    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines_random(
        [
            "E   *ModelRequestBlocked: test_named.py::test_named?litellm/anthropic/"
            "claude-sonnet-4?: LitellmModel.get_response() would send a request*",
            "E   *ModelRequestBlocked: test_named.py::test_named?any-llm/openai/gpt-4.1?:"
            " AnyLLMModel.get_response() would send a request*",
        ]
    )
    # Without the guard the SDK itself says the package is missing.
    unguarded = project.runpytest()
    unguarded.assert_outcomes(failed=2)
    unguarded.stdout.fnmatch_lines(["*ImportError*litellm*"])


def _sdk_model_classes() -> list[tuple[type, str]]:
    """Every model class the installed SDK defines, with each request method it answers to."""
    import importlib
    import pkgutil

    from agents.models.interface import Model
    from agents.realtime.model import RealtimeModel
    from agents.voice import STTModel, TTSModel

    for package in ("agents.models", "agents.extensions.models", "agents.realtime", "agents.voice"):
        for info in pkgutil.walk_packages(importlib.import_module(package).__path__, f"{package}."):
            if "testing" in info.name:
                continue
            try:
                importlib.import_module(info.name)
            except ImportError:
                continue  # an optional package is missing: nothing can use that model
    found: list[tuple[type, str]] = []
    interfaces = {
        Model: ("get_response", "stream_response"),
        RealtimeModel: ("connect",),
        STTModel: ("transcribe", "create_session"),
        TTSModel: ("run",),
    }
    for interface, methods in interfaces.items():
        pending = list(interface.__subclasses__())
        while pending:
            cls = pending.pop()
            pending.extend(cls.__subclasses__())
            if cls.__module__.startswith("agents.") and "testing" not in cls.__module__:
                found.extend((cls, method) for method in methods)
    return found


def test_every_model_class_of_the_installed_sdk_is_covered() -> None:
    from agents_testing.core._guard.requests import RequestGuard

    classes = _sdk_model_classes()
    names = {cls.__name__ for cls, _ in classes}
    assert {"OpenAIResponsesModel", "OpenAIChatCompletionsModel", "OpenAISTTModel"} <= names
    before = {(cls, method): getattr(cls, method) for cls, method in classes}

    with RequestGuard("t"):
        during = {(cls, method): getattr(cls, method) for cls, method in classes}

    assert [key for key, method in during.items() if method is before[key]] == []
    assert {(cls, method): getattr(cls, method) for cls, method in classes} == before


@pytest.fixture(scope="session")
def fresh_guarded_run(tmp_path_factory: pytest.TempPathFactory) -> pytest.RunResult:
    """One guarded run, in a fresh process, of the test files that each need one.

    A fresh process, as a user's test run is: on SDK 0.14 a failing voice pipeline
    leaves a task behind, and the LiteLLM and any-llm stand-ins must not stay imported
    in this one. One process for all of them: each fresh one imports the whole SDK.
    """
    ret, outlines, errlines, duration = computed_once(
        tmp_path_factory, "fresh-guarded-run", lambda: _guarded_run(tmp_path_factory)
    )
    return pytest.RunResult(ret, outlines, errlines, duration)


def _guarded_run(tmp_path_factory: pytest.TempPathFactory) -> list[Any]:
    project = tmp_path_factory.mktemp("guarded")
    files = {
        "pytest.ini": INNER_INI,
        "conftest.py": PROVIDER_CONFTEST,
        "litellm.py": LITELLM_STAND_IN,
        "any_llm.py": ANY_LLM_STAND_IN,
        "test_optional.py": OPTIONAL_MODEL_TESTS,
        "test_environments.py": NAMED_MODEL_TESTS + ENVIRONMENTS,
        "test_realtime_voice.py": REALTIME_AND_VOICE_TESTS,
    }
    for name, text in files.items():
        (project / name).write_text(textwrap.dedent(text), encoding="utf-8")
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("OPENAI_", "PYTEST_"))
    }
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA",
         "--agents-block-model-requests"],
        cwd=project, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    return [
        done.returncode,
        done.stdout.splitlines(),
        done.stderr.splitlines(),
        time.monotonic() - started,
    ]


def _outcomes(result: pytest.RunResult, test_file: str) -> dict[str, int]:
    """How the tests of one file of a run ended (``-rA`` lists every one)."""
    counts: dict[str, int] = {}
    for line in result.stdout.lines:
        outcome, _, rest = line.partition(" ")
        if outcome in ("PASSED", "FAILED", "ERROR") and rest.startswith(f"{test_file}::"):
            counts[outcome.lower()] = counts.get(outcome.lower(), 0) + 1
    return counts
