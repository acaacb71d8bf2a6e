"""Builders for built-in tools the runner executes locally: computer, shell, local shell
and apply-patch.

The agent must offer the matching SDK tool (``ComputerTool``, ``ShellTool``,
``LocalShellTool``, ``ApplyPatchTool``); the runner runs it and sends its output
with the next request.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from openai.types.responses import (
    ResponseApplyPatchToolCall,
    ResponseComputerToolCall,
    ResponseFunctionShellToolCall,
)
from openai.types.responses.response_output_item import LocalShellCall

from .._errors import invalid_argument
from .._script.validation import describe
from .common import build_item, call_id_or_auto, check_text

__all__ = ["apply_patch_call", "computer_call", "local_shell_call", "shell_call"]


def _commands(builder: str, argument: str, value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Sequence) and all(isinstance(part, str) for part in value):
        return list(value)
    raise invalid_argument(f"{builder}({argument})", "a str or a sequence of str", describe(value))


def _optional_int(builder: str, argument: str, value: object) -> int | None:
    if value is not None and (type(value) is not int or value < 0):
        raise invalid_argument(
            f"{builder}({argument})", "a non-negative int or None", describe(value)
        )
    return value


def computer_call(
    action: str | Mapping[str, Any] = "screenshot",
    *,
    call_id: str | None = None,
    item_id: str = "cu_scripted",
) -> ResponseComputerToolCall:
    """A computer-use action: a name (``"screenshot"``, ``"wait"``) or a full action mapping
    such as ``{"type": "click", "x": 10, "y": 20, "button": "left"}``."""
    if isinstance(action, str):
        fields_action: dict[str, Any] = {"type": action}
    elif isinstance(action, Mapping):
        fields_action = dict(action)
    else:
        raise invalid_argument(
            "computer_call(action)", "an action name or an action mapping", describe(action)
        )
    call = call_id_or_auto("computer_call", call_id)
    check_text("computer_call", "item_id", item_id, empty=False)
    fields = {
        "type": "computer_call",
        "id": item_id,
        "call_id": call,
        "action": fields_action,
        "pending_safety_checks": [],
        "status": "completed",
    }
    return build_item("computer_call", ResponseComputerToolCall, fields, {"action": "action"})


def shell_call(
    commands: str | Sequence[str],
    *,
    timeout_ms: int | None = None,
    max_output_length: int | None = None,
    call_id: str | None = None,
    item_id: str = "sh_scripted",
) -> ResponseFunctionShellToolCall:
    """A call of the shell tool running ``commands`` (one command or several, in order)."""
    listed = _commands("shell_call", "commands", commands)
    _optional_int("shell_call", "timeout_ms", timeout_ms)
    _optional_int("shell_call", "max_output_length", max_output_length)
    call = call_id_or_auto("shell_call", call_id)
    check_text("shell_call", "item_id", item_id, empty=False)
    action: dict[str, Any] = {
        "commands": listed,
        "timeout_ms": timeout_ms,
        "max_output_length": max_output_length,
    }
    fields = {
        "type": "shell_call",
        "id": item_id,
        "call_id": call,
        "action": action,
        "status": "completed",
    }
    return build_item("shell_call", ResponseFunctionShellToolCall, fields, {})


def local_shell_call(
    command: str | Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    working_directory: str | None = None,
    timeout_ms: int | None = None,
    call_id: str | None = None,
    item_id: str = "lsh_scripted",
) -> LocalShellCall:
    """A call of the local shell tool; a str ``command`` is split as a POSIX shell would."""
    if isinstance(command, str):
        argv = shlex.split(command)
    else:
        argv = _commands("local_shell_call", "command", command)
    if not argv:
        raise invalid_argument(
            "local_shell_call(command)", "a non-empty command", describe(command)
        )
    if env is not None and not (
        isinstance(env, Mapping)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in env.items())
    ):
        raise invalid_argument(
            "local_shell_call(env)", "a mapping of str to str or None", describe(env)
        )
    if working_directory is not None:
        check_text("local_shell_call", "working_directory", working_directory)
    _optional_int("local_shell_call", "timeout_ms", timeout_ms)
    call = call_id_or_auto("local_shell_call", call_id)
    check_text("local_shell_call", "item_id", item_id, empty=False)
    action: dict[str, Any] = {"type": "exec", "command": argv, "env": dict(env or {})}
    if working_directory is not None:
        action["working_directory"] = working_directory
    if timeout_ms is not None:
        action["timeout_ms"] = timeout_ms
    fields = {
        "type": "local_shell_call",
        "id": item_id,
        "call_id": call,
        "action": action,
        "status": "completed",
    }
    return build_item("local_shell_call", LocalShellCall, fields, {})


def apply_patch_call(
    path: str,
    diff: str | None = None,
    *,
    operation: Literal["create_file", "update_file", "delete_file"] = "update_file",
    call_id: str | None = None,
    item_id: str = "apc_scripted",
) -> ResponseApplyPatchToolCall:
    """A call of the apply-patch tool on ``path``: create or update it with the V4A ``diff``,
    or delete it."""
    check_text("apply_patch_call", "path", path, empty=False)
    if operation not in ("create_file", "update_file", "delete_file"):
        raise invalid_argument(
            "apply_patch_call(operation)",
            "'create_file', 'update_file' or 'delete_file'",
            describe(operation),
        )
    if operation == "delete_file":
        if diff is not None:
            raise invalid_argument(
                "apply_patch_call(diff)", "None for operation='delete_file'", describe(diff)
            )
    else:
        check_text("apply_patch_call", "diff", diff)
    call = call_id_or_auto("apply_patch_call", call_id)
    check_text("apply_patch_call", "item_id", item_id, empty=False)
    patch: dict[str, Any] = {"type": operation, "path": path}
    if diff is not None:
        patch["diff"] = diff
    fields = {
        "type": "apply_patch_call",
        "id": item_id,
        "call_id": call,
        "operation": patch,
        "status": "completed",
    }
    return build_item("apply_patch_call", ResponseApplyPatchToolCall, fields, {})


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
