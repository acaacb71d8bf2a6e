"""pytest plugin of the sandbox boundary: the ``scripted_sandbox`` and ``sandbox_cassette``
fixtures.

Loaded by pytest through the ``pytest11`` entry point; the library never imports it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from agents_testing.core.cassette_pytest import register_cassette_fixture, use_cassette
from agents_testing.core.pytest_support import ScriptedDoubles

if TYPE_CHECKING:
    from agents_testing.sandbox import SandboxCassetteFixture, ScriptedSandboxFactory

# The record-mode option and the cassette marker, shared with the model plugin.
pytest_plugins = ["agents_testing.core.cassette_pytest"]
register_cassette_fixture("sandbox_cassette", "sandbox")


@pytest.fixture
def scripted_sandbox(_agents_testing_doubles: ScriptedDoubles) -> ScriptedSandboxFactory:
    """Make sessions like ``scripted_sandbox_session(...)``, checked at teardown.

    Unlike the bare function, its sessions default to ``extra_checks=True`` unless the
    test says ``@pytest.mark.agents_testing(extra_checks=False)`` or the call passes
    ``extra_checks=False``.
    """
    from agents_testing.sandbox import scripted_sandbox_session

    return _agents_testing_doubles.checked("scripted_sandbox", scripted_sandbox_session)


@pytest.fixture
def sandbox_cassette(
    request: pytest.FixtureRequest, _agents_testing_doubles: ScriptedDoubles
) -> Iterator[SandboxCassetteFixture]:
    """This test's sandbox cassette (``@pytest.mark.agents_cassette`` configures it).

    SDK tracing is off for the test, as with the ``scripted_*`` fixtures (unless
    ``@pytest.mark.agents_testing(disable_tracing=False)``).
    """
    from agents_testing.sandbox import SandboxCassetteFixture

    yield from use_cassette(request, "sandbox", SandboxCassetteFixture)
