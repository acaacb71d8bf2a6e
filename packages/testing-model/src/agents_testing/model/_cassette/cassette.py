"""``ModelCassette``: record a test's model calls once, replay them as a ``ScriptedModel``.

One cassette file per test. :meth:`ModelCassette.record` wraps a real model (or
:meth:`~ModelCassette.record_provider` a provider) and :meth:`~ModelCassette.save`
writes what crossed it; :meth:`~ModelCassette.replay` loads the file as a
:class:`CassetteModel`. In the file, a request whose input continues the previous
call's input keeps only the new items (``input_prefix`` says how many it shares), so
a long tool loop grows the file linearly and a re-record's diff shows what changed.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from agents.items import ModelResponse
from agents.models.interface import Model, ModelProvider

from agents_testing.core.cassette import (
    CassetteFormatError,
    CassetteSecretError,
    Scrubber,
    dump_cassette,
    read_cassette,
    scan_for_secrets,
    scrub,
    scrubber_problem,
    write_cassette,
)

from .._step import ModelStep
from .outcome import step_from_json
from .recorder import Recorder, RecordingModel, RecordingModelProvider
from .replay import CassetteModel, CassetteModelProvider
from .request import DEFAULT_IGNORE, check_ignore

__all__ = ["ModelCassette"]

_PACKAGES = ("openai-agents", "openai", "agents-testing-model")


class ModelCassette:
    """The cassette file of one test at the model boundary.

    ``ignore`` names request parts left out of the replay comparison (default: the
    provider-assigned ``previous_response_id`` and ``conversation_id``); ``scrubbers``
    rewrite recorded strings (a regex, a ``(regex, replacement)`` pair or a callable);
    ``secrets`` are further values that must never be written; ``allow_secrets=True``
    writes even when the secret scan finds something.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        ignore: Iterable[str] = DEFAULT_IGNORE,
        scrubbers: Sequence[Scrubber] = (),
        secrets: Iterable[str] = (),
        allow_secrets: bool = False,
    ) -> None:
        self.path = Path(path)
        try:
            self.ignore = check_ignore(ignore)
        except ValueError as error:
            raise CassetteFormatError(None, str(error)) from None
        for scrubber in scrubbers:
            problem = scrubber_problem(scrubber)
            if problem is not None:
                raise CassetteFormatError(None, f"invalid scrubber: {problem}.")
        self.scrubbers = tuple(scrubbers)
        self.secrets = tuple(secrets)
        self.allow_secrets = bool(allow_secrets)
        self._recorder: Recorder | None = None

    @property
    def exists(self) -> bool:
        """Whether the cassette file is there."""
        return self.path.is_file()

    # -- recording -----------------------------------------------------------------

    def record(self, model: Model | Callable[[], Model], *, keep_recorded: bool = False) -> Model:
        """A model that passes every call to ``model`` and records it for :meth:`save`.

        ``model`` may be a factory, called on the first call that reaches it. With
        ``keep_recorded=True`` (record mode ``new_episodes``) calls that follow the existing
        cassette are answered from it; the real model takes over at the first new or
        changed call.
        """
        recorder = self._start(keep_recorded)
        if isinstance(model, Model):
            return RecordingModel(model, recorder)
        return RecordingModelProvider(_FactoryProvider(model), recorder).get_model(None)

    def record_provider(
        self,
        provider: ModelProvider | Callable[[], ModelProvider],
        *,
        keep_recorded: bool = False,
    ) -> ModelProvider:
        """A provider whose models record into this cassette (``RunConfig(model_provider=...)``)."""
        return RecordingModelProvider(provider, self._start(keep_recorded))

    def _start(self, keep_recorded: bool) -> Recorder:
        if self._recorder is not None:
            return self._recorder
        earlier: list[dict[str, Any]] = []
        steps: list[ModelStep] = []
        if keep_recorded and self.exists:
            earlier, steps = self._load()
        self._recorder = Recorder(
            earlier=earlier, earlier_steps=steps, ignore=self.ignore, scrubbers=self.scrubbers
        )
        return self._recorder

    @property
    def recorded(self) -> int:
        """How many calls were recorded (or kept) since :meth:`record`."""
        return 0 if self._recorder is None else len(self._recorder.entries)

    def dumps(self) -> str:
        """The cassette text :meth:`save` would write; raises ``CassetteSecretError``."""
        if self._recorder is None:
            raise CassetteFormatError(
                str(self.path), "nothing was recorded; call record() or record_provider() first."
            )
        calls = scrub(self._recorder.calls(), self.scrubbers)
        if not self.allow_secrets:
            findings = scan_for_secrets(
                calls, live_secrets=[*self._recorder.live_secrets, *self.secrets], root="calls"
            )
            if findings:
                raise CassetteSecretError(str(self.path), findings)
        return dump_cassette("model", _compress(calls), packages=_PACKAGES)

    def save(self) -> None:
        """Scan the recorded calls for secrets and write the cassette file."""
        write_cassette(self.path, self.dumps())

    # -- replay ----------------------------------------------------------------------

    def replay(self) -> CassetteModel:
        """The cassette as a :class:`CassetteModel` (a ``ScriptedModel``); no provider needed.

        Raises ``CassetteNotFound`` when the file is missing and ``CassetteFormatError``
        when it cannot be read.
        """
        calls, steps = self._load()
        return CassetteModel(
            [_exact(step) for step in steps],
            [call["request"] for call in calls],
            ignore=self.ignore,
            scrubbers=self.scrubbers,
            shared_prefixes=_shared_prefixes(calls),
        )

    def replay_provider(self) -> ModelProvider:
        """A provider answering every model name with one :meth:`replay` model."""
        return CassetteModelProvider(self.replay())

    def _load(self) -> tuple[list[dict[str, Any]], list[ModelStep]]:
        where = str(self.path)
        calls = _expand(read_cassette(self.path, "model"), where)
        return calls, [step_from_json(call, index, where) for index, call in enumerate(calls)]


