"""A model request as cassette JSON, and the comparison of a replayed request with it.

The request is what the model saw, in the SDK's normalized form: instructions, input
items, every setting (runtime-only ones such as the retry policy included, see
:mod:`.settings`), tools (name, description, JSON schema), output schema, handoffs,
previous response and conversation ids, prompt and whether it streamed. Nothing from the
provider client is part of it, and header values in the settings are never kept. The
model name is kept beside the request (``"model"``). Runners resend the whole
conversation every turn, so comparison first tries plain equality of the live items with
the recorded JSON (done in C) and serializes only when that fails.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from agents_testing.core.cassette import Scrubber, diff_json, scrub, without_keys

from .settings import settings_json, without_unrecorded

if TYPE_CHECKING:
    from .._request import ModelRequest

__all__ = [
    "DEFAULT_IGNORE",
    "share_unchanged_parts",
    "REQUEST_FIELDS",
    "LiveRequest",
    "RequestEncoder",
    "check_ignore",
]

REQUEST_FIELDS: tuple[str, ...] = (
    "system_instructions",
    "input",
    "model_settings",
    "tools",
    "output_schema",
    "handoffs",
    "previous_response_id",
    "conversation_id",
    "prompt",
    "streamed",
)
"""The parts of a request that replay compares; any of them can be left out."""

IGNORABLE: tuple[str, ...] = (*REQUEST_FIELDS, "model")
"""What ``ignore`` may name: the request parts, and ``model`` (the model name)."""

_OTHER_FIELDS = tuple(name for name in REQUEST_FIELDS if name != "input")

DEFAULT_IGNORE: frozenset[str] = frozenset({"previous_response_id", "conversation_id"})
"""Provider-assigned ids, not compared by default (item ids are always left out)."""

_VOLATILE_ITEM_KEYS = frozenset({"id"})


def check_ignore(ignore: Iterable[str]) -> frozenset[str]:
    """``ignore`` as a set, or a ``ValueError`` naming an unknown request part."""
    names = frozenset(ignore) if not isinstance(ignore, str) else frozenset({ignore})
    unknown = sorted(names - set(IGNORABLE), key=repr)
    if unknown:
        raise ValueError(
            f"unknown request part(s) {', '.join(map(repr, unknown))} in ignore; the parts "
            f"are {', '.join(IGNORABLE)}."
        )
    return names


@dataclasses.dataclass(frozen=True)
class LiveRequest:
    """The arguments of one ``get_response`` / ``stream_response`` call, as passed."""

    system_instructions: str | None
    input: Any
    model_settings: Any
    tools: Sequence[Any]
    output_schema: Any
    handoffs: Sequence[Any]
    previous_response_id: str | None
    conversation_id: str | None
    prompt: Any
    streamed: bool

    @classmethod
    def of(cls, request: ModelRequest, *, streamed: bool) -> LiveRequest:
        """The parts of ``request`` a cassette compares, and whether it streamed."""
        return cls(
            request.system_instructions,
            request.input,
            request.model_settings,
            request.tools,
            request.output_schema,
            request.handoffs,
            request.previous_response_id,
            request.conversation_id,
            request.prompt,
            streamed,
        )


def jsonable(value: Any) -> Any:
    """Plain JSON data for an SDK value; pydantic models keep only their set fields."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", exclude_unset=True)
    return to_jsonable_python(value, fallback=repr)


