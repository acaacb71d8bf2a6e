"""pytest plugin of the model boundary: the ``scripted_model`` fixture.

Loaded by pytest through the ``pytest11`` entry point; the library never imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from agents_testing.core.pytest_support import ScriptedDoubles

if TYPE_CHECKING:
    from agents_testing.model import ScriptedModelFactory


@pytest.fixture
def scripted_model(_agents_testing_doubles: ScriptedDoubles) -> ScriptedModelFactory:
    """Make ``ScriptedModel(...)`` doubles, each checked with ``assert_complete()`` at teardown."""
    from agents_testing.model import ScriptedModel

    return _agents_testing_doubles.track("scripted_model", ScriptedModel)
