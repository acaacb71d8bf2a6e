"""Detached snapshots: recorded data never changes with later mutation."""

from __future__ import annotations

import enum
import pickle
import sys
import tempfile
import threading
from collections import OrderedDict
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import pytest
from pydantic import BaseModel

from agents_testing.core import (
    AgentsTestingError,
    SnapshotCache,
    UncopyableValue,
    detach,
    readonly,
)


class _Role(str, enum.Enum):
    USER = "user"


class _Settings(BaseModel):
    tags: list[str]


def test_detach_copies_nested_containers() -> None:
    original: dict[str, Any] = {"items": [{"role": "user", "content": ["hi"]}], "pair": (1, [2])}
    copy = detach(original)
    original["items"][0]["content"].append("mutated")
    original["pair"][1].append(3)

    assert copy == {"items": [{"role": "user", "content": ["hi"]}], "pair": (1, [2])}


def test_detach_copies_pydantic_models_deeply() -> None:
    settings = _Settings(tags=["a"])
    copy = detach(settings)
    settings.tags.append("b")

    assert copy.tags == ["a"]
    assert copy is not settings


def test_detach_keeps_immutable_values() -> None:
    text = "hello"
    assert detach(text) is text
    assert detach(b"pcm") == b"pcm"
    buffer = bytearray(b"ab")
    copied = detach(buffer)
    buffer[0] = 0
    assert copied == bytearray(b"ab")


def test_readonly_is_detached_and_cannot_be_written() -> None:
    kwargs: dict[str, Any] = {"paths": ["a.txt"]}
    view = readonly(kwargs)
    kwargs["paths"].append("b.txt")

    assert isinstance(view, MappingProxyType)
    assert view["paths"] == ["a.txt"]
    with pytest.raises(TypeError):
        view["new"] = 1  # type: ignore[index]


def test_snapshot_cache_shares_unchanged_items_and_resnapshots_mutated_ones() -> None:
    cache = SnapshotCache()
    item: dict[str, Any] = {"role": "user", "content": "hi"}

    first = cache.snapshot(item)
    again = cache.snapshot(item)
    assert first is again
    assert first is not item

    item["content"] = "changed"
    fresh = cache.snapshot(item)
    assert fresh == {"role": "user", "content": "changed"}
    assert first == {"role": "user", "content": "hi"}


# -- cycles, uncopyable values and live objects ------------------------------------------


def test_detach_copies_a_cyclic_structure_as_a_cyclic_structure() -> None:
    original: dict[str, Any] = {"items": [1, 2]}
    original["self"] = original
    original["items"].append(original["items"])

    copy = detach(original)

    assert copy is not original
    assert copy["self"] is copy
    assert copy["items"] is not original["items"]
    assert copy["items"][2] is copy["items"]


def test_detach_copies_a_cycle_through_a_tuple() -> None:
    holder: list[Any] = []
    pair = (holder, "tail")
    holder.append(pair)

    copy = detach(pair)

    assert copy is not pair
    assert copy[0] is not holder
    assert copy[0][0] is copy


def test_detach_copies_a_cycle_through_object_attributes() -> None:
    node = _Node("a")
    node.next = node
    copy = detach({"node": node})

    assert copy["node"] is not node
    assert copy["node"].next is copy["node"]


@dataclass
class _Node:
    name: str
    next: Any = None


class _Holder(BaseModel):
    values: list[Any]


def _closed_file() -> Any:
    with tempfile.TemporaryFile() as handle:
        pass
    return handle


@pytest.mark.parametrize(
    ("value", "value_type"),
    [
        (threading.Lock(), "_thread.lock"),
        ((n for n in range(3)), "generator"),
        (memoryview(b"pcm"), "memoryview"),
        (_closed_file(), "_io.BufferedRandom"),
    ],
    ids=["lock", "generator", "memoryview", "closed-file"],
)
def test_uncopyable_value_is_one_structured_error_naming_where_it_sat(
    value: object, value_type: str
) -> None:
    data = {"messages": [{"role": "user"}, {"content": ["hi", value]}]}

    with pytest.raises(UncopyableValue) as caught:
        detach(data, name="input")

    error = caught.value
    assert isinstance(error, AgentsTestingError)
    assert error.path == "input['messages'][1]['content'][1]"
    assert error.value_type == value_type
    assert "input['messages'][1]['content'][1]" in str(error)
    assert error.__cause__ is not None


