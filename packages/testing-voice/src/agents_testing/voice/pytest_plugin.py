"""pytest plugin of the voice boundary: ``scripted_stt``, ``scripted_tts`` and
``scripted_voice_workflow``.

Loaded by pytest through the ``pytest11`` entry point; the library never imports it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import pytest

from agents_testing.core.pytest_support import ScriptedDoubles

if TYPE_CHECKING:
    from agents_testing.core import AnyOrder
    from agents_testing.voice import (
        ScriptedSTTModel,
        ScriptedSTTModelFactory,
        ScriptedTTSModel,
        ScriptedTTSModelFactory,
        ScriptedVoiceWorkflow,
        ScriptedVoiceWorkflowFactory,
        SessionSpec,
        TranscriptionSpec,
        TTSResult,
        TTSResultSpec,
        WorkflowResultSpec,
    )


@pytest.fixture
def scripted_stt(_agents_testing_doubles: ScriptedDoubles) -> ScriptedSTTModelFactory:
    """Make ``ScriptedSTTModel(...)`` doubles, checked (with their sessions) at teardown.

    Unlike the bare class, its models default to ``extra_checks=True`` unless the test
    says ``@pytest.mark.agents_testing(extra_checks=False)`` or the call passes
    ``extra_checks=False``.
    """
    from agents_testing.voice import ScriptedSTTModel

    checked = _agents_testing_doubles.options.extra_checks

    def scripted(
        transcriptions: Iterable[TranscriptionSpec] | TranscriptionSpec = (),
        *,
        sessions: Iterable[SessionSpec] | SessionSpec = (),
        model_name: str = "scripted-stt",
        extra_checks: bool | None = None,
    ) -> ScriptedSTTModel:
        return ScriptedSTTModel(
            transcriptions,
            sessions=sessions,
            model_name=model_name,
            extra_checks=checked if extra_checks is None else extra_checks,
        )

    scripted.__doc__ = ScriptedSTTModel.__doc__
    return _agents_testing_doubles.track("scripted_stt", scripted)


@pytest.fixture
def scripted_tts(_agents_testing_doubles: ScriptedDoubles) -> ScriptedTTSModelFactory:
    """Make ``ScriptedTTSModel(...)`` doubles, checked at teardown.

    Their ``extra_checks`` defaults to on, as for ``scripted_stt``.
    """
    from agents_testing.voice import ScriptedTTSModel

    checked = _agents_testing_doubles.options.extra_checks

    def scripted(
        results: Iterable[TTSResultSpec | AnyOrder[TTSResultSpec]]
        | TTSResult
        | AnyOrder[TTSResultSpec]
        | Exception
        | type[Exception] = (),
        *,
        model_name: str = "scripted-tts",
        extra_checks: bool | None = None,
    ) -> ScriptedTTSModel:
        return ScriptedTTSModel(
            results,
            model_name=model_name,
            extra_checks=checked if extra_checks is None else extra_checks,
        )

    scripted.__doc__ = ScriptedTTSModel.__doc__
    return _agents_testing_doubles.track("scripted_tts", scripted)


@pytest.fixture
def scripted_voice_workflow(
    _agents_testing_doubles: ScriptedDoubles,
) -> ScriptedVoiceWorkflowFactory:
    """Make ``ScriptedVoiceWorkflow(...)`` doubles, checked at teardown.

    Their ``extra_checks`` defaults to on, as for ``scripted_stt``.
    """
    from agents_testing.voice import ScriptedVoiceWorkflow

    checked = _agents_testing_doubles.options.extra_checks

    def scripted(
        turns: Iterable[WorkflowResultSpec] | str | Exception | type[Exception] = (),
        *,
        start: WorkflowResultSpec | None = None,
        extra_checks: bool | None = None,
    ) -> ScriptedVoiceWorkflow:
        return ScriptedVoiceWorkflow(
            turns,
            start=start,
            extra_checks=checked if extra_checks is None else extra_checks,
        )

    scripted.__doc__ = ScriptedVoiceWorkflow.__doc__
    return _agents_testing_doubles.track("scripted_voice_workflow", scripted)
