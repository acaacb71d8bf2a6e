"""The types of the voice pytest fixtures, for strictly typed tests.

Each calls like its double; ``extra_checks`` left as ``None`` follows the test's
``agents_testing`` marker (on unless the marker says ``extra_checks=False``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from agents_testing.core import AnyOrder

    from ._stt import ScriptedSTTModel, SessionSpec, TranscriptionSpec
    from ._tts import ScriptedTTSModel, TTSResult, TTSResultSpec
    from ._workflow import ScriptedVoiceWorkflow, WorkflowResultSpec

__all__ = ["ScriptedSTTModelFactory", "ScriptedTTSModelFactory", "ScriptedVoiceWorkflowFactory"]


class ScriptedSTTModelFactory(Protocol):
    """What the ``scripted_stt`` fixture is: call it exactly like ``ScriptedSTTModel(...)``."""

    def __call__(
        self,
        transcriptions: Iterable[TranscriptionSpec] | TranscriptionSpec = (),
        *,
        sessions: Iterable[SessionSpec] | SessionSpec = (),
        model_name: str = "scripted-stt",
        extra_checks: bool | None = None,
    ) -> ScriptedSTTModel: ...


class ScriptedTTSModelFactory(Protocol):
    """What the ``scripted_tts`` fixture is: call it exactly like ``ScriptedTTSModel(...)``."""

    def __call__(
        self,
        results: Iterable[TTSResultSpec | AnyOrder[TTSResultSpec]]
        | TTSResult
        | AnyOrder[TTSResultSpec]
        | Exception
        | type[Exception] = (),
        *,
        model_name: str = "scripted-tts",
        extra_checks: bool | None = None,
    ) -> ScriptedTTSModel: ...


class ScriptedVoiceWorkflowFactory(Protocol):
    """What the ``scripted_voice_workflow`` fixture is: call it exactly like
    ``ScriptedVoiceWorkflow(...)``."""

    def __call__(
        self,
        turns: Iterable[WorkflowResultSpec] | str | Exception | type[Exception] = (),
        *,
        start: WorkflowResultSpec | None = None,
        extra_checks: bool | None = None,
    ) -> ScriptedVoiceWorkflow: ...


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