class RequestEncoder:
    """Turns live requests into cassette JSON, caching what runners pass again unchanged."""

    def __init__(self) -> None:
        self._by_identity: dict[int, tuple[object, Any]] = {}
        self._settings: tuple[Any, dict[str, Any], tuple[tuple[str, ...], ...]] | None = None
        self._verified: dict[str, tuple[Any, Any]] = {}
        self._last: tuple[Any, tuple[int, ...]] | None = None

    def encode(self, live: LiveRequest) -> dict[str, Any]:
        """The whole request as cassette JSON."""
        return {name: self.part(name, live) for name in REQUEST_FIELDS}

    def part(self, name: str, live: LiveRequest) -> Any:
        """One part of the request as cassette JSON."""
        if name == "input":
            return self.input(live.input)
        if name == "model_settings":
            return self._model_settings(live.model_settings)
        if name == "tools":
            return self._keyed(live.tools, _tool_json)
        if name == "handoffs":
            return self._keyed(live.handoffs, _handoff_json)
        if name == "output_schema":
            return self._cached(live.output_schema, _output_schema_json)
        if name == "prompt":
            return None if live.prompt is None else jsonable(live.prompt)
        return getattr(live, name)

    def input(self, value: Any) -> Any:
        if isinstance(value, str):
            return value
        return [jsonable(item) for item in value]

    def _model_settings(self, settings: Any) -> dict[str, Any]:
        return self._settings_and_additions(settings)[0]

    def _settings_and_additions(
        self, settings: Any
    ) -> tuple[dict[str, Any], tuple[tuple[str, ...], ...]]:
        known = self._settings
        if known is not None and (known[0] is settings or _same(known[0], settings)):
            return known[1], known[2]
        data, added = settings_json(settings)
        import copy

        self._settings = (copy.copy(settings), data, added)
        return data, added

    def _cached(self, value: Any, encode: Any) -> Any:
        if value is None:
            return None
        known = self._by_identity.get(id(value))
        if known is not None and known[0] is value:
            return known[1]
        data = encode(value)
        self._by_identity[id(value)] = (value, data)
        return data

    def _keyed(self, values: Sequence[Any], encode: Any) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for value in values:
            name, data = self._cached(value, encode)
            result[name] = data
        return result

    def differences(
        self,
        recorded: dict[str, Any],
        live: LiveRequest,
        *,
        ignore: Collection[str],
        scrubbers: Sequence[Scrubber],
    ) -> list[str]:
        """Readable lines for each compared part of ``live`` that differs from ``recorded``."""
        # The whole request but its input, as the previous call passed it: one comparison.
        settings = live.model_settings
        fields = getattr(settings, "__dict__", None)
        markers = (
            live.system_instructions,
            (type(settings), tuple(fields.items())) if fields is not None else settings,
            tuple(live.tools),
            live.output_schema,
            tuple(live.handoffs),
            live.previous_response_id,
            live.conversation_id,
            live.prompt,
            live.streamed,
        )
        parts = tuple(id(recorded.get(name)) for name in _OTHER_FIELDS)
        last = self._last
        if last is not None and last[1] == parts and _same(last[0], markers):
            ignore = {*ignore, *_OTHER_FIELDS}
        lines: list[str] = []
        verified = self._verified
        for name in REQUEST_FIELDS:
            if name in ignore:
                continue
            expected = recorded.get(name)
            if name == "input":
                if live.input == expected:
                    continue
            else:
                # Runners pass the same settings, tools and schema turn after turn, and
                # replays share one recorded object for a part that did not change.
                marker = _marker(name, live)
                known = verified.get(name)
                if known is not None and known[1] is expected and _same(known[0], marker):
                    continue
            actual = self.part(name, live)
            if name == "model_settings":
                # A cassette recorded before a runtime-only setting was kept is compared
                # without it.
                actual = without_unrecorded(
                    actual, expected, self._settings_and_additions(live.model_settings)[1]
                )
            if actual == expected:
                if name != "input":
                    verified[name] = (marker, expected)
                continue
            actual = scrub(actual, scrubbers)
            if name == "input":
                expected = without_keys(expected, _VOLATILE_ITEM_KEYS)
                actual = without_keys(actual, _VOLATILE_ITEM_KEYS)
            if actual != expected:
                lines.extend(diff_json(expected, actual, f"request.{name}"))
        if not lines:
            # The recorded parts are kept alive by the cassette, so their ids stay theirs.
            self._last = (markers, parts)
        return lines


def _marker(name: str, live: LiveRequest) -> Any:
    value = getattr(live, name)
    if name in ("tools", "handoffs"):
        return tuple(value)
    if name == "model_settings":
        # Its field values, not the object: one changed in place must not look unchanged.
        fields = getattr(value, "__dict__", None)
        return (type(value), tuple(fields.items())) if fields is not None else value
    return value


def _same(before: Any, now: Any) -> bool:
    if before is now:
        return True
    try:
        return bool(before == now)
    except Exception:
        return False


def share_unchanged_parts(requests: Sequence[dict[str, Any]]) -> None:
    """Let consecutive requests share one object for every part that did not change."""
    for previous, request in itertools.pairwise(requests):
        for name in REQUEST_FIELDS:
            if (
                name != "input"
                and name in request
                and name in previous
                and request[name] == previous[name]
            ):
                request[name] = previous[name]


def _tool_json(tool: Any) -> tuple[str, dict[str, Any]]:
    name = str(getattr(tool, "name", type(tool).__name__))
    data: dict[str, Any] = {"kind": type(tool).__name__}
    for attribute, key in (
        ("description", "description"),
        ("params_json_schema", "parameters"),
        ("strict_json_schema", "strict"),
    ):
        value = getattr(tool, attribute, None)
        if value is not None:
            data[key] = jsonable(value)
    return name, data


def _handoff_json(handoff: Any) -> tuple[str, dict[str, Any]]:
    return str(handoff.tool_name), {
        "agent_name": handoff.agent_name,
        "description": handoff.tool_description,
        "parameters": jsonable(handoff.input_json_schema),
        "strict": bool(handoff.strict_json_schema),
    }


def _output_schema_json(schema: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"name": schema.name(), "plain_text": schema.is_plain_text()}
    if not schema.is_plain_text():
        data["schema"] = jsonable(schema.json_schema())
        data["strict"] = schema.is_strict_json_schema()
    return data
