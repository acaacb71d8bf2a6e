"""pytest plugin of the model boundary: the ``scripted_model``, ``scripted_model_provider``
and ``model_cassette`` fixtures.

Loaded by pytest through the ``pytest11`` entry point; the library never imports it.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any, cast

import pytest

from agents_testing.core.cassette_pytest import CassetteOptions, finish_cassette
from agents_testing.core.pytest_support import ScriptedDoubles

if TYPE_CHECKING:
    from agents.models.interface import Model, ModelProvider
    from agents.usage import Usage

    from agents_testing.model import (
        CassetteModel,
        ModelCassette,
        ScriptedModelFactory,
        ScriptedModelProvider,
        ScriptedModelProviderFactory,
    )
    from agents_testing.model._step import StepInput

# The record-mode option and the cassette marker, shared with the sandbox plugin.
pytest_plugins = ["agents_testing.core.cassette_pytest"]


@pytest.fixture
def scripted_model(_agents_testing_doubles: ScriptedDoubles) -> ScriptedModelFactory:
    """Make ``ScriptedModel(...)`` doubles, each checked with ``assert_complete()`` at teardown.

    Unlike the bare class, its models default to ``stream_all_items=True`` (streamed
    runs carry hosted and built-in tool calls with their provider events), and their
    scripted function calls are checked against the offered tools unless the test says
    ``@pytest.mark.agents_testing(check_tool_calls=False)`` or the call passes
    ``check_tool_calls=False``.
    """
    from agents_testing.model import ScriptedModel

    checked = _agents_testing_doubles.options.check_tool_calls

    def scripted(
        steps: Iterable[StepInput] = (),
        *,
        emit_traces: bool = False,
        default_usage: Usage | None = None,
        stream_all_items: bool = True,
        check_tool_calls: bool | None = None,
    ) -> ScriptedModel:
        if check_tool_calls is None:
            check_tool_calls = checked
        return ScriptedModel(
            steps,
            emit_traces=emit_traces,
            default_usage=default_usage,
            stream_all_items=stream_all_items,
            check_tool_calls=check_tool_calls,
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
    double. When several are made, the most recent one answers.
    """
    from agents_testing.model import ScriptedModelProvider

    with ExitStack() as installed:

        def make(**scripts: Any) -> ScriptedModelProvider:
            # As with scripted_model: stream every item, check tool calls unless told not to.
            scripts.setdefault("stream_all_items", True)
            if scripts.get("check_tool_calls") is None:
                scripts["check_tool_calls"] = _agents_testing_doubles.options.check_tool_calls
            provider = ScriptedModelProvider(**scripts)
            installed.enter_context(provider.as_default())
            return provider

        make.__doc__ = ScriptedModelProvider.__doc__
        signature = inspect.signature(ScriptedModelProvider)
        make.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=[
                p.replace(default=True) if p.name == "stream_all_items" else p
                for p in signature.parameters.values()
            ]
        )
        # The overloads of the constructor are what the factory type spells out.
        yield cast(
            "ScriptedModelProviderFactory",
            _agents_testing_doubles.track("scripted_model_provider", make),
        )


class ModelCassetteFixture:
    """This test's model cassette: ``model(real)`` / ``provider(real)`` record or replay.
    # A refusal at teardown is reported at the test function, not in this plugin.
    __tracebackhide__ = True

    In record mode ``none`` (the default, and always under CI) both replay the cassette
    and never touch ``real``; ``once`` records when there is no cassette yet;
    ``new_episodes`` replays what still matches and records the rest; ``all`` records
    again. A recording is saved when the test passes; a replay is checked with
    ``assert_complete()``.
    """

    def __init__(self, options: CassetteOptions) -> None:
        from agents_testing.model import ModelCassette

        self.mode = options.mode
        self.cassette: ModelCassette = ModelCassette(options.path, **options.settings)
        self.replaying: CassetteModel | None = None
        self.recording = False

    @property
    def path(self) -> Any:
        """Where this test's cassette is."""
        return self.cassette.path

    def _records(self) -> bool:
        return (
            self.mode == "all"
            or (self.mode != "none" and not self.cassette.exists)
            or (self.mode == "new_episodes")
        )

    def model(self, real: Model | Callable[[], Model] | None = None) -> Model:
        """The model for this test: ``real`` recorded, or the cassette replayed."""
        if not self._records():
            self.replaying = self.cassette.replay()
            return self.replaying
        if real is None:
            raise pytest.UsageError(
                f"Recording {self.path} needs the real model: model_cassette.model(real_model)."
            )
        self.recording = True
        return self.cassette.record(real, keep_recorded=self.mode == "new_episodes")

    def provider(
        self, real: ModelProvider | Callable[[], ModelProvider] | None = None
    ) -> ModelProvider:
        """A model provider for ``RunConfig(model_provider=...)``; default ``OpenAIProvider()``."""
        if not self._records():
            provider = self.cassette.replay_provider()
            self.replaying = provider.get_model(None)  # type: ignore[assignment]
            return provider
        if real is None:
            from agents.models.openai_provider import OpenAIProvider

            real = OpenAIProvider
        self.recording = True
        return self.cassette.record_provider(real, keep_recorded=self.mode == "new_episodes")


@pytest.fixture
def model_cassette(request: pytest.FixtureRequest) -> Iterator[ModelCassetteFixture]:
    """This test's model cassette (``@pytest.mark.agents_cassette`` configures it)."""
    assert isinstance(request.node, pytest.Item)
    fixture = ModelCassetteFixture(CassetteOptions.for_item(request.node, "model"))
    yield fixture
    finish_cassette(request.node, fixture)
