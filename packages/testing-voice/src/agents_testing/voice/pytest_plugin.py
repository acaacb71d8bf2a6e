"""pytest plugin of the voice boundary: ``scripted_stt``, ``scripted_tts`` and
``scripted_voice_workflow``.

Loaded by pytest through the ``pytest11`` entry point; the library never imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from agents_testing.core.pytest_support import ScriptedDoubles

if TYPE_CHECKING:
    from agents_testing.voice import (
        ScriptedSTTModelFactory,
        ScriptedTTSModelFactory,
        ScriptedVoiceWorkflowFactory,
    )


@pytest.fixture
def scripted_stt(_agents_testing_doubles: ScriptedDoubles) -> ScriptedSTTModelFactory:
    """Make ``ScriptedSTTModel(...)`` doubles, checked (with their sessions) at teardown.

    Unlike the bare class, its models default to ``extra_checks=True`` unless the test
    says ``@pytest.mark.agents_testing(extra_checks=False)`` or the call passes
    ``extra_checks=False``.
    """
    from agents_testing.voice import ScriptedSTTModel

    return _agents_testing_doubles.checked("scripted_stt", ScriptedSTTModel)


@pytest.fixture
def scripted_tts(_agents_testing_doubles: ScriptedDoubles) -> ScriptedTTSModelFactory:
    """Make ``ScriptedTTSModel(...)`` doubles, checked at teardown.

    Their ``extra_checks`` defaults to on, as for ``scripted_stt``.
    """
    from agents_testing.voice import ScriptedTTSModel

    return _agents_testing_doubles.checked("scripted_tts", ScriptedTTSModel)


@pytest.fixture
def scripted_voice_workflow(
    _agents_testing_doubles: ScriptedDoubles,
) -> ScriptedVoiceWorkflowFactory:
    """Make ``ScriptedVoiceWorkflow(...)`` doubles, checked at teardown.

    Their ``extra_checks`` defaults to on, as for ``scripted_stt``.
    """
    from agents_testing.voice import ScriptedVoiceWorkflow

    return _agents_testing_doubles.checked("scripted_voice_workflow", ScriptedVoiceWorkflow)
