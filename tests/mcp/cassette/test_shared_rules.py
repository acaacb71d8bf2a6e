"""``mcp_cassette`` follows the cassette rules of every boundary: tracing off, one file per test."""

from __future__ import annotations

import pytest

INI = """
[pytest]
asyncio_mode = strict
asyncio_default_fixture_loop_scope = function
"""

TESTS = """
import pytest
from agents import trace
from agents.tracing.traces import NoOpTrace


def test_tracing_is_off(mcp_cassette):
    with trace("desk") as current:
        assert isinstance(current, NoOpTrace)
    assert mcp_cassette.path.name == "test_tracing_is_off.mcp.json"


class TestRates:
    def test_named_by_class(self, mcp_cassette):
        assert mcp_cassette.path.name == "TestRates.test_named_by_class.mcp.json"


@pytest.mark.agents_cassette(path="cassettes/rates.mcp.json")
def test_first(mcp_cassette):
    pass


@pytest.mark.agents_cassette(path="cassettes/rates.mcp.json")
def test_second(mcp_cassette):
    pass
"""


def test_mcp_cassettes_turn_tracing_off_and_belong_to_one_test(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("OPENAI_AGENTS_DISABLE_TRACING", raising=False)
    pytester.makeini(INI)
    pytester.makepyfile(test_rates=TESTS)

    result = pytester.runpytest()

    result.assert_outcomes(passed=2, errors=2)
    result.stdout.fnmatch_lines(
        ["*test_rates.py::test_first and test_rates.py::test_second both use the cassette*"]
    )
