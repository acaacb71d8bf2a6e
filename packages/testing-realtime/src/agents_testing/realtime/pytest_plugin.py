"""pytest plugin of the realtime boundary: the ``scripted_realtime_model`` fixture.

Loaded by pytest through the ``pytest11`` entry point; the library never imports it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import pytest

from agents_testing.core.pytest_support import ScriptedDoubles

if TYPE_CHECKING:
    from agents.realtime.model_events import RealtimeModelEvent

    from agents_testing.core import AnyOrder
    from agents_testing.realtime import (
        RealtimeStep,
        ScriptedRealtimeModel,
        ScriptedRealtimeModelFactory,
    )


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

    checked = _agents_testing_doubles.options.extra_checks

    def scripted(
        steps: Iterable[RealtimeStep | AnyOrder[RealtimeStep]] = (),
        *,
        connect_events: Iterable[RealtimeModelEvent] = (),
        connect_error: BaseException | type[BaseException] | None = None,
        close_error: BaseException | type[BaseException] | None = None,
        strict: bool = True,
        extra_checks: bool | None = None,
    ) -> ScriptedRealtimeModel:
        return ScriptedRealtimeModel(
            steps,
            connect_events=connect_events,
            connect_error=connect_error,
            close_error=close_error,
            strict=strict,
            extra_checks=checked if extra_checks is None else extra_checks,
        )

    scripted.__doc__ = ScriptedRealtimeModel.__doc__
    return _agents_testing_doubles.track("scripted_realtime_model", scripted)
