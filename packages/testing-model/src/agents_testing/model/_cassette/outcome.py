"""What a recorded model call produced, as cassette JSON and back as a :class:`ModelStep`.

Output items and stream events are the ``openai.types.responses`` models the SDK
normalizes to; they are written with ``model_dump(mode="json", exclude_unset=True)`` and
read back by their ``type``, so a replayed item has exactly the fields the recorded one
had (the runner turns them into the next request's input, which is compared). A provider
error keeps its type, message, status and the retry advice the model gave for it.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any

from agents.items import ModelResponse, TResponseOutputItem, TResponseStreamEvent
from agents.retry import ModelRetryAdvice, ModelRetryNormalizedError
from agents.usage import Usage
from pydantic import BaseModel, TypeAdapter, ValidationError

from agents_testing.core import compat
from agents_testing.core.cassette import (
    CassetteFormatError,
    ReplayedError,
    rebuilt_error,
)
from agents_testing.core.cassette import (
    error_json as plain_error_json,
)

from .._step import ModelStep

__all__ = [
    "ReplayedModelError",
    "error_json",
    "event_json",
    "response_json",
    "retry_advice_json",
    "step_from_json",
]


class ReplayedModelError(ReplayedError):
    """A recorded provider error whose original type cannot be rebuilt on replay.

    ``error_type`` is the recorded ``module.QualName`` and ``message`` its text.
    """


def _dump(model: BaseModel) -> dict[str, Any]:
    # exclude_unset: fields absent from the provider's payload stay absent on replay.
    return model.model_dump(mode="json", exclude_unset=True)


def response_json(response: ModelResponse) -> dict[str, Any]:
    """A non-streamed response: output items, usage and response id (no request id)."""
    return {
        "output": [_dump(item) for item in response.output],
        "usage": usage_json(response.usage),
        "response_id": response.response_id,
    }


def event_json(event: TResponseStreamEvent) -> dict[str, Any]:
    """One normalized stream event; the response's creation time is written as 0.

    Adapters stamp ``created_at`` with the clock (Chat Completions streams use the time
    of the call), which would make every re-record differ.
    """
    data = _dump(event)
    response = data.get("response")
    if isinstance(response, dict) and "created_at" in response:
        data["response"] = {**response, "created_at": 0}
    return data


def usage_json(usage: Usage) -> dict[str, Any]:
    return dict(_usage_adapter().dump_python(usage, mode="json"))


def retry_advice_json(advice: ModelRetryAdvice | None) -> dict[str, Any] | None:
    """The advice a model gave for an error, without the provider's request id."""
    if advice is None:
        return None
    data: dict[str, Any] = {}
    for field in dataclasses.fields(advice):
        value = getattr(advice, field.name)
        if field.name == "normalized" and value is not None:
            explicit = getattr(value, "_explicit_fields", None)
            if explicit is None:
                explicit = [item.name for item in dataclasses.fields(value)]
            names = explicit
            value = {name: getattr(value, name) for name in sorted(names) if name != "request_id"}
        data[field.name] = value
    return data


def error_json(error: BaseException) -> dict[str, Any]:
    """A provider error: its type, message, HTTP status and body when it has them."""
    data = plain_error_json(error, _error_message(error))
    status = getattr(error, "status_code", None)
    if isinstance(status, int):
        data["status_code"] = status
    body = getattr(error, "body", None)
    if isinstance(body, (dict, list, str)):
        data["body"] = body
    return data


def _error_message(error: BaseException) -> str:
    message = getattr(error, "message", None)
    return message if isinstance(message, str) else str(error)


# -- reading back ---------------------------------------------------------------------


def _members(union: Any) -> list[type[BaseModel]]:
    found: list[type[BaseModel]] = []

    def walk(kind: Any) -> None:
        origin = typing.get_origin(kind)
        if origin is typing.Annotated:
            walk(typing.get_args(kind)[0])
        elif origin is typing.Union or origin is types.UnionType:
            for member in typing.get_args(kind):
                walk(member)
        elif isinstance(kind, type) and issubclass(kind, BaseModel):
            found.append(kind)

    walk(union)
    return found


@functools.cache
def _by_type(union_name: str) -> dict[str, type[BaseModel]]:
    union = TResponseOutputItem if union_name == "item" else TResponseStreamEvent
    table: dict[str, type[BaseModel]] = {}
    for member in _members(union):
        field = member.model_fields.get("type")
        literal = typing.get_args(field.annotation) if field is not None else ()
        if literal and isinstance(literal[0], str):
            table.setdefault(literal[0], member)
    return table


@functools.cache
def _usage_adapter() -> TypeAdapter[Usage]:
    return TypeAdapter(Usage)


def _model(data: object, union_name: str, at: str, path: str | None) -> Any:
    kind = data.get("type") if isinstance(data, dict) else None
    model = _by_type(union_name).get(kind) if isinstance(kind, str) else None
    noun = "output item" if union_name == "item" else "stream event"
    if model is None or not isinstance(data, dict):
        raise CassetteFormatError(
            path,
            f"this is not a {noun} the installed SDK knows (type {kind!r}); re-record the "
            f"cassette with this SDK, or upgrade it.",
            at,
        )
    try:
        return model.model_validate(data)
    except ValidationError as error:
        errors = error.errors()
    except (TypeError, ValueError, RecursionError) as error:
        raise CassetteFormatError(
            path, f"this is not a valid {kind!r} {noun}: {error}", at
        ) from None
    # The openai client builds these models without validation, so a provider payload may
    # lack a field the installed types call required; when that is all that is wrong,
    # build it the same lenient way. A field of the wrong type is damage.
    if all(problem.get("type") == "missing" for problem in errors):
        return model.model_construct(**data)
    raise CassetteFormatError(path, f"this is not a valid {kind!r} {noun}: {errors[:1]}", at)


