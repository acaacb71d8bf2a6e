"""Unordered groups on the core step script: ``any_order`` and ``GroupEntry``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agents_testing.core import AnyOrder, GroupEntry, StepScript, any_order, build_group


def test_any_order_keeps_its_members_in_the_order_given() -> None:
    group = any_order("a", "b")

    assert isinstance(group, AnyOrder)
    assert group.steps == ("a", "b")
    assert len(group) == 2
    assert group == any_order("a", "b")
    assert group != any_order("b", "a")
    assert repr(group) == "any_order('a', 'b')"


def test_a_group_position_is_consumed_in_any_order_then_the_script_moves_on() -> None:
    script: StepScript[str] = StepScript(["first", GroupEntry(["x", "y", "z"]), "last"])

    assert script.take() == "first"
    assert script.in_group()
    assert script.candidates() == ("x", "y", "z")
    assert script.take(lambda step: step == "z") == "z"
    assert script.take(lambda step: step == "last") is None
    assert script.pending() == ("x", "y", "last")
    assert len(script) == 3
    assert script.take() == "x"
    assert script.take() == "y"
    assert not script.in_group()
    assert script.take() == "last"
    assert script.consumed == 5


def test_the_first_accepting_member_answers() -> None:
    script: StepScript[str] = StepScript([GroupEntry(["read a", "read b", "exec"])])

    assert script.take(lambda step: step.startswith("read")) == "read a"
    assert script.peek() == "read b"


def test_equal_members_are_told_apart_by_identity() -> None:
    first, second = ["same"], ["same"]
    script: StepScript[list[str]] = StepScript([GroupEntry([first, second])])

    script.take_candidate(second)

    assert script.pending() == (first,)
    assert script.pending()[0] is first


def test_take_candidate_refuses_a_step_of_another_position() -> None:
    script = StepScript(["a", "b"])

    with pytest.raises(ValueError, match="not a candidate"):
        script.take_candidate("b")
    assert script.pending() == ("a", "b")


def test_pending_group_members_are_reported_as_unconsumed() -> None:
    class Leftover(Exception):
        def __init__(self, pending: tuple[object, ...]) -> None:
            super().__init__(pending)
            self.pending = pending

    script: StepScript[str] = StepScript([GroupEntry(["x", "y"]), "last"])
    script.take(lambda step: step == "y")

    with pytest.raises(Leftover) as info:
        script.assert_complete(Leftover)
    assert info.value.pending == ("x", "last")


def test_build_group_refuses_empty_and_nested_groups() -> None:
    assert build_group(any_order(), lambda position, step: step) == (
        "any_order() needs at least one step; an empty group would match no call, so "
        "remove it or give it the steps that may come in any order"
    )
    assert build_group(any_order("a", any_order("b")), lambda position, step: step) == (
        "any_order() member 2 is itself a group; groups cannot be nested (a group already "
        "accepts its members in any order), so list the inner steps in the outer group"
    )


def test_build_group_builds_each_member_with_its_position() -> None:
    entry = build_group(any_order("a", "b"), lambda position, step: f"{position}:{step}")

    assert isinstance(entry, GroupEntry)
    assert entry.pending() == ("0:a", "1:b")


def test_every_boundary_and_bridged_module_serves_the_one_helper() -> None:
    import agents.realtime.testing
    import agents.testing
    import agents.voice.testing

    import agents_testing.model
    import agents_testing.realtime
    import agents_testing.sandbox
    import agents_testing.voice

    for module in (
        agents_testing.model,
        agents_testing.sandbox,
        agents_testing.realtime,
        agents_testing.voice,
        agents.testing,
        agents.realtime.testing,
        agents.voice.testing,
    ):
        assert module.any_order is any_order, module.__name__
    assert any_order.__module__ == "agents_testing.core"


@given(st.permutations(["a", "b", "c", "d"]))
def test_a_group_is_used_up_by_its_members_in_every_order(order: list[str]) -> None:
    script: StepScript[str] = StepScript(["first", GroupEntry(["a", "b", "c", "d"]), "last"])
    assert script.take() == "first"

    taken = [script.take(wanted.__eq__) for wanted in order]

    assert taken == order
    assert not script.in_group()
    assert script.pending() == ("last",)
    assert script.consumed == 5
