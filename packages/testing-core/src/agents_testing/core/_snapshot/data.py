"""Plain, stable snapshot data for snapshot tests: :func:`to_snapshot`.

A snapshot must compare equal across runs and SDK patch releases, so besides turning
objects into JSON-able data (dicts with sorted keys, lists, strings, numbers, bools) it
replaces generated ids by placeholders numbered by first appearance, replaces
timestamps and durations by markers, and leaves out every ``None`` value (so an
optional field that a new SDK release adds, unset, changes nothing).
"""

from __future__ import annotations

import base64
import dataclasses
import datetime
import enum
import functools
import hashlib
import inspect
import io
import json
import math
import re
import sys
import uuid
from collections.abc import Mapping, Set
from decimal import Decimal
from pathlib import PurePath
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel

from .._errors import UnsnapshottableValue

__all__ = ["SNAPSHOT_METHOD", "SupportsSnapshot", "to_snapshot"]

SNAPSHOT_METHOD = "__agents_testing_snapshot__"


@runtime_checkable
class SupportsSnapshot(Protocol):
    """An object that knows its own snapshot form.

    ``__agents_testing_snapshot__()`` returns any value :func:`to_snapshot` accepts
    (plain data is the usual choice); ids and timestamps in it are normalized like
    everything else.
    """

    def __agents_testing_snapshot__(self) -> object: ...


# Keys whose string values are generated ids, always replaced.
_ID_KEYS = frozenset(
    {
        "approval_request_id",
        "call_id",
        "conversation_id",
        "event_id",
        "group_id",
        "item_id",
        "parent_id",
        "previous_response_id",
        "request_id",
        "response_id",
        "span_id",
        "tool_call_id",
        "trace_id",
    }
)
# ``id`` is also a common field of application data, so it is replaced only when the
# value looks generated: ``msg_...``, ``fc_...``, the SDK's ``__fake_id__``, a UUID.
_GENERATED_ID = re.compile(
    r"^(?:__fake_id__|[a-z][a-z0-9]{0,11}_[A-Za-z0-9_-]+|"
    r"[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12})$"
)
_PREFIX = re.compile(r"^([a-z][a-z0-9]{0,11})_")
_TIMESTAMP_KEYS = frozenset(
    {"completed_at", "created_at", "ended_at", "started_at", "timestamp", "updated_at"}
)
_DURATION_KEYS = frozenset(
    {"duration", "duration_ms", "duration_seconds", "elapsed", "elapsed_ms", "latency_ms"}
)
TIMESTAMP = "<timestamp>"
DURATION = "<duration>"
# Bytes up to this size are kept whole (as text or base64); larger ones by digest.
_BYTES_INLINE_LIMIT = 1024


def to_snapshot(value: object, *, normalize: bool = True) -> Any:
    """``value`` as plain JSON-able data with stable key order, for snapshot tests.

    Accepts plain data, pydantic models, dataclasses, named tuples, enums, bytes, a
    ``RunResult`` or finished ``RunResultStreaming`` (its trajectory), the scripted
    doubles and their recorded calls, captured traces, and any object with an
    ``__agents_testing_snapshot__()`` method. With ``normalize`` (the default) generated
    ids become placeholders (``"<call_1>"``, the same one for every occurrence of an
    id), timestamps ``"<timestamp>"`` and durations ``"<duration>"``. ``None`` values
    are always left out. Raises :class:`UnsnapshottableValue` for anything else.
    """
    return _Converter(normalize).convert(value, "value", None)


