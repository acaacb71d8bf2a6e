"""The network block: ``--agents-block-network`` and its ini twin refuse every host but loopback.

Every throw-away project gets a conftest that replaces the socket layer with a stand-in
before the block is installed: what the block lets through reaches the stand-in (which
refuses it and remembers it) and never the network.
"""

from __future__ import annotations

import pickle

import agents.tracing.processors  # noqa: F401
import pytest

from agents_testing.core import AgentsTestingError, NetworkBlocked

# Imported here, before any in-process run: modules first imported inside one are
# dropped after it, and a second run would import the SDK anew beside the doubles.
from agents_testing.model import ScriptedModel  # noqa: F401

STAND_IN = """
import ipaddress
import socket

import pytest

REACHED = []
_connect, _connect_ex = socket.socket.connect, socket.socket.connect_ex
_getaddrinfo = socket.getaddrinfo


def _local(host):
    host = host.decode() if isinstance(host, bytes) else str(host)
    if host in ("localhost", "", "0.0.0.0", "::"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _address(host):
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return False


def connect(self, address):
    if self.family in (socket.AF_INET, socket.AF_INET6) and not _local(address[0]):
        REACHED.append(address[0])
        raise ConnectionRefusedError(f"stand-in refused {address[0]}")
    return _connect(self, address)


def connect_ex(self, address):
    if self.family in (socket.AF_INET, socket.AF_INET6) and not _local(address[0]):
        REACHED.append(address[0])
        return 111
    return _connect_ex(self, address)


def getaddrinfo(host, *args, **kwargs):
    if host is not None and not _local(host) and not _address(host):
        # anyio (under httpx2) looks a host up by its IDNA-encoded bytes.
        host = host.decode() if isinstance(host, bytes) else host
        REACHED.append(host)
        raise socket.gaierror(f"stand-in lookup of {host}")
    return _getaddrinfo(host, *args, **kwargs)


# In place before any test starts (and so before the block wraps the socket layer).
socket.socket.connect, socket.socket.connect_ex = connect, connect_ex
socket.getaddrinfo = getaddrinfo


def pytest_unconfigure():
    socket.socket.connect, socket.socket.connect_ex = _connect, _connect_ex
    socket.getaddrinfo = _getaddrinfo


@pytest.fixture(autouse=True)
def report_what_got_through(request):
    REACHED.clear()
    yield
    print(f"{request.node.name} got through to: {', '.join(REACHED) or 'nothing'}")
"""

TESTS = """
import http.server
import socket
import threading
import urllib.request

import pytest
from agents import Agent, ModelSettings, Runner, set_trace_processors
from agents.models.interface import Model, ModelTracing
from agents.testing import ScriptedModel, assistant_message
from agents.tracing.processors import BackendSpanExporter, BatchTraceProcessor, default_processor
from openai import AsyncOpenAI


def test_lookup():
    socket.getaddrinfo("models.example.com", 443)


def test_connect_to_an_address():
    socket.create_connection(("192.0.2.10", 443), timeout=1)


def test_swallowed():
    try:
        socket.create_connection(("192.0.2.10", 80), timeout=1)
    except OSError:
        pass  # an application that falls back when a host is unreachable


class CustomModel(Model):
    '''A model of the application's own, calling a hosted endpoint through the openai client.'''

    def __init__(self):
        self.client = AsyncOpenAI(
            api_key="test-key", base_url="https://models.example.com/v1", max_retries=0
        )

    async def get_response(self, *args, **kwargs):
        await self.client.responses.create(model="m", input="hi")

    async def stream_response(self, *args, **kwargs):
        raise NotImplementedError
        yield


@pytest.mark.asyncio
async def test_custom_model():
    await Runner.run(Agent(name="a", model=CustomModel()), "hi")


@pytest.mark.asyncio
async def test_trace_exporter():
    # One attempt, no retry: a retry sleeping in the processor's thread would reach the
    # socket layer later, during whatever runs next in this process.
    exporter = BackendSpanExporter(
        api_key="sk-test", endpoint="https://api.openai.com/v1/traces/ingest", max_retries=1
    )
    processor = BatchTraceProcessor(exporter)
    set_trace_processors([processor])
    try:
        await Runner.run(Agent(name="a", model=ScriptedModel([[assistant_message("Hi.")]])), "hi")
        processor.force_flush()
    finally:
        set_trace_processors([default_processor()])
        processor.shutdown()


def test_loopback():
    class Hello(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("content-length", "5")
            self.end_headers()
            self.wfile.write(b"hello")

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hello)
    threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
    ).start()
    try:
        for host in ("127.0.0.1", "localhost"):
            with urllib.request.urlopen(f"http://{host}:{server.server_port}/") as answer:
                assert answer.read() == b"hello"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.agents_allow_network
def test_allowed():
    with pytest.raises(socket.gaierror, match="stand-in lookup of models.example.com"):
        socket.getaddrinfo("models.example.com", 443)
"""