def test_uncopyable_value_path_names_model_fields_and_attributes() -> None:
    with pytest.raises(UncopyableValue) as in_model:
        detach([0, _Holder(values=[threading.Lock()])], name="input")
    with pytest.raises(UncopyableValue) as in_object:
        detach({"settings": _Node("a", next=[threading.RLock()])}, name="raw_usage")

    assert in_model.value.path == "input[1].values[0]"
    assert in_object.value.path == "raw_usage['settings'].next[0]"
    assert in_object.value.value_type == "_thread.RLock"


def test_uncopyable_value_path_defaults_to_value_and_readonly_takes_a_name() -> None:
    with pytest.raises(UncopyableValue) as plain:
        detach({"a": threading.Lock()})
    with pytest.raises(UncopyableValue) as view:
        readonly({"paths": [threading.Lock()]}, name="kwargs")

    assert plain.value.path == "value['a']"
    assert view.value.path == "kwargs['paths'][0]"


def test_uncopyable_value_pickles_with_its_fields() -> None:
    with pytest.raises(UncopyableValue) as caught:
        detach({"a": threading.Lock()}, name="raw_usage")

    copy = pickle.loads(pickle.dumps(caught.value))

    assert (copy.path, copy.value_type, str(copy)) == (
        "raw_usage['a']",
        "_thread.lock",
        str(caught.value),
    )


def test_too_deeply_nested_data_is_reported_as_uncopyable() -> None:
    nested: list[Any] = []
    inner = nested
    for _ in range(sys.getrecursionlimit() + 10):
        inner.append([])
        inner = inner[0]

    with pytest.raises(UncopyableValue) as caught:
        detach(nested, name="input")

    assert caught.value.path == "input"
    assert "recursion limit" in str(caught.value)


def test_live_sdk_objects_and_callables_keep_their_identity() -> None:
    from agents import Agent, function_tool, handoff

    @function_tool
    def lookup(city: str) -> str:
        """Look a city up."""
        return city

    agent = Agent(name="Helper")
    transfer = handoff(agent)
    settings: dict[str, Any] = {
        "tools": [lookup],
        "handoffs": [transfer],
        "agent": agent,
        "hook": len,
    }

    copy = detach(settings)

    assert copy["tools"] is not settings["tools"]
    assert copy["tools"][0] is lookup
    assert copy["handoffs"][0] is transfer
    assert copy["agent"] is agent
    assert copy["hook"] is len


# -- snapshot sharing keeps values and types exact ----------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (1, True),
        (1, 1.0),
        (True, 1),
        (0.0, -0.0),
        (b"a", bytearray(b"a")),
        ({"a": 1, "b": 2}, {"b": 2, "a": 1}),
        ({"a": 1}, OrderedDict(a=1)),
        ("user", _Role.USER),
    ],
    ids=["int-bool", "int-float", "bool-int", "zero-sign", "bytes", "key-order", "dict", "str"],
)
def test_snapshot_cache_never_shares_a_snapshot_of_another_type_or_value(
    first: object, second: object
) -> None:
    cache = SnapshotCache()
    earlier: Any = cache.snapshot_sequence([{"role": "user"}, {"n": first}])
    later: Any = cache.snapshot_sequence([{"role": "user"}, {"n": second}])
    alone: Any = cache.snapshot({"n": second})
    like: Any = cache.snapshot_like({"n": second}, {"n": first})

    assert _exact(earlier[1]["n"], first)
    for snapshot in (later[1], alone, like):
        assert _exact(snapshot["n"], second)


def test_snapshot_sequence_shares_unchanged_items_across_calls() -> None:
    cache = SnapshotCache()
    first = cache.snapshot_sequence([{"role": "user", "content": "hi"}])
    # The runner rebuilds each item dict with the same values on every turn.
    second = cache.snapshot_sequence(
        [{"role": "user", "content": "hi"}, {"type": "message", "content": [{"text": "ok"}]}]
    )
    third = cache.snapshot_sequence(
        [
            {"role": "user", "content": "hi"},
            {"type": "message", "content": [{"text": "ok"}]},
            {"role": "user", "content": "more"},
        ]
    )

    assert second[0] is first[0]
    assert third[0] is first[0]
    assert third[1] is second[1]


class _SmallCache(SnapshotCache):
    MAX_VALUES = 8


def test_the_snapshot_cache_remembers_only_the_most_recent_values() -> None:
    cache = _SmallCache()
    values = [{"n": n} for n in range(40)]
    first = [cache.snapshot(value) for value in values]

    assert len(cache) <= _SmallCache.MAX_VALUES
    # The most recent value shares its snapshot; a forgotten one gets a fresh, equal one.
    assert cache.snapshot(values[-1]) is first[-1]
    again = cache.snapshot(values[0])
    assert again == {"n": 0}
    assert again is not first[0]
    assert len(cache) <= _SmallCache.MAX_VALUES


