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
    """Make ``ScriptedRealtimeModel(...)`` doubles, each checked with ``assert_complete()``
    at teardown.

    Unlike the bare class, its models make the extra checks (``extra_checks=True``)
    unless the test says ``@pytest.mark.agents_testing(extra_checks=False)`` or the call
    passes ``extra_checks=False``.
    """
    from agents_testing.realtime import ScriptedRealtimeModel

    return _agents_testing_doubles.checked("scripted_realtime_model", ScriptedRealtimeModel)
