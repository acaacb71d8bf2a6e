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
    AllowedSecret,
    CassetteFormatError,
    CassetteSecretError,
    CassetteWriteError,
    Scrubber,
    allowed_secret_problem,
    dump_cassette,
    iter_cassette,
    read_cassette,
    scan_for_secrets,
    scrub,
    scrubber_problem,
    write_cassette,
)

from .._errors import InvalidModelStep
from .._step import ModelStep
from .outcome import step_from_json
from .recorder import LazyModel, Recorder, RecordingModel, RecordingModelProvider
from .replay import CassetteModel, CassetteModelProvider
from .request import DEFAULT_IGNORE, REQUEST_FIELDS, check_ignore

__all__ = ["ModelCassette"]

_PACKAGES = ("openai-agents", "openai", "agents-testing-model")


class ModelCassette:
    """The cassette file of one test at the model boundary.

    ``ignore`` names request parts left out of the replay comparison (default: the
    provider-assigned ``previous_response_id`` and ``conversation_id``); ``scrubbers``
    rewrite recorded strings (a regex, a ``(regex, replacement)`` pair or a callable);
    ``secrets`` are further values that must never be written; ``allowed_secrets`` lists
    harmless values the secret scan lets through (exact strings, or compiled patterns
    the whole value must match); ``allow_secrets=True`` skips the scan altogether.
    """

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
        self.allowed_secrets = tuple(allowed_secrets)
        for entry in self.allowed_secrets:
            problem = allowed_secret_problem(entry)
            if problem is not None:
                raise CassetteFormatError(None, f"invalid allowed secret: {problem}.")
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

    def _checked_calls(self) -> list[dict[str, Any]]:
        """The recorded calls, scrubbed and compressed; raises ``CassetteSecretError`` (a
        secret left in them) or ``CassetteWriteError`` (a value with no JSON form)."""
        if self._recorder is None:
            raise CassetteFormatError(
                str(self.path), "nothing was recorded; call record() or record_provider() first."
            )
        if self._recorder.unwritable:
            raise CassetteWriteError(str(self.path), f"{self._recorder.unwritable[0]}.")
        calls = scrub(self._recorder.calls(), self.scrubbers)
        if not self.allow_secrets:
            findings = scan_for_secrets(
                calls,
                live_secrets=[*self._recorder.live_secrets, *self.secrets],
                root="calls",
                allowed=self.allowed_secrets,
            )
            if findings:
                raise CassetteSecretError(str(self.path), findings)
        return _compress(calls)

    def dumps(self) -> str:
        """The cassette text :meth:`save` would write; raises ``CassetteSecretError``."""
        return dump_cassette("model", self._checked_calls(), packages=_PACKAGES)

    def save(self) -> None:
        """Scan the recorded calls for secrets and write the cassette file atomically.

        Nothing is written when the scan finds a secret; a write that is interrupted
        leaves the previous cassette as it was.
        """
        calls = self._checked_calls()
        write_cassette(self.path, iter_cassette("model", calls, packages=_PACKAGES))

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
        calls = _expand(read_cassette(self.path, "model"), where)
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