def test_a_long_conversation_keeps_the_cache_bounded_and_the_history_exact() -> None:
    cache = _SmallCache()
    conversation: list[dict[str, object]] = []
    snapshots: list[tuple[Any, ...]] = []
    for turn in range(30):
        conversation.append({"role": "user", "content": f"turn {turn}"})
        # The runner rebuilds each item dict on every turn.
        snapshots.append(cache.snapshot_sequence([dict(item) for item in conversation]))

    assert len(cache) <= _SmallCache.MAX_VALUES
    assert [len(snapshot) for snapshot in snapshots] == list(range(1, 31))
    assert list(snapshots[-1]) == conversation
    assert snapshots[-1][0] is snapshots[0][0]  # still shared along the conversation


def test_snapshot_sequence_names_the_position_of_an_uncopyable_item() -> None:
    cache = SnapshotCache()
    cache.snapshot_sequence([{"role": "user"}])

    with pytest.raises(UncopyableValue) as caught:
        cache.snapshot_sequence(
            [{"role": "user"}, {"role": "assistant"}, {"content": (n for n in "ab")}],
            name="input",
        )

    assert caught.value.path == "input[2]['content']"


def test_snapshot_like_keeps_the_types_inside_model_settings() -> None:
    from agents import ModelSettings

    cache = SnapshotCache()
    first = cache.snapshot_like(ModelSettings(extra_args={"seed": 1}), None)
    again = cache.snapshot_like(ModelSettings(extra_args={"seed": 1}), first)
    second = cache.snapshot_like(ModelSettings(extra_args={"seed": True}), again)

    assert again is first
    assert second is not first
    assert first.extra_args is not None
    assert type(first.extra_args["seed"]) is int
    assert second.extra_args is not None
    assert type(second.extra_args["seed"]) is bool


@pytest.mark.asyncio
async def test_model_history_records_each_input_exactly_even_when_it_equals_an_earlier_one() -> (
    None
):
    from agents import Agent, Runner

    from agents_testing.model import ScriptedModel, assistant_message

    model = ScriptedModel([[assistant_message(text)] for text in ("a", "b", "c", "d")])
    agent = Agent(name="Echo", model=model)
    call = {"type": "function_call", "call_id": "call_1", "name": "lookup", "arguments": "{}"}
    for output in (1, True, 1.0):
        items: Any = [call, {"type": "function_call_output", "call_id": "call_1", "output": output}]
        await Runner.run(agent, items)
    message: Any = [{"role": "user", "content": "hi", "n": 1}]
    await Runner.run(agent, message)

    recorded: list[Any] = [call.input[1] for call in model.calls[:3]]
    assert [(type(item["output"]), item["output"]) for item in recorded] == [
        (int, 1),
        (bool, True),
        (float, 1.0),
    ]
    last: Any = model.calls[3].input[0]
    assert type(last["n"]) is int


def _exact(left: object, right: object) -> bool:
    """Equal with the same types throughout, float signs and dict key order included."""
    if type(left) is not type(right):
        return False
    if isinstance(left, float):
        return repr(left) == repr(right)
    if isinstance(left, dict):
        assert isinstance(right, dict)
        return list(left) == list(right) and all(_exact(left[key], right[key]) for key in left)
    return left == right


def test_snapshot_sequence_keeps_the_key_order_of_items_holding_equal_values() -> None:
    cache = SnapshotCache()
    cache.snapshot_sequence([{"role": "user"}, {"id": None, "status": None}])

    later: Any = cache.snapshot_sequence([{"role": "user"}, {"status": None, "id": None}])

    assert list(later[1]) == ["status", "id"]


def test_snapshot_sequence_copies_new_plain_items_and_shares_them_on_later_turns() -> None:
    cache = SnapshotCache()
    cache.snapshot_sequence([{"role": "user", "content": "hi"}])
    call = {"type": "function_call", "name": "step", "arguments": "{}", "call_id": "c1"}
    second = cache.snapshot_sequence([{"role": "user", "content": "hi"}, call])

    call["arguments"] = '{"changed": true}'
    third = cache.snapshot_sequence(
        [{"role": "user", "content": "hi"}, dict(call), {"call_id": "c1", "output": "ok"}]
    )

    assert second[1] is not call
    assert second[1] == {
        "type": "function_call",
        "name": "step",
        "arguments": "{}",
        "call_id": "c1",
    }
    assert third[0] is second[0]
    assert third[1] is not second[1]
    assert third[1]["arguments"] == '{"changed": true}'
    assert third[2] == {"call_id": "c1", "output": "ok"}