class _Converter:
    """One conversion: the id placeholders handed out so far and the path being walked."""

    def __init__(self, normalize: bool) -> None:
        self.normalize = normalize
        self.ids: dict[str, str] = {}
        self.counters: dict[str, int] = {}
        self.active: set[int] = set()

    def convert(self, value: object, path: str, key: str | None) -> Any:
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, str):
            return self._string(value, key)
        if isinstance(value, int) and not isinstance(value, enum.Enum):
            return self._moment(int(value), key)
        if isinstance(value, float) and not isinstance(value, enum.Enum):
            return self._moment(_finite(float(value)), key)
        if id(value) in self.active:
            raise UnsnapshottableValue(path, _type_name(value), "it contains itself")
        self.active.add(id(value))
        try:
            return self._compound(value, path, key)
        finally:
            self.active.discard(id(value))

    def _compound(self, value: object, path: str, key: str | None) -> Any:
        method = getattr(type(value), SNAPSHOT_METHOD, None)
        if callable(method) and not isinstance(value, type):
            return self.convert(method(value), path, key)
        run = _run_result_data(value, path)
        if run is not None:
            return self.convert(run, path, key)
        exported = _exported_trace_data(value)
        if exported is not None:
            return self.convert(exported, path, key)
        if isinstance(value, enum.Enum):
            return self.convert(value.value, path, key)
        if isinstance(value, (bytes, bytearray, memoryview)):
            return _bytes(bytes(value))
        if isinstance(value, (io.BytesIO, io.StringIO)):
            return self.convert(value.getvalue(), path, key)
        if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
            return TIMESTAMP if self.normalize else value.isoformat()
        if isinstance(value, datetime.timedelta):
            return DURATION if self.normalize else value.total_seconds()
        if isinstance(value, (PurePath, Decimal)):
            return str(value)
        if isinstance(value, uuid.UUID):
            return self._string(str(value), key)
        if isinstance(value, type):
            return f"<class {_qualified(value)}>"
        if inspect.isroutine(value):
            return f"<function {_qualified(value)}>"
        if _is_array(value):
            data = value.tobytes()  # type: ignore[attr-defined]
            shape = list(value.shape)  # type: ignore[attr-defined]
            return {"dtype": str(value.dtype), "shape": shape, **_bytes(data)}  # type: ignore[attr-defined]
        if isinstance(value, BaseException):
            return self._fields(
                {"error": type(value).__name__, "message": _message(value)}, path, None
            )
        if isinstance(value, BaseModel):
            fields = {name: getattr(value, name, None) for name in type(value).model_fields}
            fields.update(value.model_extra or {})
            return self._fields(fields, path, type(value).__name__)
        if dataclasses.is_dataclass(value):
            # Underscored fields are private state (caches, handles), not what it says.
            fields = {
                field.name: getattr(value, field.name)
                for field in dataclasses.fields(value)
                if not field.name.startswith("_")
            }
            return self._fields(fields, path, type(value).__name__)
        names = getattr(type(value), "_fields", None)
        if isinstance(value, tuple) and isinstance(names, tuple):
            return self._fields(dict(zip(names, value, strict=True)), path, None)
        if isinstance(value, Mapping):
            return self._mapping(value, path)
        if isinstance(value, (list, tuple)):
            return [self.convert(item, f"{path}[{i}]", key) for i, item in enumerate(value)]
        if isinstance(value, Set):
            items = [self.convert(item, f"{path}{{...}}", key) for item in value]
            return sorted(items, key=_sort_key)
        raise UnsnapshottableValue(path, _type_name(value), _why_not(value))

    def _fields(self, fields: dict[str, Any], path: str, class_name: str | None) -> Any:
        data = self._mapping(fields, path, attribute=True)
        # Objects without a ``type`` discriminator say what they are, so that two kinds
        # of event with the same fields still differ.
        if class_name is not None and "type" not in fields:
            data = {"class": class_name, **data}
            data = dict(sorted(data.items()))
        return data

    def _mapping(
        self, value: Mapping[Any, Any], path: str, *, attribute: bool = False
    ) -> dict[str, Any]:
        entries: dict[str, tuple[str, object]] = {}
        for raw_key, item in value.items():
            name = self._key(raw_key, path)
            if name in entries:
                raise UnsnapshottableValue(
                    path,
                    _type_name(value),
                    f"two keys ({entries[name][0]} and {_brief(raw_key)}) both become {name!r}",
                )
            entries[name] = (_brief(raw_key), item)
        result: dict[str, Any] = {}
        for name in sorted(entries):
            item = entries[name][1]
            if item is None:
                continue
            inner = f"{path}.{name}" if attribute else f"{path}[{name!r}]"
            converted = self.convert(item, inner, name)
            if converted is not None:
                result[name] = converted
        return result

    def _key(self, key: object, path: str) -> str:
        if isinstance(key, str):
            return key
        converted = self.convert(key, f"{path} key {_brief(key)}", None)
        if isinstance(converted, str):
            return converted
        return json.dumps(converted, sort_keys=True)

    def _string(self, value: str, key: str | None) -> str:
        if not self.normalize:
            return value
        for marker, pattern, kind in _volatile_text():
            if marker in value:
                value = pattern.sub(functools.partial(self._in_text, kind=kind), value)
        if key is None:
            return value
        if key in _ID_KEYS or (key == "id" and _GENERATED_ID.match(value)):
            return self._placeholder(value, key)
        if key in _TIMESTAMP_KEYS:
            return TIMESTAMP
        if key in _DURATION_KEYS:
            return DURATION
        return value

    def _moment(self, value: int | float | str, key: str | None) -> int | float | str:
        if self.normalize and key in _TIMESTAMP_KEYS:
            return TIMESTAMP
        if self.normalize and key in _DURATION_KEYS:
            return DURATION
        return value

    def _in_text(self, match: re.Match[str], *, kind: str) -> str:
        start, end = match.span(1)
        if kind == "duration":
            replacement = DURATION
        else:
            replacement = self._placeholder(f"{kind}\0{match.group(1)}", kind)
        whole = match.group(0)
        offset = match.start(0)
        return whole[: start - offset] + replacement + whole[end - offset :]

    def _placeholder(self, value: str, key: str) -> str:
        found = self.ids.get(value)
        if found is None:
            match = _PREFIX.match(value)
            kind = match.group(1) if match else key.removesuffix("_id") or "id"
            self.counters[kind] = self.counters.get(kind, 0) + 1
            found = self.ids[value] = f"<{kind}_{self.counters[kind]}>"
        return found


