"""``to_snapshot``: the conversion and normalization rules, on plain values and SDK types.

Runs through the real runner are in ``tests/model/test_snapshot_runs.py`` and beside
each boundary's tests.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import hashlib
import io
import json
import pickle
import threading
from pathlib import PurePosixPath
from typing import Any, NamedTuple

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from agents_testing.core import SupportsSnapshot, UnsnapshottableValue, to_snapshot


class Color(enum.Enum):
    RED = "red"


class Priority(enum.IntEnum):
    HIGH = 1


class Booking(BaseModel):
    flight: str
    seat: str | None = None


class BookingWithNote(BaseModel):
    """``Booking`` as a later release might ship it: one more optional field."""

    flight: str
    seat: str | None = None
    note: str | None = None


class Event(BaseModel):
    type: str
    text: str


@dataclasses.dataclass
class Reply:
    text: str
    tokens: int | None = None
    _cache: object = None


class Pair(NamedTuple):
    role: str
    text: str


class WithOwnSnapshot:
    def __init__(self, call_id: str) -> None:
        self.call_id = call_id

    def __agents_testing_snapshot__(self) -> object:
        return {"call_id": self.call_id, "kind": "own"}


def test_mappings_get_sorted_keys_and_lose_none_entries() -> None:
    data = to_snapshot({"b": 1, "a": None, "c": {"z": [1, None], "y": ()}})

    assert data == {"b": 1, "c": {"y": [], "z": [1, None]}}
    assert list(data) == ["b", "c"]
    assert list(data["c"]) == ["y", "z"]


def test_sets_become_sorted_lists() -> None:
    assert to_snapshot({"tags": {"b", "a", "c"}}) == {"tags": ["a", "b", "c"]}
    assert to_snapshot(frozenset({3, 1, 2})) == [1, 2, 3]


def test_non_string_keys_become_strings() -> None:
    assert to_snapshot({1: "a", Color.RED: "b", (1, 2): "c"}) == {
        "1": "a",
        "red": "b",
        "[1, 2]": "c",
    }


def test_two_keys_that_become_the_same_string_are_rejected() -> None:
    with pytest.raises(UnsnapshottableValue) as caught:
        to_snapshot({"tools": {1: "a", "1": "b"}})

    assert caught.value.path == "value['tools']"
    assert caught.value.value_type == "builtins.dict"
    assert str(caught.value) == (
        "Cannot snapshot value['tools']: two keys (1 and '1') both become '1'. "
        "to_snapshot() takes plain data, pydantic models, dataclasses, enums, bytes, run "
        "results, the scripted doubles and their calls, captured traces, and any object "
        "with an __agents_testing_snapshot__() method; convert other values to one of "
        "these first."
    )


def test_the_same_id_gets_the_same_placeholder_wherever_it_appears() -> None:
    data = to_snapshot(
        [
            {"type": "function_call", "call_id": "call_Xy9", "id": "fc_123"},
            {"type": "function_call_output", "call_id": "call_Xy9"},
            {"type": "function_call", "call_id": "call_Q2", "id": "fc_456"},
            {"response_id": "resp_a", "previous_response_id": "resp_a"},
        ]
    )

    assert data == [
        {"call_id": "<call_1>", "id": "<fc_1>", "type": "function_call"},
        {"call_id": "<call_1>", "type": "function_call_output"},
        {"call_id": "<call_2>", "id": "<fc_2>", "type": "function_call"},
        {"previous_response_id": "<resp_1>", "response_id": "<resp_1>"},
    ]


def test_ids_without_a_prefix_are_numbered_by_their_key() -> None:
    data = to_snapshot(
        {
            "a": {"trace_id": "0af7651916cd43dd8448eb211c80319c"},
            "b": {"group_id": "thread-42", "id": "__fake_id__"},
        }
    )

    assert data == {"a": {"trace_id": "<trace_1>"}, "b": {"group_id": "<group_1>", "id": "<id_1>"}}


def test_an_application_id_that_does_not_look_generated_is_kept() -> None:
    assert to_snapshot({"id": "ORD-1042", "order": {"id": "42"}}) == {
        "id": "ORD-1042",
        "order": {"id": "42"},
    }


def test_placeholders_are_numbered_per_snapshot_not_per_process() -> None:
    first = to_snapshot({"call_id": "call_a"})
    second = to_snapshot({"call_id": "call_b"})

    assert first == second == {"call_id": "<call_1>"}


def test_normalize_false_keeps_ids_and_times() -> None:
    when = datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)

    assert to_snapshot(
        {"call_id": "call_a", "created_at": 1700000000, "at": when}, normalize=False
    ) == {"at": "2026-01-02T03:04:05+00:00", "call_id": "call_a", "created_at": 1700000000}


def test_timestamps_and_durations_become_markers() -> None:
    data = to_snapshot(
        {
            "created_at": 1700000000.5,
            "started_at": "2026-01-02T03:04:05Z",
            "duration_ms": 12,
            "when": datetime.date(2026, 1, 2),
            "took": datetime.timedelta(seconds=3),
            "count": 3,
        }
    )

    assert data == {
        "count": 3,
        "created_at": "<timestamp>",
        "duration_ms": "<duration>",
        "started_at": "<timestamp>",
        "took": "<duration>",
        "when": "<timestamp>",
    }


def test_pydantic_models_and_dataclasses_become_their_fields() -> None:
    assert to_snapshot(Booking(flight="NH 212")) == {"class": "Booking", "flight": "NH 212"}
    assert to_snapshot(Event(type="message", text="hi")) == {"text": "hi", "type": "message"}
    assert to_snapshot(Reply("hi", tokens=3, _cache=len)) == {
        "class": "Reply",
        "text": "hi",
        "tokens": 3,
    }
    assert to_snapshot(Pair("user", "hi")) == {"role": "user", "text": "hi"}


def test_a_new_optional_field_left_unset_does_not_change_the_snapshot() -> None:
    assert to_snapshot(BookingWithNote(flight="NH 212")) == {
        "class": "BookingWithNote",
        "flight": "NH 212",
    }
    assert to_snapshot({"booking": Reply("hi")}) == {"booking": {"class": "Reply", "text": "hi"}}


def test_enums_bytes_streams_and_paths() -> None:
    blob = bytes(range(256)) * 5

    assert to_snapshot(
        {
            "color": Color.RED,
            "priority": Priority.HIGH,
            "text": b"/workspace\n",
            "control": b"\x00\x01",
            "binary": b"\xff\x00",
            "big": blob,
            "stream": io.BytesIO(b"abc"),
            "path": PurePosixPath("/workspace/a.txt"),
        }
    ) == {
        "big": {"bytes_length": 1280, "bytes_sha256": hashlib.sha256(blob).hexdigest()},
        "binary": {"bytes_base64": "/wA="},
        "control": {"bytes_base64": "AAE="},
        "color": "red",
        "path": "/workspace/a.txt",
        "priority": 1,
        "stream": {"bytes": "abc"},
        "text": {"bytes": "/workspace\n"},
    }


def helper(text: str) -> str:
    return text


def test_classes_and_functions_become_their_qualified_names() -> None:
    assert to_snapshot({"kind": Reply, "split": helper, "size": len}) == {
        "kind": "<class tests.core.snapshot.test_data.Reply>",
        "size": "<function builtins.len>",
        "split": "<function tests.core.snapshot.test_data.helper>",
    }


def test_arrays_become_their_dtype_shape_and_bytes() -> None:
    samples = np.array([0, 1, -1], dtype=np.int16)

    assert to_snapshot({"audio": samples}) == {
        "audio": {"dtype": "int16", "shape": [3], "bytes_base64": "AAABAP//"}
    }


def test_non_finite_floats_become_strings_so_the_data_stays_json() -> None:
    data = to_snapshot([float("nan"), float("inf"), float("-inf"), 0.5])

    assert data == ["NaN", "Infinity", "-Infinity", 0.5]
    json.dumps(data, allow_nan=False)


def test_exceptions_become_their_type_and_message() -> None:
    assert to_snapshot({"error": ValueError("bad city")}) == {
        "error": {"error": "ValueError", "message": "bad city"}
    }


def test_an_object_with_its_own_snapshot_method_is_normalized_too() -> None:
    value = WithOwnSnapshot("call_zzz")

    assert isinstance(value, SupportsSnapshot)
    assert to_snapshot([value, {"call_id": "call_zzz"}]) == [
        {"call_id": "<call_1>", "kind": "own"},
        {"call_id": "<call_1>"},
    ]


def test_an_unsupported_object_is_a_structured_error_naming_where_it_sat() -> None:
    with pytest.raises(UnsnapshottableValue) as caught:
        to_snapshot({"items": [1, {"lock": threading.Lock()}]})

    error = caught.value
    assert error.path == "value['items'][1]['lock']"
    assert error.value_type == "_thread.lock"
    assert error.problem == "a lock is not data it knows"
    assert isinstance(error, TypeError)
    assert pickle.loads(pickle.dumps(error)).path == error.path


def test_cyclic_data_is_rejected_instead_of_recursing_forever() -> None:
    data: dict[str, Any] = {"a": []}
    data["a"].append(data)

    with pytest.raises(UnsnapshottableValue) as caught:
        to_snapshot(data)

    assert caught.value.path == "value['a'][0]"
    assert caught.value.problem == "it contains itself"


def test_shared_but_not_cyclic_values_are_fine() -> None:
    shared = {"x": 1}

    assert to_snapshot([shared, shared]) == [{"x": 1}, {"x": 1}]


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=10,
)


@given(_json)
def test_plain_data_comes_back_as_json_that_round_trips(value: object) -> None:
    data = to_snapshot(value, normalize=False)

    assert json.loads(json.dumps(data)) == data
    assert to_snapshot(data, normalize=False) == data


_call_ids = st.lists(
    st.text(alphabet="abcdef0123456789", min_size=4, max_size=12).map(lambda s: f"call_{s}"),
    min_size=1,
    max_size=6,
    unique=True,
)


@given(_call_ids, st.lists(st.integers(min_value=0, max_value=5), min_size=1, max_size=12))
def test_renaming_ids_consistently_keeps_the_snapshot_and_merging_two_changes_it(
    ids: list[str], picks: list[int]
) -> None:
    used = [ids[pick % len(ids)] for pick in picks]
    renamed = {old: f"call_{index}x{old[::-1]}" for index, old in enumerate(ids)}

    def items(names: list[str]) -> list[dict[str, str]]:
        return [{"type": "function_call_output", "call_id": name} for name in names]

    assert to_snapshot(items(used)) == to_snapshot(items([renamed[name] for name in used]))
    distinct = list(dict.fromkeys(used))
    if len(distinct) > 1:
        merged = [distinct[0] if name == distinct[1] else name for name in used]
        assert to_snapshot(items(used)) != to_snapshot(items(merged))
