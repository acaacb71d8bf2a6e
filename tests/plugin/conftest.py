"""The plugin is tested the way pytest plugins are: by running throw-away test files."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

# The ini every throw-away project gets: strict asyncio like this repository.
INNER_INI = """
[pytest]
asyncio_mode = strict
asyncio_default_fixture_loop_scope = function
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    """A pytester project with the repository's asyncio settings."""
    pytester.makeini(INNER_INI)
    return pytester
