"""The type of the ``scripted_model`` pytest fixture, for strictly typed tests."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from agents.usage import Usage

    from ._scripted_model import ScriptedModel
    from ._step import StepInput

__all__ = ["ScriptedModelFactory"]


class ScriptedModelFactory(Protocol):
    """What the ``scripted_model`` fixture is: call it exactly like ``ScriptedModel(...)``.

    Annotate the fixture with it, ``def test_x(scripted_model: ScriptedModelFactory)``.
    The differences: the fixture's models default to ``stream_all_items=True``, and
    ``check_tool_calls=None`` and ``extra_checks=None`` mean the test's setting (on
    unless ``@pytest.mark.agents_testing(check_tool_calls=False)`` or
    ``(extra_checks=False)``), not off.
    """

    def __call__(
        self,
        steps: Iterable[StepInput] = (),
        *,
        emit_traces: bool = False,
        default_usage: Usage | None = None,
        stream_all_items: bool = True,
        check_tool_calls: bool | None = None,
        extra_checks: bool | None = None,
    ) -> ScriptedModel: ...


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
