"""run_with_approvals through the real runner: scripted decisions, resumes, JSON round trips."""

from __future__ import annotations

import dataclasses
import json
from typing import Any
from unittest.mock import ANY

import pytest
from agents import Agent, HostedMCPTool, RunConfig, RunContextWrapper, function_tool
from agents.mcp import MCPServer
from agents.tool import FunctionTool

from agents_testing.mcp import ScriptedMCPServer, mcp_tool, text_result
from agents_testing.model import (
    ApprovalAssertionError,
    ApprovalDecisionError,
    ApprovalRequest,
    InvalidModelArgument,
    ScriptedModel,
    approve,
    assistant_message,
    function_call,
    mcp_approval_request,
    reject,
    run_with_approvals,
)

RUN = RunConfig(tracing_disabled=True)
BAD: Any = 42  # a value of the wrong type, as an untyped caller may pass


@dataclasses.dataclass
class Desk:
    """The live state the tools change: what was cancelled and booked."""

    cancelled: list[str] = dataclasses.field(default_factory=list)
    booked: list[str] = dataclasses.field(default_factory=list)


@function_tool(needs_approval=True)
def cancel(ctx: RunContextWrapper[Desk], reference: str) -> str:
    """Cancel a booking."""
    ctx.context.cancelled.append(reference)
    return f"Cancelled {reference}."


@function_tool(needs_approval=True)
def book(ctx: RunContextWrapper[Desk], flight: str) -> str:
    """Book a flight."""
    ctx.context.booked.append(flight)
    return f"Booked {flight}."


def desk_agent(model: ScriptedModel, *tools: FunctionTool) -> Agent[Desk]:
    return Agent[Desk](name="Desk", model=model, tools=list(tools) or [cancel, book])


def cancel_and_book() -> ScriptedModel:
    return ScriptedModel(
        [
            [
                function_call("cancel", {"reference": "BK1"}, call_id="c1"),
                function_call("book", {"flight": "TD101"}, call_id="c2"),
            ],
            [assistant_message("Done.")],
        ]
    )


@pytest.mark.asyncio
@pytest.mark.parametrize("round_trip", [False, True], ids=["in_memory", "json_round_trip"])
async def test_a_rejected_call_never_runs_and_an_approved_one_runs_once(
    streamed: bool, round_trip: bool
) -> None:
    desk, model = Desk(), cancel_and_book()

    run = await run_with_approvals(
        desk_agent(model),
        "Swap my flight",
        decide=[reject("cancel", message="Cancellations need a supervisor."), approve("book")],
        round_trip=round_trip,
        streamed=streamed,
        context=desk,
        run_config=RUN,
    )

    assert run.final_output == "Done."
    assert (desk.cancelled, desk.booked) == ([], ["TD101"])
    run.assert_not_run("cancel")
    run.assert_ran_once("book")
    assert run.rejection_message("cancel") == "Cancellations need a supervisor."
    assert model.last_call is not None
    assert model.last_call.tool_outputs() == {
        "c1": "Cancellations need a supervisor.",
        "c2": "Booked TD101.",
    }
    assert [(d.tool_name, d.call_id, d.approved) for d in run.decisions] == [
        ("cancel", "c1", False),
        ("book", "c2", True),
    ]
    assert [(t.tool_name, t.call_id) for t in run.tool_runs] == [("book", "c2")]
    assert len(run.results) == 2
    assert len(run.states) == (1 if round_trip else 0)
    model.assert_complete()


@pytest.mark.asyncio
async def test_the_round_trip_resumes_from_the_json_text_a_restart_would_load() -> None:
    desk, model = Desk(), cancel_and_book()

    run = await run_with_approvals(
        desk_agent(model),
        "Swap my flight",
        decide={"cancel": "approve", "book": "reject"},
        round_trip=True,
        context=desk,
        run_config=RUN,
    )

    # The state's layout is the SDK's (it differs between releases); it is JSON text,
    # and resuming from it alone carried both decisions.
    assert isinstance(json.loads(run.states[0]), dict)
    assert (desk.cancelled, desk.booked) == (["BK1"], [])
    run.assert_ran_once("cancel")
    run.assert_not_run(call_id="c2")


