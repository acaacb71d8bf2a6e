"""The type of the ``scripted_realtime_model`` pytest fixture, for strictly typed tests."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from agents.realtime.model_events import RealtimeModelEvent

    from agents_testing.core import AnyOrder

    from ._model import ScriptedRealtimeModel
    from ._step import RealtimeStep

__all__ = ["ScriptedRealtimeModelFactory"]


class ScriptedRealtimeModelFactory(Protocol):
    """What the ``scripted_realtime_model`` fixture is: call it like
    ``ScriptedRealtimeModel(...)``.

    Annotate the fixture with it,
    ``def test_x(scripted_realtime_model: ScriptedRealtimeModelFactory)``. One
    difference: ``extra_checks=None`` means the test's setting (on unless
    ``@pytest.mark.agents_testing(extra_checks=False)``), not off.
    """

    def __call__(
        self,
        steps: Iterable[RealtimeStep | AnyOrder[RealtimeStep]] = (),
        *,
        connect_events: Iterable[RealtimeModelEvent] = (),
        connect_error: BaseException | type[BaseException] | None = None,
        close_error: BaseException | type[BaseException] | None = None,
        strict: bool = True,
        extra_checks: bool | None = None,
    ) -> ScriptedRealtimeModel: ...


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
