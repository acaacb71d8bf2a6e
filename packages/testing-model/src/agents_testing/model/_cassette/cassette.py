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
from typing import Any

from agents.items import ModelResponse
from agents.models.interface import Model, ModelProvider

from agents_testing.core.cassette import (
    AllowedSecret,
    BoundaryCassette,
    CassetteFormatError,
    Scrubber,
)

from .._errors import InvalidModelStep
from .._step import ModelStep
from .outcome import step_from_json
from .recorder import LazyModel, Recorder, RecordingModel, RecordingModelProvider
from .replay import CassetteModel, CassetteModelProvider
from .request import DEFAULT_IGNORE, REQUEST_FIELDS, check_ignore

__all__ = ["ModelCassette"]


class ModelCassette(BoundaryCassette):
    """The cassette file of one test at the model boundary.

    ``ignore`` names request parts left out of the replay comparison (default: the
    provider-assigned ``previous_response_id`` and ``conversation_id``); ``scrubbers``
    rewrite recorded strings (a regex, a ``(regex, replacement)`` pair or a callable);
    ``secrets`` are further values that must never be written; ``allowed_secrets`` lists
    harmless values the secret scan lets through (exact strings, or compiled patterns
    the whole value must match); ``allow_secrets=True`` skips the scan altogether.
    """

    boundary = "model"
    packages = ("openai-agents", "openai", "agents-testing-model")
    record_hint = "record() or record_provider()"

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        ignore: Iterable[str] = DEFAULT_IGNORE,
        scrubbers: Sequence[Scrubber] = (),
        secrets: Iterable[str] = (),
        allow_secrets: bool = False,
        allowed_secrets: Iterable[AllowedSecret] = (),
    ) -> None:
        try:
            self.ignore = check_ignore(ignore)
        except ValueError as error:
            raise CassetteFormatError(None, str(error)) from None
        super().__init__(
            path,
            scrubbers=scrubbers,
            secrets=secrets,
            allow_secrets=allow_secrets,
            allowed_secrets=allowed_secrets,
        )

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
        return RecordingModel(LazyModel(model), recorder)

    def record_provider(
        self,
        provider: ModelProvider | Callable[[], ModelProvider],
        *,
        keep_recorded: bool = False,
    ) -> ModelProvider:
        """A provider whose models record into this cassette (``RunConfig(model_provider=...)``)."""
        return RecordingModelProvider(provider, self._start(keep_recorded))

    def _start(self, keep_recorded: bool) -> Recorder:
        if isinstance(self._recorder, Recorder):
            return self._recorder
        earlier: list[dict[str, Any]] = []
        steps: list[ModelStep] = []
        if keep_recorded and self.exists:
            earlier, steps = self._load()
        recorder = Recorder(
            earlier=earlier, earlier_steps=steps, ignore=self.ignore, scrubbers=self.scrubbers
        )
        self._recorder = recorder
        return recorder

    @property
    def recorded(self) -> int:
        """How many calls were recorded (or kept) since :meth:`record`."""
        recorder = self._recorder
        return len(recorder.entries) if isinstance(recorder, Recorder) else 0

    def _recording(self, recorder: Recorder) -> list[Any]:
        return recorder.calls()

    def _live_secrets(self, recorder: Recorder) -> list[str]:
        # The API key in use, and the secrets of every provider client the calls reached.
        return list(recorder.live_secrets)

    def _written(self, calls: list[Any]) -> list[Any]:
        return _compress(calls)

    # -- replay ----------------------------------------------------------------------

    def replay(self, *, model_name: str | None = None) -> CassetteModel:
        """The cassette as a :class:`CassetteModel` (a ``ScriptedModel``); no provider needed.

        ``model_name``, when given, is compared with the model name each call recorded.
        Raises ``CassetteNotFound`` when the file is missing and ``CassetteFormatError``
        (naming the file and the JSON path) when it cannot be read.
        """
        calls, steps = self._load()
        try:
            return CassetteModel(
                [_exact(step) for step in steps],
                [call["request"] for call in calls],
                ignore=self.ignore,
                scrubbers=self.scrubbers,
                shared_prefixes=_shared_prefixes(calls),
                model_names=[_recorded_name(call) for call in calls],
                model_name=model_name,
            )
        except InvalidModelStep as error:
            raise CassetteFormatError(
                str(self.path), f"it cannot be replayed: {error}", f"calls[{error.input_index}]"
            ) from None

    def replay_provider(self) -> CassetteModelProvider:
        """A provider answering every model name with one :meth:`replay` model (its ``model``).

        Each call's model name (what the agent asked for) is compared with the recorded one.
        """
        return CassetteModelProvider(self.replay())

    def _load(self) -> tuple[list[dict[str, Any]], list[ModelStep]]:
        where = str(self.path)
        calls = _expand(self._read(), where)
        return calls, [step_from_json(call, index, where) for index, call in enumerate(calls)]