@pytest.mark.asyncio
async def test_each_interruption_of_a_longer_run_is_decided_in_turn(streamed: bool) -> None:
    desk = Desk()
    model = ScriptedModel(
        [
            [function_call("cancel", {"reference": "BK1"}, call_id="c1")],
            [function_call("cancel", {"reference": "BK2"}, call_id="c2")],
            [function_call("cancel", {"reference": "BK3"}, call_id="c3")],
            [assistant_message("Two cancelled.")],
        ]
    )
    asked: list[ApprovalRequest] = []

    def only_bk2_stays(request: ApprovalRequest) -> bool:
        asked.append(request)
        return bool(request.arguments["reference"] != "BK2")

    run = await run_with_approvals(
        desk_agent(model, cancel),
        "Cancel all three",
        decide=only_bk2_stays,
        round_trip=True,
        streamed=streamed,
        context=desk,
        run_config=RUN,
    )

    assert desk.cancelled == ["BK1", "BK3"]
    assert [(r.call_id, r.agent) for r in asked] == [("c1", "Desk"), ("c2", "Desk"), ("c3", "Desk")]
    assert [decision.round for decision in run.decisions] == [0, 1, 2]
    run.assert_not_run(call_id="c2")
    run.assert_ran_once(call_id="c3")
    assert run.rejection_message(call_id="c2") == ANY  # the SDK's own default text
    assert run.output_for("c2") != "Cancelled BK2."


@pytest.mark.asyncio
async def test_rules_match_on_arguments_and_always_remembers_a_decision() -> None:
    desk = Desk()
    model = ScriptedModel(
        [
            [function_call("book", {"flight": "TD101"}, call_id="c1")],
            [function_call("book", {"flight": "TD102"}, call_id="c2")],
            [function_call("book", {"flight": "XX999"}, call_id="c3")],
            [assistant_message("Booked.")],
        ]
    )

    run = await run_with_approvals(
        desk_agent(model, book),
        "Book",
        decide=[
            reject("book", when=lambda arguments: arguments["flight"].startswith("XX")),
            approve("book", when={"flight": ANY}, always=True),
        ],
        context=desk,
        run_config=RUN,
    )

    # Approved for good at the first call, the tool is not stopped for again.
    assert desk.booked == ["TD101", "TD102", "XX999"]
    assert [decision.call_id for decision in run.decisions] == ["c1"]


@pytest.mark.asyncio
async def test_an_mcp_server_that_requires_approval_is_decided_the_same_way(
    streamed: bool,
) -> None:
    lookup = mcp_tool(
        "lookup",
        input_schema={"type": "object", "properties": {"reference": {"type": "string"}}},
    )
    server = ScriptedMCPServer(
        [{"tool": "lookup", "result": text_result("BK2: confirmed")}],
        tools=[lookup],
        name="bookings",
        require_approval="always",
    )
    model = ScriptedModel(
        [
            [
                function_call("lookup", {"reference": "BK1"}, call_id="c1"),
                function_call("lookup", {"reference": "BK2"}, call_id="c2"),
            ],
            [assistant_message("BK2 is confirmed.")],
        ]
    )
    servers: list[MCPServer] = [server]
    agent = Agent(name="Desk", model=model, mcp_servers=servers)

    async with server:
        run = await run_with_approvals(
            agent,
            "Check my bookings",
            decide=[
                reject("lookup", when={"reference": "BK1"}, message="Not yours."),
                approve("lookup"),
            ],
            round_trip=True,
            streamed=streamed,
            run_config=RUN,
        )

    assert [call.arguments for call in server.calls] == [{"reference": "BK2"}]
    assert run.rejection_message(call_id="c1") == "Not yours."
    run.assert_not_run(call_id="c1")
    server.assert_complete()


@pytest.mark.asyncio
async def test_a_hosted_mcp_approval_request_is_answered_on_the_next_request(
    streamed: bool,
) -> None:
    tool = HostedMCPTool(
        tool_config={
            "type": "mcp",
            "server_label": "bookings",
            "server_url": "https://mcp.example.com",
            "require_approval": "always",
        }
    )
    model = ScriptedModel(
        [
            [mcp_approval_request("bookings", "cancel", {"reference": "BK1"})],
            [assistant_message("BK1 stays booked.")],
        ],
        stream_all_items=True,  # a hosted approval request streams as the provider sends it
    )

    run = await run_with_approvals(
        Agent(name="Desk", model=model, tools=[tool]),
        "Cancel BK1",
        decide=reject("cancel", when={"reference": "BK1"}),
        round_trip=True,
        streamed=streamed,
        run_config=RUN,
    )

    assert [(d.tool_name, d.approved) for d in run.decisions] == [("cancel", False)]
    assert model.last_call is not None
    responses = [
        item
        for item in model.last_call.input
        if isinstance(item, dict) and item.get("type") == "mcp_approval_response"
    ]
    assert responses == [
        {"type": "mcp_approval_response", "approval_request_id": "mcpr_scripted", "approve": False}
    ]


# -- assertions that fail ---------------------------------------------------------------


