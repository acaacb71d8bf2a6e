"""The exported fixture types call like the doubles the fixtures make."""

from __future__ import annotations

import inspect
from collections.abc import Callable

import pytest

import agents_testing.model
import agents_testing.realtime
import agents_testing.sandbox
import agents_testing.voice

FACTORIES: list[tuple[object, Callable[..., object]]] = [
    (agents_testing.model.ScriptedModelFactory, agents_testing.model.ScriptedModel),
    (
        agents_testing.model.ScriptedModelProviderFactory,
        agents_testing.model.ScriptedModelProvider,
    ),
    (
        agents_testing.sandbox.ScriptedSandboxFactory,
        agents_testing.sandbox.scripted_sandbox_session,
    ),
    (
        agents_testing.realtime.ScriptedRealtimeModelFactory,
        agents_testing.realtime.ScriptedRealtimeModel,
    ),
    (agents_testing.voice.ScriptedSTTModelFactory, agents_testing.voice.ScriptedSTTModel),
    (agents_testing.voice.ScriptedTTSModelFactory, agents_testing.voice.ScriptedTTSModel),
    (agents_testing.voice.ScriptedVoiceWorkflowFactory, agents_testing.voice.ScriptedVoiceWorkflow),
]


@pytest.mark.parametrize(
    ("factory", "double"), FACTORIES, ids=[getattr(f, "__name__", "") for f, _ in FACTORIES]
)
def test_a_factory_type_has_the_signature_of_the_double(
    factory: object, double: Callable[..., object]
) -> None:
    call = inspect.signature(factory.__call__)  # type: ignore[operator]
    made = inspect.signature(double)

    assert next(iter(call.parameters)) == "self"
    expected_parameters = list(made.parameters.values())
    if double in (agents_testing.model.ScriptedModel, agents_testing.model.ScriptedModelProvider):
        # The fixture's models stream tool-call items unless told otherwise.
        expected_parameters = [
            p.replace(default=True) if p.name == "stream_all_items" else p
            for p in expected_parameters
        ]
    # A fixture's extra_checks=None means the test's setting (on unless the marker says off).
    expected_parameters = [
        p.replace(default=None, annotation="bool | None") if p.name == "extra_checks" else p
        for p in expected_parameters
    ]
    assert list(call.parameters.values())[1:] == expected_parameters
    expected = double.__name__ if inspect.isclass(double) else made.return_annotation
    assert call.return_annotation == expected


CASSETTE_TYPES = """
import pytest
from agents.testing import ModelCassetteFixture, SandboxCassetteFixture
from agents_testing.model import ModelCassetteFixture as FromModel
from agents_testing.sandbox import SandboxCassetteFixture as FromSandbox


def test_the_fixtures_are_the_exported_types(model_cassette, sandbox_cassette):
    assert ModelCassetteFixture is FromModel
    assert SandboxCassetteFixture is FromSandbox
    assert isinstance(model_cassette, ModelCassetteFixture)
    assert isinstance(sandbox_cassette, SandboxCassetteFixture)
    assert ModelCassetteFixture.__module__ == "agents_testing.model"
    assert SandboxCassetteFixture.__module__ == "agents_testing.sandbox"
"""


def test_the_cassette_fixture_types_are_exported_where_the_doubles_are(
    project: pytest.Pytester,
) -> None:
    assert "ModelCassetteFixture" in agents_testing.model.__all__
    assert "SandboxCassetteFixture" in agents_testing.sandbox.__all__
    project.makepyfile(test_types=CASSETTE_TYPES)

    project.runpytest().assert_outcomes(passed=1)