def _exact(step: ModelStep) -> ModelStep | ModelResponse:
    # A ModelResponse step keeps a recorded ``response_id`` of None as None.
    if step.error is not None or step.stream_events is not None:
        return step
    assert step.usage is not None
    return ModelResponse(output=list(step.output), usage=step.usage, response_id=step.response_id)


def _recorded_name(call: Mapping[str, Any]) -> str | None:
    name = call.get("model")
    return name if isinstance(name, str) else None


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


# What each recorded request part may be, as JSON (a damaged one fails loading, not replay).
_PART_TYPES: dict[str, tuple[type, ...]] = {
    "system_instructions": (str, type(None)),
    "input": (str, list),
    "model_settings": (dict,),
    "tools": (dict,),
    "output_schema": (dict, type(None)),
    "handoffs": (dict,),
    "previous_response_id": (str, type(None)),
    "conversation_id": (str, type(None)),
    "prompt": (dict, type(None)),
    "streamed": (bool,),
}


def _check_request(request: Mapping[str, Any], at: str, where: str) -> None:
    for name in REQUEST_FIELDS:
        if name in request and not isinstance(request[name], _PART_TYPES[name]):
            kinds = " or ".join(
                "null" if kind is type(None) else _JSON_NAMES.get(kind, kind.__name__)
                for kind in _PART_TYPES[name]
            )
            raise CassetteFormatError(where, f"it must be {kinds}.", f"{at}.{name}")


_JSON_NAMES = {str: "a string", list: "a list", dict: "an object", bool: "true or false"}


def _expand(calls: list[dict[str, Any]], where: str) -> list[dict[str, Any]]:
    """The calls with every request's full input (undoing :func:`_compress`)."""
    result: list[dict[str, Any]] = []
    previous: Any = None
    for index, call in enumerate(calls):
        at = f"calls[{index}]"
        request = call.get("request")
        if not isinstance(request, Mapping):
            raise CassetteFormatError(where, "a call needs a 'request' object.", f"{at}.request")
        _check_request(request, f"{at}.request", where)
        name = call.get("model")
        if name is not None and not isinstance(name, str):
            raise CassetteFormatError(where, "it must be a string or null.", f"{at}.model")
        items = request.get("input")
        prefix = request.get("input_prefix")
        if prefix is not None:
            if not (
                isinstance(prefix, int)
                and not isinstance(prefix, bool)
                and isinstance(previous, list)
                and isinstance(items, list)
                and prefix == len(previous)
            ):
                raise CassetteFormatError(
                    where,
                    "'input_prefix' must equal the number of input items of the call before it.",
                    f"{at}.request.input_prefix",
                )
            items = previous + items
            request = {key: value for key, value in request.items() if key != "input_prefix"}
            request["input"] = items
            call = {**call, "request": request}
        result.append(call)
        previous = items
    return result


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
