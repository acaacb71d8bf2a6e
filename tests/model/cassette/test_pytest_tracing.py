"""Recording and replaying with ``model_cassette`` uploads no trace, even with a key exported.

The SDK's own trace exporter (the default processor's) is pointed at a local collector
on 127.0.0.1 and ``OPENAI_API_KEY`` holds a fake key, as on a developer's machine. A run
through the fixture, with no ``tracing_disabled`` in the run config, must leave the
collector without a single upload; asking the marker for tracing shows the collector
would have seen it.
"""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from agents.tracing.processors import default_exporter

from .._openai_server import OpenAIServer, message, tool_call

INI = """
[pytest]
asyncio_mode = strict
asyncio_default_fixture_loop_scope = function
"""

CONFTEST = """
import pytest
from agents.tracing.processors import default_exporter, default_processor


@pytest.fixture(autouse=True)
def local_collector():
    exporter = default_exporter()
    endpoint = exporter.endpoint
    exporter.endpoint = {endpoint!r}
    yield
    # Whatever the test queued is handed to the exporter while it points at the collector.
    default_processor().force_flush()
    exporter.endpoint = endpoint
"""

TEST = """
import pytest
from agents import Agent, Runner, function_tool
from agents.models.openai_responses import OpenAIResponsesModel
from openai import AsyncOpenAI


@function_tool
def lookup_booking(reference: str) -> str:
    '''Find a booking by its reference.'''
    return f"{{reference}}: confirmed, seat 12A"


def real():
    client = AsyncOpenAI(api_key="sk-test-fake-0123456789", base_url={base_url!r}, max_retries=0)
    return OpenAIResponsesModel("gpt-test", client)


{marker}@pytest.mark.asyncio
async def test_support(model_cassette):
    agent = Agent(name="Support", model=model_cassette.model(real), tools=[lookup_booking])
    result = await Runner.run(agent, "Where is booking BK0042?")
    assert result.final_output == "BK0042 is confirmed."
"""


class _Collector(http.server.BaseHTTPRequestHandler):
    uploads: list[bytes]

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        type(self).uploads.append(body)
        self.send_response(200)
        self.send_header("content-length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, format: str, *args: object) -> None:
        return None


@pytest.fixture(autouse=True)
def default_exporter_restored() -> Iterator[None]:
    """The SDK's default exporter left as it was found.

    It keeps a key it once read from the environment (for good, on some releases), so
    without this every later traced run in this process would upload to the provider.
    """
    exporter = default_exporter()
    saved = dict(vars(exporter))
    yield
    vars(exporter).clear()
    vars(exporter).update(saved)


@pytest.fixture
def collector() -> Iterator[tuple[str, list[bytes]]]:
    uploads: list[bytes] = []
    handler = type("Handler", (_Collector,), {"uploads": uploads})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
    ).start()
    yield f"http://127.0.0.1:{server.server_port}/v1/traces/ingest", uploads
    server.shutdown()
    server.server_close()


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    turns: list[Mapping[str, Any]] = [
        tool_call("lookup_booking", '{"reference": "BK0042"}', "c1"),
        message("BK0042 is confirmed."),
    ]
    with OpenAIServer(turns * 2) as running:
        yield running


@pytest.fixture
def project(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, collector: tuple[str, list[bytes]]
) -> pytest.Pytester:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("OPENAI_AGENTS_DISABLE_TRACING", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-fake-0123456789")
    pytester.makeini(INI)
    pytester.makeconftest(CONFTEST.format(endpoint=collector[0]))
    return pytester


def test_recording_and_replaying_upload_nothing(
    project: pytest.Pytester, server: OpenAIServer, collector: tuple[str, list[bytes]]
) -> None:
    project.makepyfile(test_support=TEST.format(base_url=server.base_url, marker=""))

    project.runpytest("--agents-record-mode=once").assert_outcomes(passed=1)
    project.runpytest().assert_outcomes(passed=1)  # replay, without the guard

    assert len(server.requests) == 2
    assert collector[1] == []


def test_a_test_that_asks_for_tracing_gets_it(
    project: pytest.Pytester, server: OpenAIServer, collector: tuple[str, list[bytes]]
) -> None:
    marker = "@pytest.mark.agents_testing(disable_tracing=False)\n"
    project.makepyfile(test_support=TEST.format(base_url=server.base_url, marker=marker))

    project.runpytest("--agents-record-mode=once").assert_outcomes(passed=1)

    # The collector stands in for the provider: the spans, tool input included, arrive.
    assert len(collector[1]) >= 1
    assert b"BK0042" in b"".join(collector[1])
