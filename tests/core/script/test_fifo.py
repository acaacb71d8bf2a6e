"""The strict FIFO step script shared by every boundary."""

from __future__ import annotations

import pytest

from agents_testing.core import Entry, StepScript


class _Leftover(Exception):
    def __init__(self, pending: tuple[str, ...]) -> None:
        super().__init__(pending)
        self.pending = pending


def test_take_consumes_steps_in_order() -> None:
    script = StepScript(["a", "b"])
    script.append("c")
    script.extend(["d"])

    assert [script.take(), script.take(), script.take(), script.take()] == ["a", "b", "c", "d"]
    assert script.take() is None
    assert script.consumed == 4
    assert len(script) == 0


def test_rejected_head_stays_pending_and_later_steps_are_not_eligible() -> None:
    script = StepScript(["exec", "read"])

    assert script.take(lambda step: step == "read") is None
    assert script.pending() == ("exec", "read")
    assert script.consumed == 0
    assert script.take(lambda step: step == "exec") == "exec"


def test_exception_in_accept_leaves_the_step_pending() -> None:
    script = StepScript(["a"])

    def boom(step: str) -> bool:
        raise ValueError(step)

    with pytest.raises(ValueError, match="a"):
        script.take(boom)
    assert script.pending() == ("a",)
    assert script.peek() == "a"


def test_assert_complete_reports_what_is_left() -> None:
    script = StepScript(["a", "b", "c"])
    script.take()

    with pytest.raises(_Leftover) as info:
        script.assert_complete(_Leftover)
    assert info.value.pending == ("b", "c")

    script.take()
    script.take()
    script.assert_complete(_Leftover)


class _AnyOrder(Entry[str]):
    """A group entry: its steps may be taken in any order."""

    def __init__(self, steps: list[str]) -> None:
        super().__init__(steps[0])
        self.left = list(steps)

    def candidates(self) -> tuple[str, ...]:
        return tuple(self.left)

    def consume(self, step: str) -> bool:
        self.left.remove(step)
        return not self.left

    def pending(self) -> tuple[str, ...]:
        return tuple(self.left)


def test_custom_entries_extend_the_queue_without_changing_the_api() -> None:
    script = StepScript(["first"])
    script.append_entry(_AnyOrder(["x", "y"]))
    script.append("last")

    assert script.take() == "first"
    assert script.take(lambda step: step == "y") == "y"
    assert script.pending() == ("x", "last")
    assert script.take(lambda step: step == "last") is None
    assert script.take() == "x"
    assert script.take() == "last"
    assert len(script) == 0
