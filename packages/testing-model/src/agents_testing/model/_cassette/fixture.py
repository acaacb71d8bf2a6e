"""``ModelCassetteFixture``: what the ``model_cassette`` pytest fixture gives a test.

The fixture object decides, from the record mode and whether the cassette exists,
whether the test records through the real model or replays the cassette; the pytest
plugin makes one per test and saves or checks it at teardown. Public for annotations
(``def test_x(model_cassette: ModelCassetteFixture)``); pytest is not imported here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from agents_testing.core.cassette import CassetteError, CassetteUse, keeps_recorded

from .cassette import ModelCassette
from .replay import CassetteModel

if TYPE_CHECKING:
    from agents.models.interface import Model, ModelProvider

    from agents_testing.core.cassette_pytest import CassetteOptions


__all__ = ["ModelCassetteFixture"]


class ModelCassetteFixture(CassetteUse[ModelCassette, CassetteModel]):
    """This test's model cassette: ``model(real)`` / ``provider(real)`` record or replay.

    In record mode ``none`` (the default, and under CI) both replay the cassette and
    never touch ``real``; ``once`` records when there is no cassette yet;
    ``new_episodes`` replays what still matches and records the rest; ``all`` (or
    ``rewrite``) records again. A recording is saved when the test passes; a replay is
    checked with ``assert_complete()``. ``mode``, ``path``, ``cassette``, ``recording``
    and ``replaying`` say what it is doing.
    """

    def __init__(self, options: CassetteOptions) -> None:
        super().__init__(options, ModelCassette(options.path, **options.settings))

    def model(self, real: Model | Callable[[], Model] | None = None) -> Model:
        """The model for this test: ``real`` recorded, or the cassette replayed.

        Pass a factory (``lambda: OpenAIResponsesModel(...)``) so that a replay creates
        no client and needs no API key. Given a model object, a replay also checks that
        its model name is the recorded one.
        """
        if not self._records(reaches_provider=True):
            return self._replayed(self.cassette.replay(model_name=_model_name(real)))
        if real is None:
            raise CassetteError(
                f"Recording {self.path} needs the real model: pass it, as "
                f"model_cassette.model(real_model) or model_cassette.model(lambda: ...)."
            )
        recording = self.cassette.record(real, keep_recorded=keeps_recorded(self.mode))
        return self._recorded(recording)

    def provider(
        self, real: ModelProvider | Callable[[], ModelProvider] | None = None
    ) -> ModelProvider:
        """A model provider for ``RunConfig(model_provider=...)``; default ``OpenAIProvider()``.

        A replay checks each call's model name (what the agent asked for) too.
        """
        if not self._records(reaches_provider=True):
            provider = self.cassette.replay_provider()
            self._replayed(provider.model)
            return provider
        if real is None:
            from agents.models.openai_provider import OpenAIProvider

            real = OpenAIProvider
        recording = self.cassette.record_provider(real, keep_recorded=keeps_recorded(self.mode))
        return self._recorded(recording)


def _model_name(real: object) -> str | None:
    # Only a model object tells its name without being created; a factory is not called.
    from agents.models.interface import Model

    if isinstance(real, Model):
        name = getattr(real, "model", None)
        return name if isinstance(name, str) else None
    return None


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
