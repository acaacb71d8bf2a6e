"""pytest plugin of the model boundary: the ``scripted_model``, ``scripted_model_provider``
and ``model_cassette`` fixtures.

Loaded by pytest through the ``pytest11`` entry point; the library never imports it.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

import pytest

from agents_testing.core.cassette_pytest import register_cassette_fixture, use_cassette
from agents_testing.core.pytest_support import ScriptedDoubles

if TYPE_CHECKING:
    from agents_testing.model import (
        ModelCassetteFixture,
        ScriptedModelFactory,
        ScriptedModelProvider,
        ScriptedModelProviderFactory,
    )

# The record-mode option and the cassette marker, shared with the sandbox plugin.
pytest_plugins = ["agents_testing.core.cassette_pytest"]
register_cassette_fixture("model_cassette", "model")


@pytest.fixture
def scripted_model(_agents_testing_doubles: ScriptedDoubles) -> ScriptedModelFactory:
    """Make ``ScriptedModel(...)`` doubles, each checked with ``assert_complete()`` at teardown.

    Unlike the bare class, its models default to ``stream_all_items=True`` (streamed
    runs carry hosted and built-in tool calls with their provider events) and to
    ``extra_checks=True`` (our stricter checks), and their scripted function calls are
    checked against the offered tools. ``@pytest.mark.agents_testing(extra_checks=False)``
    or ``(check_tool_calls=False)`` turn those off for a test; an argument given to the
    fixture wins over the marker.
    """
    from agents_testing.model import ScriptedModel

    return _agents_testing_doubles.checked("scripted_model", ScriptedModel, stream_all_items=True)


@pytest.fixture
def scripted_model_provider(
    _agents_testing_doubles: ScriptedDoubles,
) -> Iterator[ScriptedModelProviderFactory]:
    """Make ``ScriptedModelProvider(...)`` doubles, each the SDK's default provider for the test.

    The SDK's default provider is restored at teardown (before the end-of-test check);
    each provider made is checked with ``assert_complete()`` like every ``scripted_*``
    double. When several are made, the most recent one answers. Its models default to
    ``stream_all_items``, ``check_tool_calls`` and ``extra_checks`` on, as the
    ``scripted_model`` fixture's do.
    """
    from agents_testing.model import ScriptedModelProvider

    with ExitStack() as installed:

        def installing(**scripts: Any) -> ScriptedModelProvider:
            provider = ScriptedModelProvider(**scripts)
            installed.enter_context(provider.as_default())
            return provider

        installing.__doc__ = ScriptedModelProvider.__doc__
        installing.__signature__ = inspect.signature(ScriptedModelProvider)  # type: ignore[attr-defined]
        yield _agents_testing_doubles.checked(
            "scripted_model_provider", installing, stream_all_items=True
        )


@pytest.fixture
def model_cassette(
    request: pytest.FixtureRequest, _agents_testing_doubles: ScriptedDoubles
) -> Iterator[ModelCassetteFixture]:
    """This test's model cassette (``@pytest.mark.agents_cassette`` configures it).

    Like the ``scripted_*`` fixtures it turns SDK tracing off for the test (unless
    ``@pytest.mark.agents_testing(disable_tracing=False)``), recording or replaying, so
    no trace is exported.
    """
    from agents_testing.model import ModelCassetteFixture

    yield from use_cassette(request, "model", ModelCassetteFixture)