BLOCKED = {
    "test_lookup": "name lookup of models.example.com:443",
    "test_connect_to_an_address": "connect of 192.0.2.10:443",
    "test_swallowed": "connect of 192.0.2.10:80",
    "test_custom_model": "name lookup of models.example.com:443",
    "test_trace_exporter": "trace upload of api.openai.com",
}


@pytest.fixture
def network(project: pytest.Pytester) -> pytest.Pytester:
    project.makeconftest(STAND_IN)
    project.makepyfile(test_net=TESTS)
    return project


def _check_blocked(result: pytest.RunResult) -> None:
    result.assert_outcomes(passed=2, failed=len(BLOCKED))
    result.stdout.fnmatch_lines_random(
        [
            f"*test_net.py::{name}: {what} was blocked: the network is blocked*"
            for name, what in BLOCKED.items()
        ]
    )
    # A client's own error ("Connection error.") comes with the blocked host beside it.
    result.stdout.fnmatch_lines(
        [
            "*- blocked network access -*",
            "test_net.py::test_custom_model: name lookup of models.example.com:443 was blocked*",
        ]
    )
    for name in (*BLOCKED, "test_loopback"):
        result.stdout.fnmatch_lines([f"*{name} got through to: nothing"])
    result.stdout.fnmatch_lines(["*test_allowed got through to: models.example.com"])


def test_the_option_refuses_every_host_but_loopback_naming_host_and_test(
    network: pytest.Pytester,
) -> None:
    _check_blocked(network.runpytest("-s", "--agents-block-network"))


def test_the_ini_key_blocks_like_the_option_and_the_allow_option_lifts_it(
    network: pytest.Pytester,
) -> None:
    network.makeini(
        """
        [pytest]
        asyncio_mode = strict
        asyncio_default_fixture_loop_scope = function
        agents_block_network = true
        """
    )
    _check_blocked(network.runpytest("-s"))

    lifted = network.runpytest("-s", "--agents-allow-network")

    lifted.stdout.no_fnmatch_line("*NetworkBlocked*")
    lifted.stdout.fnmatch_lines(["*test_lookup got through to: models.example.com"])


def test_without_the_option_nothing_is_blocked(network: pytest.Pytester) -> None:
    result = network.runpytest("-s")

    result.stdout.no_fnmatch_line("*NetworkBlocked*")
    result.stdout.fnmatch_lines(
        [
            "*test_connect_to_an_address got through to: 192.0.2.10",
            "*test_custom_model got through to: models.example.com",
        ]
    )


def test_the_block_is_removed_after_each_test(network: pytest.Pytester) -> None:
    import socket

    before = (socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo)

    network.runpytest("--agents-block-network")

    assert (socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo) == before


def test_blocking_and_allowing_the_network_at_once_is_a_usage_error(
    project: pytest.Pytester,
) -> None:
    project.makepyfile(test_nothing="def test_nothing():\n    pass\n")

    result = project.runpytest("--agents-block-network", "--agents-allow-network")

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--agents-block-network and --agents-allow-network contradict*"])


def test_the_blocked_error_is_a_connection_error_with_fields_that_survive_pickling() -> None:
    error = NetworkBlocked("t.py::test_x", "api.example.com", 443, "connect")

    copy = pickle.loads(pickle.dumps(error))

    assert isinstance(error, AgentsTestingError)
    assert isinstance(error, ConnectionError)
    assert (copy.test, copy.host, copy.port, copy.operation) == (
        "t.py::test_x",
        "api.example.com",
        443,
        "connect",
    )
    assert str(copy) == str(error)
    assert str(error).startswith("t.py::test_x: connect of api.example.com:443 was blocked")
