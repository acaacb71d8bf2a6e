"""agents-testing model boundary: ``ScriptedModel``, its steps, calls and errors, and cassettes.

Exposed to tests as ``agents.testing`` by the agents-testing import bridge.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agents_testing.core.lazy import serve_lazily

if TYPE_CHECKING:
    from agents_testing.core import CapturedTraces, any_order, capture_traces, to_snapshot

    from ._approvals.decisions import (
        ApprovalDecision,
        ApprovalRequest,
        ApprovalRule,
        approve,
        reject,
    )
    from ._approvals.errors import ApprovalAssertionError, ApprovalDecisionError
    from ._approvals.run import ApprovalRun, ToolRun, run_with_approvals
    from ._call import InputMessage, ModelCall
    from ._cassette.cassette import ModelCassette
    from ._cassette.fixture import ModelCassetteFixture
    from ._cassette.outcome import ReplayedModelError
    from ._cassette.recorder import RecordingModel, RecordingModelProvider
    from ._cassette.replay import CassetteModel, CassetteModelProvider, ModelRequestMismatch
    from ._errors import (
        InvalidModelArgument,
        InvalidModelStep,
        InvalidScriptedToolCall,
        ModelCallMatcherError,
        ModelScriptError,
        TrajectoryMismatch,
        UnconsumedModelSteps,
        UnconsumedProviderSteps,
        UnexpectedModelCall,
        UnscriptedModelCall,
        UnstreamableOutputItem,
    )
    from ._factory import ScriptedModelFactory
    from ._faults.builders import (
        answer_after,
        connection_reset,
        rate_limit,
        request_timeout,
        server_error,
        stream_cut,
    )
    from ._faults.errors import UnusedModelFaults
    from ._faults.fault import ModelFault
    from ._faults.schedule import FaultSchedule
    from ._items.calls import (
        custom_tool_call,
        function_call,
        handoff_call,
        tool_search_call,
    )
    from ._items.hosted import (
        code_interpreter_call,
        file_search_call,
        image_generation_call,
        mcp_approval_request,
        mcp_call,
        mcp_list_tools,
        web_search_call,
    )
    from ._items.local import (
        apply_patch_call,
        computer_call,
        local_shell_call,
        shell_call,
    )
    from ._items.messages import (
        assistant_message,
        final_output,
        reasoning,
        refusal,
    )
    from ._provider.provider import (
        RoutedModelCall,
        ScriptedModelProvider,
        ScriptedModelProviderFactory,
    )
    from ._scripted_model import ScriptedModel
    from ._smoke.errors import SmokeGenerationError, SmokeToolsFailed
    from ._smoke.model import SmokeModel
    from ._smoke.report import SmokeCall, ToolReport
    from ._smoke.strategies import smoke_arguments, tool_arguments
    from ._step import ModelStep, ModelStepSpec
    from ._streaming.for_step import _stream_events_for_step as _stream_events_for_step
    from ._trajectory.assertion import Trajectory, assert_trajectory
    from ._trajectory.expect import handoff_to, tool_call
    from ._trajectory.steps import NOT_CHECKED, HandoffStep, ToolCallStep, TrajectoryStep
    from ._usage.budget import assert_usage
    from ._usage.errors import UnpricedModel, UsageBudgetExceeded
    from ._usage.prices import ModelPrice
    from ._usage.report import RequestUsage, UsageReport, UsageTotals, usage_report

__all__ = [
    "CapturedTraces",
    "CassetteModel",
    "CassetteModelProvider",
    "InputMessage",
    "InvalidModelArgument",
    "InvalidModelStep",
    "InvalidScriptedToolCall",
    "ModelCall",
    "ModelCallMatcherError",
    "ModelCassette",
    "ModelCassetteFixture",
    "ModelRequestMismatch",
    "ModelScriptError",
    "ModelStep",
    "ModelStepSpec",
    "RecordingModel",
    "RecordingModelProvider",
    "ReplayedModelError",
    "RoutedModelCall",
    "ScriptedModel",
    "ScriptedModelFactory",
    "ScriptedModelProvider",
    "ScriptedModelProviderFactory",
    "UnconsumedModelSteps",
    "UnconsumedProviderSteps",
    "UnexpectedModelCall",
    "UnstreamableOutputItem",
    "any_order",
    "UnscriptedModelCall",
    "assistant_message",
    "capture_traces",
    "function_call",
    "apply_patch_call",
    "code_interpreter_call",
    "computer_call",
    "custom_tool_call",
    "file_search_call",
    "final_output",
    "handoff_call",
    "image_generation_call",
    "local_shell_call",
    "mcp_approval_request",
    "mcp_call",
    "mcp_list_tools",
    "reasoning",
    "refusal",
    "shell_call",
    "tool_search_call",
    "web_search_call",
    "HandoffStep",
    "NOT_CHECKED",
    "ToolCallStep",
    "Trajectory",
    "TrajectoryMismatch",
    "TrajectoryStep",
    "assert_trajectory",
    "handoff_to",
    "tool_call",
    "to_snapshot",
    "SmokeModel",
    "SmokeCall",
    "ToolReport",
    "SmokeGenerationError",
    "SmokeToolsFailed",
    "smoke_arguments",
    "tool_arguments",
    "run_with_approvals",
    "ApprovalRun",
    "ToolRun",
    "ApprovalRequest",
    "ApprovalRule",
    "ApprovalDecision",
    "approve",
    "reject",
    "ApprovalDecisionError",
    "ApprovalAssertionError",
    "assert_usage",
    "usage_report",
    "UsageReport",
    "UsageTotals",
    "RequestUsage",
    "ModelPrice",
    "UsageBudgetExceeded",
    "UnpricedModel",
    "FaultSchedule",
    "ModelFault",
    "UnusedModelFaults",
    "answer_after",
    "connection_reset",
    "rate_limit",
    "request_timeout",
    "server_error",
    "stream_cut",
]

# ``InvalidModelArgument`` is served here but joins ``__all__`` (and so ``agents.testing``)
# once the import bridge's symbol table lists it.

# Names are imported on first use, so that loading the package (as a pytest plugin, for
# one) does not import the SDK.
serve_lazily(
    __name__,
    {
        "CapturedTraces": "agents_testing.core",
        "CassetteModel": "._cassette.replay",
        "CassetteModelProvider": "._cassette.replay",
        "InputMessage": "._call",
        "InvalidModelArgument": "._errors",
        "InvalidModelStep": "._errors",
        "InvalidScriptedToolCall": "._errors",
        "ModelCall": "._call",
        "ModelCallMatcherError": "._errors",
        "ModelCassette": "._cassette.cassette",
        "ModelCassetteFixture": "._cassette.fixture",
        "ModelRequestMismatch": "._cassette.replay",
        "ModelScriptError": "._errors",
        "ModelStep": "._step",
        "ModelStepSpec": "._step",
        "RecordingModel": "._cassette.recorder",
        "RecordingModelProvider": "._cassette.recorder",
        "ReplayedModelError": "._cassette.outcome",
        "ScriptedModel": "._scripted_model",
        "ScriptedModelFactory": "._factory",
        "UnconsumedModelSteps": "._errors",
        "UnexpectedModelCall": "._errors",
        "UnstreamableOutputItem": "._errors",
        "_stream_events_for_step": "._streaming.for_step",
        "any_order": "agents_testing.core",
        "assistant_message": "._items.messages",
        "function_call": "._items.calls",
        "final_output": "._items.messages",
        "reasoning": "._items.messages",
        "refusal": "._items.messages",
        "custom_tool_call": "._items.calls",
        "handoff_call": "._items.calls",
        "tool_search_call": "._items.calls",
        "code_interpreter_call": "._items.hosted",
        "file_search_call": "._items.hosted",
        "image_generation_call": "._items.hosted",
        "mcp_approval_request": "._items.hosted",
        "mcp_call": "._items.hosted",
        "mcp_list_tools": "._items.hosted",
        "web_search_call": "._items.hosted",
        "apply_patch_call": "._items.local",
        "computer_call": "._items.local",
        "local_shell_call": "._items.local",
        "shell_call": "._items.local",
        "HandoffStep": "._trajectory.steps",
        "NOT_CHECKED": "._trajectory.steps",
        "ToolCallStep": "._trajectory.steps",
        "Trajectory": "._trajectory.assertion",
        "TrajectoryMismatch": "._errors",
        "TrajectoryStep": "._trajectory.steps",
        "assert_trajectory": "._trajectory.assertion",
        "handoff_to": "._trajectory.expect",
        "tool_call": "._trajectory.expect",
        "RoutedModelCall": "._provider.provider",
        "ScriptedModelProvider": "._provider.provider",
        "ScriptedModelProviderFactory": "._provider.provider",
        "UnconsumedProviderSteps": "._errors",
        "UnscriptedModelCall": "._errors",
        "capture_traces": "agents_testing.core",
        "to_snapshot": "agents_testing.core",
        "SmokeModel": "._smoke.model",
        "SmokeCall": "._smoke.report",
        "ToolReport": "._smoke.report",
        "SmokeGenerationError": "._smoke.errors",
        "SmokeToolsFailed": "._smoke.errors",
        "smoke_arguments": "._smoke.strategies",
        "tool_arguments": "._smoke.strategies",
        "run_with_approvals": "._approvals.run",
        "ApprovalRun": "._approvals.run",
        "ToolRun": "._approvals.run",
        "ApprovalRequest": "._approvals.decisions",
        "ApprovalRule": "._approvals.decisions",
        "ApprovalDecision": "._approvals.decisions",
        "approve": "._approvals.decisions",
        "reject": "._approvals.decisions",
        "ApprovalDecisionError": "._approvals.errors",
        "ApprovalAssertionError": "._approvals.errors",
        "assert_usage": "._usage.budget",
        "usage_report": "._usage.report",
        "UsageReport": "._usage.report",
        "UsageTotals": "._usage.report",
        "RequestUsage": "._usage.report",
        "ModelPrice": "._usage.prices",
        "UsageBudgetExceeded": "._usage.errors",
        "UnpricedModel": "._usage.errors",
        "FaultSchedule": "._faults.schedule",
        "ModelFault": "._faults.fault",
        "UnusedModelFaults": "._faults.errors",
        "answer_after": "._faults.builders",
        "connection_reset": "._faults.builders",
        "rate_limit": "._faults.builders",
        "request_timeout": "._faults.builders",
        "server_error": "._faults.builders",
        "stream_cut": "._faults.builders",
    },
)