def _exact(step: ModelStep) -> ModelStep | ModelResponse:
    # A ModelResponse step keeps a recorded ``response_id`` of None as None.
    if step.error is not None or step.stream_events is not None:
        return step
    assert step.usage is not None
    return ModelResponse(output=list(step.output), usage=step.usage, response_id=step.response_id)


class _FactoryProvider(ModelProvider):
    def __init__(self, factory: Callable[[], Model]) -> None:
        self._factory = factory

    def get_model(self, model_name: str | None) -> Model:
        return self._factory()


def _compress(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Calls whose input continues the previous call's keep only the new items."""
    result: list[dict[str, Any]] = []
    previous: Any = None
    for call in calls:
        request = call["request"]
        items = request["input"]
        if (
            isinstance(items, list)
            and isinstance(previous, list)
            and previous
            and items[: len(previous)] == previous
        ):
            request = {**request, "input": items[len(previous) :], "input_prefix": len(previous)}
            call = {**call, "request": request}
        result.append(call)
        previous = items
    return result


def _shared_prefixes(calls: list[dict[str, Any]]) -> list[int]:
    """How many leading input items each call shares (as objects) with the call before it."""
    found: list[int] = []
    previous: Any = None
    for call in calls:
        items = call["request"].get("input")
        shared = 0
        if (
            isinstance(items, list)
            and isinstance(previous, list)
            and 0 < len(previous) <= len(items)
            and items[len(previous) - 1] is previous[-1]
        ):
            shared = len(previous)
        found.append(shared)
        previous = items
    return found


def _expand(calls: list[dict[str, Any]], where: str) -> list[dict[str, Any]]:
    """The calls with every request's full input (undoing :func:`_compress`)."""
    result: list[dict[str, Any]] = []
    previous: Any = None
    for index, call in enumerate(calls):
        request = call.get("request")
        if not isinstance(request, Mapping):
            raise CassetteFormatError(where, f"call {index + 1} has no 'request' object.")
        items = request.get("input")
        prefix = request.get("input_prefix")
        if prefix is not None:
            if not (
                isinstance(prefix, int)
                and isinstance(previous, list)
                and isinstance(items, list)
                and prefix == len(previous)
            ):
                raise CassetteFormatError(
                    where,
                    f"call {index + 1}: 'input_prefix' must equal the number of input items "
                    f"of the call before it.",
                )
            items = previous + items
            request = {key: value for key, value in request.items() if key != "input_prefix"}
            request["input"] = items
            call = {**call, "request": request}
        result.append(call)
        previous = items
    return result
