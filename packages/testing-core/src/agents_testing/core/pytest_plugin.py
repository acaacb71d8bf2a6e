"""pytest plugin of agents-testing, loaded by pytest through the ``pytest11`` entry point.

It provides what the boundary plugins' ``scripted_*`` and ``*_cassette`` fixtures share
(a per-test registry of doubles, checked with ``assert_complete()`` at teardown, with
tracing off meanwhile), the guard against real model requests
(``--agents-block-model-requests`` / ``agents_block_model_requests = true``, lifted for
one run by ``--agents-allow-model-requests``), the network block
(``--agents-block-network`` / ``agents_block_network = true``, lifted by
``--agents-allow-network``) and the ``captured_traces`` fixture.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from contextlib import ExitStack
from typing import TYPE_CHECKING

import pytest

from .pytest_support import (
    ALLOW_MARKER,
    CALL_REPORT,
    FIXTURE_MARKER,
    MODEL_REQUESTS_BLOCKED,
    ScriptedDoubles,
    blocks_model_requests,
    note_unconsumed,
)

if TYPE_CHECKING:
    from ._clock.virtual import VirtualClock
    from ._guard.network import NetworkGuard
    from ._guard.requests import RequestGuard
    from ._tracing.capture import CapturedTraces

ALLOW_NETWORK_MARKER = "agents_allow_network"
_OPTION = "agents_block_model_requests"
_ALLOW_OPTION = "agents_allow_model_requests"
_NETWORK_OPTION = "agents_block_network"
_ALLOW_NETWORK_OPTION = "agents_allow_network"
_GUARDS = pytest.StashKey["list[RequestGuard | NetworkGuard]"]()
_NETWORK_BLOCKED = pytest.StashKey[bool]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("agents-testing", "agents-testing (OpenAI Agents SDK doubles)")
    group.addoption(
        "--agents-block-model-requests",
        action="store_true",
        default=False,
        dest=_OPTION,
        help="fail any test in which a model the SDK ships (OpenAI Responses and Chat "
        "Completions, their websocket transport, Realtime, STT, TTS, LiteLLM, any-llm, ...) "
        "would send a request to its provider; the SDK's trace exporter uploads nothing "
        "meanwhile",
    )
    group.addoption(
        "--agents-allow-model-requests",
        action="store_true",
        default=False,
        dest=_ALLOW_OPTION,
        help="let real SDK models reach their providers in this run, even when "
        "agents_block_model_requests = true in the ini file",
    )
    parser.addini(
        _OPTION,
        type="bool",
        default=False,
        help="same as --agents-block-model-requests",
    )
    group.addoption(
        "--agents-block-network",
        action="store_true",
        default=False,
        dest=_NETWORK_OPTION,
        help="fail any test that connects to, or looks up, a host other than this "
        "machine's loopback (127.0.0.0/8, ::1, localhost), naming the host and the test",
    )
    group.addoption(
        "--agents-allow-network",
        action="store_true",
        default=False,
        dest=_ALLOW_NETWORK_OPTION,
        help="let tests reach the network in this run, even when agents_block_network = "
        "true in the ini file",
    )
    parser.addini(
        _NETWORK_OPTION,
        type="bool",
        default=False,
        help="same as --agents-block-network",
    )


def _switch(config: pytest.Config, option: str, allow_option: str) -> bool:
    """Whether a block is on: its option, or its ini key not lifted by the allow option."""
    try:
        from_ini = bool(config.getini(option))
    except (ValueError, pytest.UsageError) as error:
        raise pytest.UsageError(
            f"{option} must be true or false in the ini file ({error})"
        ) from None
    block, allow = bool(config.getoption(option)), bool(config.getoption(allow_option))
    if block and allow:
        flag, lift = option.replace("_", "-"), allow_option.replace("_", "-")
        raise pytest.UsageError(f"--{flag} and --{lift} contradict each other; give one of them.")
    return block or (from_ini and not allow)


def pytest_configure(config: pytest.Config) -> None:
    config.stash[MODEL_REQUESTS_BLOCKED] = _switch(config, _OPTION, _ALLOW_OPTION)
    config.stash[_NETWORK_BLOCKED] = _switch(config, _NETWORK_OPTION, _ALLOW_NETWORK_OPTION)
    config.addinivalue_line(
        "markers",
        f"{FIXTURE_MARKER}(assert_complete=True, disable_tracing=True, "
        "check_tool_calls=True): configure the scripted_* fixtures for this test. "
        "assert_complete=False skips the end-of-test check for unconsumed steps; "
        "disable_tracing=False leaves SDK tracing as it is; check_tool_calls=False lets "
        "scripted_model() answer with function calls that do not fit the offered tools.",
    )
    config.addinivalue_line(
        "markers",
        f"{ALLOW_MARKER}: let real SDK models reach their providers in this test even "
        "when --agents-block-model-requests or agents_block_model_requests is on "
        "(--agents-allow-model-requests does so for a whole run).",
    )
    config.addinivalue_line(
        "markers",
        f"{ALLOW_NETWORK_MARKER}: let this test reach hosts beyond loopback even when "
        "--agents-block-network or agents_block_network is on (--agents-allow-network "
        "does so for a whole run).",
    )


def _blocks_network(item: pytest.Item) -> bool:
    return item.config.stash[_NETWORK_BLOCKED] and (
        item.get_closest_marker(ALLOW_NETWORK_MARKER) is None
    )


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_protocol(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, object, object]:
    blocks_requests, blocks_network = blocks_model_requests(item), _blocks_network(item)
    if not (blocks_requests or blocks_network):
        return (yield)
    # Installed around setup, call and teardown of this one test and removed right
    # after, so nothing carries over to the next test (or exists in another worker).
    # The request guard goes in last, so its silent drop of trace uploads wins over the
    # network block's refusal when both are on.
    # Imported only when a block is on: most runs never need the guards.
    from ._guard.network import NetworkGuard
    from ._guard.requests import RequestGuard

    with ExitStack() as stack:
        guards: list[RequestGuard | NetworkGuard] = []
        if blocks_network:
            guards.append(stack.enter_context(NetworkGuard(item.nodeid)))
        if blocks_requests:
            guards.append(stack.enter_context(RequestGuard(item.nodeid)))
        item.stash[_GUARDS] = guards
        try:
            return (yield)
        finally:
            del item.stash[_GUARDS]


def _attempts(item: pytest.Item) -> list[Exception]:
    found: list[Exception] = []
    for guard in item.stash.get(_GUARDS, []):
        found.extend(guard.attempts)
    return found


def _clear_attempts(item: pytest.Item) -> None:
    for guard in item.stash.get(_GUARDS, []):
        guard.attempts.clear()


def _fail_swallowed_requests(item: pytest.Item) -> Generator[None, object, object]:
    """Fail a phase in which a blocked request was caught and hidden by the code under test."""
    __tracebackhide__ = True
    try:
        result = yield
    except BaseException as error:
        # The phase failed anyway. If the blocked request is not what it failed with,
        # the attempts stay and are attached to the report (pytest_runtest_makereport).
        # Blocked network access stays attached even when it caused the failure: clients
        # wrap it ("Connection error."), burying the host and the test in the chain.
        if _raised_from(error, _attempts(item)):
            for guard in item.stash.get(_GUARDS, []):
                if guard.kind == "requests":
                    guard.attempts.clear()
        raise
    attempts = _attempts(item)
    if attempts:
        _clear_attempts(item)
        raise attempts[0]
    return result


def _raised_from(error: BaseException, attempts: list[Exception]) -> bool:
    """Whether ``error`` is a blocked request, or was raised from one (``raise ... from``).

    Only explicit causes count. An implicit ``__context__`` does not prove that the
    request made the test fail: on Python 3.10, pytest-asyncio runs the test in a
    pure-Python task that resumes the coroutine inside an ``except`` block, so an
    exception the test already caught and dealt with stays the context of the next
    one raised, e.g. of the test's own failing assertion.
    """
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if any(current is attempt for attempt in attempts):
            return True
        seen.add(id(current))
        current = current.__cause__
    return False


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, object, object]:
    __tracebackhide__ = True
    return (yield from _fail_swallowed_requests(item))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    __tracebackhide__ = True
    return (yield from _fail_swallowed_requests(item))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, object, object]:
    __tracebackhide__ = True
    return (yield from _fail_swallowed_requests(item))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.failed:
        for guard in item.stash.get(_GUARDS, []):
            if guard.attempts:
                title = (
                    "blocked model requests"
                    if guard.kind == "requests"
                    else "blocked network access"
                )
                report.sections.append((title, "\n".join(map(str, guard.attempts))))
                guard.attempts.clear()
    if report.when == "call":
        item.stash[CALL_REPORT] = report
        if report.failed:
            note_unconsumed(item, report)
    return report


@pytest.fixture
def _agents_testing_doubles(request: pytest.FixtureRequest) -> Iterator[ScriptedDoubles]:
    """The registry behind every ``scripted_*`` fixture of this test."""
    # Its end-of-test failure is reported at the user's test, not in this plugin.
    __tracebackhide__ = True
    assert isinstance(request.node, pytest.Item)
    with ScriptedDoubles(request.node) as doubles:
        yield doubles


@pytest.fixture
def captured_traces(_agents_testing_doubles: ScriptedDoubles) -> Iterator[CapturedTraces]:
    """The SDK's traces and spans of this test, in memory (``capture_traces()``).

    Set up after the ``scripted_*`` fixtures have switched tracing off, it installs a
    trace provider of its own that is on regardless, so spans are captured whatever
    ``@pytest.mark.agents_testing(disable_tracing=...)`` says; nothing is uploaded. The
    previous provider and its processors are back when the test ends.
    """
    from ._tracing.capture import CapturedTraces

    with CapturedTraces() as traces:
        yield traces


@pytest.fixture
def virtual_clock() -> Iterator[VirtualClock]:
    """Virtual time for this test's event loop (``agents_testing.core.virtual_clock()``).

    Sleeps, timeouts and the SDK's retry back-off pass at once: the loop's time moves
    only when it would otherwise wait for a timer. ``virtual_clock.now`` is the time on
    the clock, ``virtual_clock.sleeps`` the seconds of every ``asyncio.sleep`` begun
    meanwhile, ``virtual_clock.waits`` each sleep and timeout with when it began.
    """
    from ._clock.virtual import VirtualClock

    with VirtualClock() as clock:
        yield clock
