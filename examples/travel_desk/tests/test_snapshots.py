"""Snapshot tests of a whole desk turn: the run's trajectory and its span tree.

Recipes beyond the built-in: stable snapshots (``to_snapshot``), trace capture
(``captured_traces``). With inline-snapshot or syrupy installed, the expected values
below are what ``snapshot()`` would store.
"""

from __future__ import annotations

import pytest
from agents import RunConfig, RunResult
from agents.testing import CapturedTraces, assistant_message, function_call, to_snapshot

from ._types import OpenDesk, ScriptModel


@pytest.fixture
def run_config() -> RunConfig:
    """Tracing stays on for these runs: ``captured_traces`` keeps the spans in memory."""
    return RunConfig()


async def ask_to_cancel_an_unknown_booking(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> RunResult:
    model = scripted_model(
        [
            [function_call("transfer_to_support_agent", {}, call_id="handoff")],
            [function_call("cancel_booking", {"reference": "BK9999"}, call_id="cancel")],
            [assistant_message("I could not find booking BK9999. Could you check it?")],
        ],
        emit_traces=True,
    )
    return await open_desk(model).ask("Cancel BK9999 please")


@pytest.mark.asyncio
async def test_a_refused_cancellation_as_one_trajectory_snapshot(
    scripted_model: ScriptModel, open_desk: OpenDesk
) -> None:
    result = await ask_to_cancel_an_unknown_booking(scripted_model, open_desk)

    assert to_snapshot(result) == {
        "items": [
            {
                "type": "handoff_call",
                "agent": "Triage agent",
                "tool": "transfer_to_support_agent",
                "call_id": "<call_1>",
            },
            {
                "type": "handoff",
                "from": "Triage agent",
                "to": "Support agent",
                "call_id": "<call_1>",
            },
            {
                "type": "tool_call",
                "agent": "Support agent",
                "tool": "cancel_booking",
                "arguments": {"reference": "BK9999"},
                "call_id": "<call_2>",
            },
            {
                "type": "tool_output",
                "agent": "Support agent",
                "tool": "cancel_booking",
                "call_id": "<call_2>",
                "output": "The booking system refused: There is no booking with reference BK9999.",
            },
            {
                "type": "message",
                "agent": "Support agent",
                "text": "I could not find booking BK9999. Could you check it?",
            },
        ],
        "final_output": "I could not find booking BK9999. Could you check it?",
        "last_agent": "Support agent",
    }


@pytest.mark.asyncio
async def test_a_refused_cancellation_as_a_span_tree(
    scripted_model: ScriptModel, open_desk: OpenDesk, captured_traces: CapturedTraces
) -> None:
    await ask_to_cancel_an_unknown_booking(scripted_model, open_desk)

    [trace] = captured_traces.tree
    triage, support = trace["children"]
    assert [span["type"] for span in triage["children"]] == ["guardrail", "generation", "handoff"]
    assert triage["children"][0] == {
        "type": "guardrail",
        "name": "no_card_numbers",
        "triggered": False,
    }
    assert triage["children"][2] == {
        "type": "handoff",
        "from_agent": "Triage agent",
        "to_agent": "Support agent",
    }
    cancel = support["children"][1]
    assert cancel["name"] == "cancel_booking"
    assert cancel["error"] == {
        "message": "Error running tool (non-fatal)",
        "data": {
            "error": "There is no booking with reference BK9999.",
            "tool_name": "cancel_booking",
        },
    }
