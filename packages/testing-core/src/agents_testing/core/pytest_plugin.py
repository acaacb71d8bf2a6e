"""pytest plugin of agents-testing, loaded by pytest through the ``pytest11`` entry point.

It provides what the boundary plugins' ``scripted_*`` fixtures share (a per-test
registry of doubles, checked with ``assert_complete()`` at teardown, with tracing off
meanwhile) and the guard against real model requests
(``--agents-block-model-requests`` / ``agents_block_model_requests = true``, lifted
for one run by ``--agents-allow-model-requests``), and the ``captured_traces`` fixture.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from typing import TYPE_CHECKING

import pytest

from ._errors import ModelRequestBlocked
from ._guard.requests import RequestGuard
from .pytest_support import (
    CALL_REPORT,
    FIXTURE_MARKER,
    ScriptedDoubles,
    note_unconsumed,
)

if TYPE_CHECKING:
    from ._tracing.capture import CapturedTraces

ALLOW_MARKER = "agents_allow_model_requests"
_OPTION = "agents_block_model_requests"
_ALLOW_OPTION = "agents_allow_model_requests"
_GUARD = pytest.StashKey[RequestGuard]()
_BLOCKING = pytest.StashKey[bool]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("agents-testing", "agents-testing (OpenAI Agents SDK doubles)")
    group.addoption(
        "--agents-block-model-requests",
        action="store_true",
        default=False,
        dest=_OPTION,
        help="fail any test in which a real SDK model (OpenAI Responses, Chat Completions, "
        "Realtime, STT or TTS) would send a request to its provider; the SDK's trace "
        "exporter uploads nothing meanwhile",
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


def pytest_configure(config: pytest.Config) -> None:
    try:
        from_ini = bool(config.getini(_OPTION))
    except (ValueError, pytest.UsageError) as error:
        raise pytest.UsageError(
            f"{_OPTION} must be true or false in the ini file ({error})"
        ) from None
    block, allow = bool(config.getoption(_OPTION)), bool(config.getoption(_ALLOW_OPTION))
    if block and allow:
        raise pytest.UsageError(
            "--agents-block-model-requests and --agents-allow-model-requests contradict "
            "each other; give one of them."
        )
    config.stash[_BLOCKING] = block or (from_ini and not allow)
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


def _blocks_requests(item: pytest.Item) -> bool:
    return item.config.stash[_BLOCKING] and item.get_closest_marker(ALLOW_MARKER) is None


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_protocol(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, object, object]:
    if not _blocks_requests(item):
        return (yield)
    # Installed around setup, call and teardown of this one test and removed right
    # after, so nothing carries over to the next test (or exists in another worker).
    with RequestGuard(item.nodeid) as guard:
        item.stash[_GUARD] = guard
        try:
            return (yield)
        finally:
            del item.stash[_GUARD]


def _fail_swallowed_requests(item: pytest.Item) -> Generator[None, object, object]:
    """Fail a phase in which a blocked request was caught and hidden by the code under test."""
    __tracebackhide__ = True
    guard = item.stash.get(_GUARD, None)
    try:
        result = yield
    except BaseException as error:
        # The phase failed anyway. If the blocked request is not what it failed with,
        # the attempts stay and are attached to the report (pytest_runtest_makereport).
        if guard is not None and _raised_from(error, guard.attempts):
            guard.attempts.clear()
        raise
    if guard is not None and guard.attempts:
        blocked = guard.attempts[0]
        guard.attempts.clear()
        raise blocked
    return result


def _raised_from(error: BaseException, attempts: list[ModelRequestBlocked]) -> bool:
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
    guard = item.stash.get(_GUARD, None)
    if guard is not None and guard.attempts and report.failed:
        report.sections.append(
            ("blocked model requests", "\n".join(str(attempt) for attempt in guard.attempts))
        )
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