@pytest.mark.asyncio
async def test_the_assertions_say_which_call_broke_them() -> None:
    run = await run_with_approvals(
        desk_agent(cancel_and_book()),
        "Swap",
        decide={"cancel": "reject", "book": "approve"},
        context=Desk(),
        run_config=RUN,
    )

    with pytest.raises(ApprovalAssertionError, match=r"'book' \(c2\) was approved") as caught:
        run.assert_not_run("book")
    assert (caught.value.expected, caught.value.actual) == ("rejected", "approved")
    with pytest.raises(ApprovalAssertionError, match=r"'cancel' \(c1\) was rejected"):
        run.assert_ran_once("cancel")
    with pytest.raises(ApprovalAssertionError, match="no decided call of 'refund'"):
        run.assert_ran_once("refund")


# -- bad input --------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_decision_function_that_raises_is_reported_with_the_call() -> None:
    def decide(request: ApprovalRequest) -> bool:
        raise KeyError("supervisor")

    with pytest.raises(ApprovalDecisionError) as caught:
        await run_with_approvals(
            desk_agent(cancel_and_book()), "Swap", decide=decide, context=Desk(), run_config=RUN
        )

    error = caught.value
    assert (error.reason, error.tool_name, error.interruption_index) == (
        "decision_raised",
        "cancel",
        0,
    )
    assert error.arguments == {"reference": "BK1"}
    assert isinstance(error.__cause__, KeyError)
    assert "Cannot decide approval #1 (tool 'cancel'" in str(error)


@pytest.mark.parametrize(
    ("decide", "reason"),
    [
        (lambda request: 42, "invalid_decision"),
        (reject("cancel"), "undecided"),
        ([approve("book")], "undecided"),
    ],
)
@pytest.mark.asyncio
async def test_a_call_no_decision_covers_is_an_error_naming_it(decide: Any, reason: str) -> None:
    with pytest.raises(ApprovalDecisionError) as caught:
        await run_with_approvals(
            desk_agent(cancel_and_book()), "Swap", decide=decide, context=Desk(), run_config=RUN
        )

    assert caught.value.reason == reason


@pytest.mark.asyncio
async def test_a_rule_for_a_tool_the_agents_do_not_have_is_refused_before_running() -> None:
    model = cancel_and_book()

    with pytest.raises(ApprovalDecisionError) as caught:
        await run_with_approvals(
            desk_agent(model),
            "Swap",
            decide=[approve("cancle"), approve("book")],
            context=Desk(),
            run_config=RUN,
        )

    assert caught.value.reason == "unknown_tool"
    assert caught.value.tool_name == "cancle"
    assert caught.value.known_tools == ("cancel", "book")
    assert model.calls == ()


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda: approve(BAD), "approve(tool)"),
        (lambda: reject("x", message=BAD), "reject(message)"),
        (lambda: approve("x", when=BAD), "approve(when)"),
        (lambda: approve("x", always=BAD), "approve(always)"),
    ],
)
def test_a_malformed_rule_is_refused_when_made(call: Any, argument: str) -> None:
    with pytest.raises(InvalidModelArgument) as caught:
        call()

    assert caught.value.argument == argument


@pytest.mark.parametrize(
    ("options", "argument"),
    [
        ({"decide": 42}, "decide"),
        ({"decide": {"cancel": "maybe"}}, "decide['cancel']"),
        ({"decide": ["cancel"]}, "decide[0]"),
        ({"decide": approve(), "round_trip": "yes"}, "round_trip"),
    ],
)
@pytest.mark.asyncio
async def test_bad_options_are_refused_before_the_run(
    options: dict[str, Any], argument: str
) -> None:
    model = cancel_and_book()

    with pytest.raises(InvalidModelArgument) as caught:
        await run_with_approvals(
            desk_agent(model), "Swap", context=Desk(), run_config=RUN, **options
        )

    assert caught.value.argument == argument
    assert model.calls == ()


@pytest.mark.asyncio
async def test_a_run_that_keeps_stopping_ends_with_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from agents_testing.model._approvals import run as approvals_run

    monkeypatch.setattr(approvals_run, "_MAX_ROUNDS", 2)  # the real limit is 50 legs
    model = ScriptedModel(
        [[function_call("cancel", {"reference": f"BK{n}"}, call_id=f"c{n}")] for n in range(3)]
    )

    with pytest.raises(ApprovalDecisionError) as caught:
        await run_with_approvals(
            desk_agent(model, cancel), "Cancel", decide=approve(), context=Desk(), run_config=RUN
        )

    assert caught.value.reason == "too_many_interruptions"
    assert len(model.calls) == 2
