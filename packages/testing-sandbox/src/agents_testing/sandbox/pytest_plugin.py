"""pytest plugin of the sandbox boundary: the ``scripted_sandbox`` fixture.

Loaded by pytest through the ``pytest11`` entry point; the library never imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from agents_testing.core.pytest_support import ScriptedDoubles

if TYPE_CHECKING:
    from agents_testing.sandbox import ScriptedSandboxFactory


@pytest.fixture
def scripted_sandbox(
    _agents_testing_doubles: ScriptedDoubles,
) -> ScriptedSandboxFactory:
    """Make sessions like ``scripted_sandbox_session(...)``, checked at teardown."""
    from agents_testing.sandbox import scripted_sandbox_session

    return _agents_testing_doubles.track("scripted_sandbox", scripted_sandbox_session)
