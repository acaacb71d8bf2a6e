"""pytest plugin of the realtime boundary: the ``scripted_realtime_model`` fixture.

Loaded by pytest through the ``pytest11`` entry point; the library never imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from agents_testing.core.pytest_support import ScriptedDoubles

if TYPE_CHECKING:
    from agents_testing.realtime import ScriptedRealtimeModelFactory


@pytest.fixture
def scripted_realtime_model(
    _agents_testing_doubles: ScriptedDoubles,
) -> ScriptedRealtimeModelFactory:
    """Make ``ScriptedRealtimeModel(...)`` doubles, checked at teardown."""
    from agents_testing.realtime import ScriptedRealtimeModel

    return _agents_testing_doubles.track("scripted_realtime_model", ScriptedRealtimeModel)