@functools.lru_cache(maxsize=1)
def _volatile_text() -> tuple[tuple[str, re.Pattern[str], str], ...]:
    from ..compat import volatile_text_patterns

    return tuple(
        (marker, re.compile(pattern), kind) for marker, pattern, kind in volatile_text_patterns()
    )


def _run_result_data(value: object, path: str) -> dict[str, Any] | None:
    """The trajectory data of an SDK run result; None for anything else."""
    result_module = sys.modules.get("agents.result")
    base = getattr(result_module, "RunResultBase", None)
    if base is None or not isinstance(value, base):
        return None  # no run result can exist before the SDK's result module is loaded
    from .run import run_result_data

    return run_result_data(value, path)


def _exported_trace_data(value: object) -> dict[str, Any] | None:
    """What an SDK span or trace exports (ids and times normalized later); None otherwise."""
    spans = sys.modules.get("agents.tracing.spans")
    traces = sys.modules.get("agents.tracing.traces")
    kinds = tuple(
        kind
        for kind in (getattr(spans, "Span", None), getattr(traces, "Trace", None))
        if isinstance(kind, type)
    )
    if not kinds or not isinstance(value, kinds):
        return None
    exported = value.export()  # type: ignore[attr-defined]
    return dict(exported) if isinstance(exported, Mapping) else {}


def _finite(value: float) -> float | str:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return value


def _bytes(data: bytes) -> dict[str, Any]:
    if len(data) > _BYTES_INLINE_LIMIT:
        return {"bytes_length": len(data), "bytes_sha256": hashlib.sha256(data).hexdigest()}
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is not None and all(char.isprintable() or char in "\n\r\t" for char in text):
        return {"bytes": text}
    return {"bytes_base64": base64.b64encode(data).decode("ascii")}


def _message(error: BaseException) -> str:
    try:
        return str(error)
    except Exception:
        return f"<{type(error).__name__} (str() failed)>"


def _sort_key(item: object) -> str:
    return json.dumps(item, sort_keys=True)


def _qualified(value: Any) -> str:
    module = getattr(value, "__module__", None) or "?"
    name = getattr(value, "__qualname__", None) or getattr(value, "__name__", None) or "?"
    return f"{module}.{name}"


def _is_array(value: object) -> bool:
    """A numpy-style array (audio buffers), recognized without importing numpy."""
    return all(hasattr(value, name) for name in ("__array__", "tobytes", "dtype", "shape"))


def _type_name(value: object) -> str:
    cls = type(value)
    return f"{cls.__module__}.{cls.__qualname__}"


def _brief(value: object) -> str:
    from .._values import safe_repr

    return safe_repr(value, 60)


def _why_not(value: object) -> str:
    if callable(value):
        return f"a callable ({type(value).__name__}) is not data"
    return f"a {type(value).__qualname__} is not data it knows"


# Public names show agents_testing.core, however this module was first imported.
from ..lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
