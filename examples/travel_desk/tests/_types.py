"""Types of the fixtures the travel desk tests take, for annotating test parameters."""

from __future__ import annotations

from collections.abc import Callable

from agents.mcp.testing import ScriptedMCPServerFactory
from agents.realtime.testing import ScriptedRealtimeModelFactory
from agents.testing import ScriptedModelFactory, ScriptedSandboxFactory
from agents.voice.testing import (
    ScriptedSTTModelFactory,
    ScriptedTTSModelFactory,
    ScriptedVoiceWorkflowFactory,
)
from travel_desk import TravelDesk

# The plugin fixtures take the arguments of the double they make (the packages export
# their types); short names for the test signatures.
ScriptModel = ScriptedModelFactory
ScriptSandbox = ScriptedSandboxFactory
ScriptRealtime = ScriptedRealtimeModelFactory
ScriptSTT = ScriptedSTTModelFactory
ScriptTTS = ScriptedTTSModelFactory
ScriptWorkflow = ScriptedVoiceWorkflowFactory
ScriptMCP = ScriptedMCPServerFactory

# conftest.open_desk: a desk conversation on the given model, closed after the test.
OpenDesk = Callable[..., TravelDesk]
