"""pytest plugin of the sandbox boundary: the ``scripted_sandbox`` and ``sandbox_cassette``
fixtures.

Loaded by pytest through the ``pytest11`` entry point; the library never imports it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

import pytest

from agents_testing.core.cassette_pytest import (
    CassetteOptions,
    finish_cassette,
    register_cassette_fixture,
)
from agents_testing.core.pytest_support import ScriptedDoubles

if TYPE_CHECKING:
    from agents.sandbox.manifest import Manifest

    from agents_testing.core import AnyOrder
    from agents_testing.sandbox import (
        SandboxCassetteFixture,
        SandboxStepSpec,
        ScriptedSandboxFactory,
        ScriptedSandboxSession,
    )

# The record-mode option and the cassette marker, shared with the model plugin.
pytest_plugins = ["agents_testing.core.cassette_pytest"]
register_cassette_fixture("sandbox_cassette", "sandbox")


@pytest.fixture
def scripted_sandbox(
    _agents_testing_doubles: ScriptedDoubles,
) -> ScriptedSandboxFactory:
    """Make sessions like ``scripted_sandbox_session(...)``, checked at teardown.

    Unlike the bare function, its sessions default to ``extra_checks=True`` unless the
    test says ``@pytest.mark.agents_testing(extra_checks=False)`` or the call passes
    ``extra_checks=False``.
    """
    from agents_testing.sandbox import scripted_sandbox_session

    checked = _agents_testing_doubles.options.extra_checks

    def scripted(
        steps: Iterable[SandboxStepSpec | AnyOrder[SandboxStepSpec]] = (),
        *,
        manifest: Manifest | None = None,
        extra_checks: bool | None = None,
    ) -> ScriptedSandboxSession:
        return scripted_sandbox_session(
            steps,
            manifest=manifest,
            extra_checks=checked if extra_checks is None else extra_checks,
        )

    scripted.__doc__ = scripted_sandbox_session.__doc__
    return _agents_testing_doubles.track("scripted_sandbox", scripted)


@pytest.fixture
def sandbox_cassette(
    request: pytest.FixtureRequest, _agents_testing_doubles: ScriptedDoubles
) -> Iterator[SandboxCassetteFixture]:
    """This test's sandbox cassette (``@pytest.mark.agents_cassette`` configures it).

    SDK tracing is off for the test, as with the ``scripted_*`` fixtures (unless
    ``@pytest.mark.agents_testing(disable_tracing=False)``).
    """
    from agents_testing.sandbox import SandboxCassetteFixture

    assert isinstance(request.node, pytest.Item)
    fixture = SandboxCassetteFixture(CassetteOptions.for_item(request.node, "sandbox"))
    yield fixture
    finish_cassette(request.node, fixture)