def _usage(data: object, at: str, path: str | None) -> Usage:
    try:
        return _usage_adapter().validate_python(data)
    except ValidationError as error:
        detail = f"this is not a valid usage: {error.errors()[:1]}"
        raise CassetteFormatError(path, detail, at) from None


_ADVICE_FIELDS: dict[str, tuple[type, ...]] = {
    "suggested": (bool,),
    "retry_after": (int, float),
    "replay_safety": (str,),
    "reason": (str,),
}


def _advice(data: object, at: str, path: str | None) -> ModelRetryAdvice | None:
    if data is None:
        return None
    if not isinstance(data, Mapping):
        raise CassetteFormatError(path, "a retry advice must be an object or null.", at)
    values = dict(data)
    normalized = values.pop("normalized", None)
    for name, value in values.items():
        kinds = _ADVICE_FIELDS.get(name)
        if kinds is not None and value is not None and not isinstance(value, kinds):
            raise CassetteFormatError(
                path, f"{value!r} is not a valid {name} of a retry advice.", f"{at}.{name}"
            )
    if normalized is not None and not isinstance(normalized, Mapping):
        raise CassetteFormatError(path, "it must be an object or null.", f"{at}.normalized")
    try:
        advice = ModelRetryAdvice(**values)
        if isinstance(normalized, Mapping):
            advice.normalized = ModelRetryNormalizedError(**normalized)
    except TypeError as error:
        raise CassetteFormatError(
            path, f"this is not a valid retry advice ({error}).", at
        ) from None
    return advice


def _error(data: Mapping[str, Any], at: str, path: str | None) -> Exception:
    try:
        return rebuilt_error(data, ReplayedModelError, _rebuild)
    except ValueError as problem:
        raise CassetteFormatError(path, f"{problem}.", at) from None


def _rebuild(kind: Any, message: str, data: Mapping[str, Any]) -> Exception | None:
    import openai

    http = compat.openai_http_module()
    request = http.Request("POST", "https://replay.invalid/v1")
    try:
        if issubclass(kind, openai.APIStatusError):
            status = data.get("status_code")
            response = http.Response(status if isinstance(status, int) else 500, request=request)
            rebuilt = kind(message, response=response, body=data.get("body"))
        elif issubclass(kind, openai.APITimeoutError):
            rebuilt = kind(request=request)
        elif issubclass(kind, openai.APIConnectionError):
            rebuilt = kind(message=message, request=request)
        else:
            rebuilt = kind(message)
    except Exception:
        return None
    return rebuilt if isinstance(rebuilt, Exception) else None


def step_from_json(call: Mapping[str, Any], index: int, path: str | None) -> ModelStep:
    """The :class:`ModelStep` that answers like recorded call ``index`` did.

    Raises :class:`CassetteFormatError` naming the file and the JSON path of the part
    that cannot be read.
    """
    at = f"calls[{index}]"
    if "error" in call:
        error = call["error"]
        if not isinstance(error, Mapping):
            raise CassetteFormatError(path, "a recorded error must be an object.", f"{at}.error")
        return ModelStep.raise_error(
            _error(error, f"{at}.error", path),
            retry_advice=_advice(error.get("retry_advice"), f"{at}.error.retry_advice", path),
        )
    if "stream" in call:
        events_data = call["stream"]
        if not isinstance(events_data, list):
            raise CassetteFormatError(path, "a stream must be a list of events.", f"{at}.stream")
        events = [
            _model(event, "event", f"{at}.stream[{position}]", path)
            for position, event in enumerate(events_data)
        ]
        output, usage, response_id = _completed(events)
        return ModelStep.stream(events, output=output, usage=usage, response_id=response_id)
    response = call.get("response")
    if not isinstance(response, Mapping):
        raise CassetteFormatError(
            path, "a call needs a 'response', 'stream' or 'error' object.", at
        )
    output_data = response.get("output")
    if not isinstance(output_data, list):
        raise CassetteFormatError(
            path, "it must be a list of output items.", f"{at}.response.output"
        )
    output = [
        _model(item, "item", f"{at}.response.output[{position}]", path)
        for position, item in enumerate(output_data)
    ]
    response_id = response.get("response_id")
    if response_id is not None and not isinstance(response_id, str):
        raise CassetteFormatError(
            path, "it must be a string or null.", f"{at}.response.response_id"
        )
    return ModelStep(
        output=output,
        usage=_usage(response.get("usage"), f"{at}.response.usage", path),
        response_id=response_id,
    )


def _completed(events: Sequence[Any]) -> tuple[list[Any], Usage | None, str | None]:
    """What a non-streamed call of a streamed recording returns: the completed response."""
    for event in reversed(events):
        if getattr(event, "type", None) == "response.completed":
            response = event.response
            counts = getattr(response, "usage", None)
            usage = None
            if counts is not None:
                usage = Usage(
                    requests=1,
                    input_tokens=_count(counts, "input_tokens"),
                    output_tokens=_count(counts, "output_tokens"),
                    total_tokens=_count(counts, "total_tokens"),
                )
            output = getattr(response, "output", None)
            response_id = getattr(response, "id", None)
            return (
                list(output) if isinstance(output, list) else [],
                usage,
                response_id if isinstance(response_id, str) else None,
            )
    return [], None, None


def _count(usage: object, name: str) -> int:
    value = getattr(usage, name, 0)
    return value if isinstance(value, int) else 0


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
