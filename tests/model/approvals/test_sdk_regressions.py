"""A test written with run_with_approvals catches the SDK approval bugs seen in the past.

Each test puts back such a bug for its duration (``RunState.approve`` / ``reject``
patched to misbehave) and shows that the kit's own checks fail the test.
"""

from __future__ import annotations

from typing import Any

import pytest
from agents import Agent, RunConfig, RunState, function_tool

from agents_testing.model import (
    ApprovalAssertionError,
    ApprovalDecisionError,
    ScriptedModel,
    approve,
    assistant_message,
    function_call,
    reject,
    run_with_approvals,
)

RUN = RunConfig(tracing_disabled=True)


@function_tool(needs_approval=True)
def cancel(reference: str) -> str:
    """Cancel a booking."""
    return f"Cancelled {reference}."


def two_cancellations() -> ScriptedModel:
    return ScriptedModel(
        [
            [
                function_call("cancel", {"reference": "BK1"}, call_id="c1"),
                function_call("cancel", {"reference": "BK2"}, call_id="c2"),
            ],
            [assistant_message("Done.")],
        ]
    )


@pytest.mark.asyncio
async def test_a_decision_the_resumed_run_loses_is_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(RunState, "reject", lambda self, item, *args, **kwargs: None)
    agent = Agent(name="Desk", model=two_cancellations(), tools=[cancel])

    with pytest.raises(ApprovalDecisionError) as caught:
        await run_with_approvals(agent, "Cancel both", decide=reject("cancel"), run_config=RUN)

    assert caught.value.reason == "asked_again"
    assert "after it was rejected at interruption 1" in str(caught.value)


@pytest.mark.asyncio
async def test_a_decision_applied_to_the_wrong_call_fails_the_assertions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    decided: dict[str, Any] = {}
    real_approve, real_reject = RunState.approve, RunState.reject

    def swapped(kind: str) -> Any:
        # Each decision lands on the other call of the pair.
        def apply(self: RunState[Any], item: Any, *args: Any, **kwargs: Any) -> None:
            decided[item.raw_item.call_id] = kind
            pending: list[Any] = list(self.get_interruptions())
            other = next(i for i in pending if i.raw_item.call_id != item.raw_item.call_id)
            (real_approve if kind == "approve" else real_reject)(self, other)

        return apply

    monkeypatch.setattr(RunState, "approve", swapped("approve"))
    monkeypatch.setattr(RunState, "reject", swapped("reject"))
    agent = Agent(name="Desk", model=two_cancellations(), tools=[cancel])

    run = await run_with_approvals(
        agent,
        "Cancel BK2 only",
        decide=[reject("cancel", when={"reference": "BK1"}), approve("cancel")],
        run_config=RUN,
    )

    assert decided == {"c1": "reject", "c2": "approve"}
    with pytest.raises(
        ApprovalAssertionError, match=r"'cancel' \(c1\) was rejected but its tool ran"
    ):
        run.assert_not_run(call_id="c1")
    with pytest.raises(
        ApprovalAssertionError, match=r"'cancel' \(c2\) was approved but its tool ran 0"
    ):
        run.assert_ran_once(call_id="c2")
