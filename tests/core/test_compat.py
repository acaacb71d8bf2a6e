"""The compatibility module reads the installed SDK release."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
from importlib.metadata import version

from agents_testing.core import compat


def test_sdk_version_matches_the_installed_distribution() -> None:
    installed = version("openai-agents")
    assert ".".join(map(str, compat.sdk_version())) == installed
    assert compat.sdk_at_least(*compat.MINIMUM_SDK)
    assert not compat.sdk_at_least(99)


def test_builtin_testing_follows_the_release() -> None:
    import agents

    shipped = any(os.path.isdir(os.path.join(path, "testing")) for path in agents.__path__)
    assert compat.has_builtin_testing() is shipped


def test_the_tool_decorator_gate_matches_the_installed_sdk() -> None:
    # agents.decorators arrived in 0.19.0: the gate must open exactly where it exists.
    has_module = importlib.util.find_spec("agents.decorators") is not None
    exists = has_module and callable(
        getattr(importlib.import_module("agents.decorators"), "tool", None)
    )
    assert compat.has_tool_decorator() is exists


def test_the_realtime_text_event_gate_matches_the_installed_sdk() -> None:
    from agents.realtime import model_events

    exists = hasattr(model_events, "RealtimeModelOutputTextDeltaEvent")
    assert compat.realtime_has_output_text_events() is exists


def test_the_conditional_send_gate_matches_the_installed_sdk() -> None:
    from agents.realtime import session
    from agents.realtime.model import RealtimeModel

    # The session sends guardrail feedback through send_event_if where the model has it.
    exists = hasattr(RealtimeModel, "send_event_if")
    assert exists is ("send_event_if" in inspect.getsource(session))
    assert compat.realtime_has_conditional_send() is exists
