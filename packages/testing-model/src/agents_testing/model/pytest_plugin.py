"""pytest plugin of the model boundary: the ``scripted_model``, ``scripted_model_provider``
and ``model_cassette`` fixtures.

Loaded by pytest through the ``pytest11`` entry point; the library never imports it.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any, cast

import pytest

from agents_testing.core.cassette_pytest import (
    CassetteOptions,
    finish_cassette,
    register_cassette_fixture,
)
from agents_testing.core.pytest_support import ScriptedDoubles

if TYPE_CHECKING:
    from agents.usage import Usage

    from agents_testing.model import (
        ModelCassetteFixture,
        ScriptedModelFactory,
        ScriptedModelProvider,
        ScriptedModelProviderFactory,
    )
    from agents_testing.model._step import StepInput

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

    options = _agents_testing_doubles.options

    def scripted(
        steps: Iterable[StepInput] = (),
        *,
        emit_traces: bool = False,
        default_usage: Usage | None = None,
        stream_all_items: bool = True,
        check_tool_calls: bool | None = None,
        extra_checks: bool | None = None,
    ) -> ScriptedModel:
        return ScriptedModel(
            steps,
            emit_traces=emit_traces,
            default_usage=default_usage,
            stream_all_items=stream_all_items,
            check_tool_calls=options.check_tool_calls
            if check_tool_calls is None
            else check_tool_calls,
            extra_checks=options.extra_checks if extra_checks is None else extra_checks,
        )

    scripted.__doc__ = ScriptedModel.__doc__
    return _agents_testing_doubles.track("scripted_model", scripted)


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

    options = _agents_testing_doubles.options

    with ExitStack() as installed:

        def make(**scripts: Any) -> ScriptedModelProvider:
            # As with scripted_model: stream every item, check tool calls and our extra
            # checks unless told not to.
            scripts.setdefault("stream_all_items", True)
            if scripts.get("check_tool_calls") is None:
                scripts["check_tool_calls"] = options.check_tool_calls
            if scripts.get("extra_checks") is None:
                scripts["extra_checks"] = options.extra_checks
            provider = ScriptedModelProvider(**scripts)
            installed.enter_context(provider.as_default())
            return provider

        make.__doc__ = ScriptedModelProvider.__doc__
        signature = inspect.signature(ScriptedModelProvider)
        make.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=[
                p.replace(default=True)
                if p.name == "stream_all_items"
                else p.replace(default=None)
                if p.name == "extra_checks"
                else p
                for p in signature.parameters.values()
            ]
        )
        # The overloads of the constructor are what the factory type spells out.
        yield cast(
            "ScriptedModelProviderFactory",
            _agents_testing_doubles.track("scripted_model_provider", make),
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

    assert isinstance(request.node, pytest.Item)
    fixture = ModelCassetteFixture(CassetteOptions.for_item(request.node, "model"))
    yield fixture
    finish_cassette(request.node, fixture)