@pytest.mark.parametrize(
    "new_item",
    [
        {"content": _Role.USER},
        {1: "one"},
        OrderedDict(role="user"),
        [("role", "user")],
        {"content": [{"text": "hi"}]},
    ],
    ids=["str-subclass-value", "int-key", "ordered-dict", "list", "nested"],
)
def test_snapshot_sequence_grows_past_an_item_that_is_not_a_plain_dict(new_item: Any) -> None:
    cache = SnapshotCache()
    first = cache.snapshot_sequence([{"role": "user"}])
    second: Any = cache.snapshot_sequence([{"role": "user"}, new_item])
    third: Any = cache.snapshot_sequence([{"role": "user"}, new_item, {"role": "assistant"}])

    assert second[0] is first[0]
    assert type(second[1]) is type(new_item)
    assert _exact(second[1], new_item) if isinstance(new_item, dict) else second[1] == new_item
    assert second[1] is not new_item
    assert third[0] is first[0]
    assert third[2] == {"role": "assistant"}


def test_snapshot_sequence_grows_each_of_two_interleaved_conversations() -> None:
    cache = SnapshotCache()
    a1 = cache.snapshot_sequence([{"role": "user", "content": "a"}])
    b1 = cache.snapshot_sequence([{"role": "user", "content": "b"}])
    a2 = cache.snapshot_sequence([{"role": "user", "content": "a"}, {"content": "a2"}])
    b2 = cache.snapshot_sequence([{"role": "user", "content": "b"}, {"content": "b2"}])
    a3 = cache.snapshot_sequence(
        [{"role": "user", "content": "a"}, {"content": "a2"}, {"content": "a3"}]
    )

    assert a2[0] is a1[0]
    assert b2[0] is b1[0]
    assert a3[:2] == a2
    assert a3[1] is a2[1]
    assert [item["content"] for item in a3] == ["a", "a2", "a3"]
    assert [item["content"] for item in b2] == ["b", "b2"]


def test_snapshot_sequence_shares_pydantic_items_that_hold_the_same_values() -> None:
    cache = SnapshotCache()
    first = cache.snapshot_sequence([_Holder(values=[1, "a"])])
    again = cache.snapshot_sequence([_Holder(values=[1, "a"]), _Holder(values=[])])
    changed = cache.snapshot_sequence([_Holder(values=[True, "a"])])

    assert again[0] is first[0]
    assert changed[0] is not first[0]
    assert changed[0].values == [True, "a"]
    assert type(changed[0].values[0]) is bool


class _RefusesCopy:
    def __init__(self, error: Exception) -> None:
        self.error = error

    def __deepcopy__(self, memo: dict[int, Any]) -> _RefusesCopy:
        raise self.error


def test_unwrapped_copy_failures_raise_the_values_own_exception_object() -> None:
    refusal = RuntimeError("x")
    with pytest.raises(RuntimeError) as caught:
        detach({"k": [_RefusesCopy(refusal)]}, name="extra_args", wrap_errors=False)
    assert caught.value is refusal
    assert refusal.__cause__ is None
    assert refusal.__context__ is None
    if sys.version_info >= (3, 11):
        assert refusal.__notes__ == [
            "agents-testing: Cannot snapshot extra_args['k'][0]: a "
            "tests.core.detach.test_detach._RefusesCopy cannot be copied (RuntimeError, the "
            "cause). "
            "Recorded history keeps detached copies, so pass plain data, pydantic models or "
            "objects that copy.deepcopy can copy (not locks, generators, open or closed "
            "files, memoryviews or other live resources)."
        ]


def test_unwrapped_copy_failures_pass_through_the_snapshot_cache() -> None:
    refusal = ValueError("no")
    cache = SnapshotCache()
    with pytest.raises(ValueError, match="no") as caught:
        cache.snapshot_sequence([1, _RefusesCopy(refusal)], name="input", wrap_errors=False)
    assert caught.value is refusal
    with pytest.raises(UncopyableValue, match=r"Cannot snapshot input\[1\]") as wrapped:
        cache.snapshot_sequence([1, _RefusesCopy(refusal)], name="input")
    assert wrapped.value.__cause__ is refusal
