"""Types of the fixtures the travel desk tests take, for annotating test parameters."""

from __future__ import annotations

from collections.abc import Callable

from agents.realtime.testing import ScriptedRealtimeModel
from agents.testing import ScriptedModel, ScriptedSandboxSession
from agents.voice.testing import ScriptedSTTModel, ScriptedTTSModel, ScriptedVoiceWorkflow
from travel_desk import TravelDesk

# The plugin fixtures take the arguments of the class they wrap and return the double.
ScriptModel = Callable[..., ScriptedModel]
ScriptSandbox = Callable[..., ScriptedSandboxSession]
ScriptRealtime = Callable[..., ScriptedRealtimeModel]
ScriptSTT = Callable[..., ScriptedSTTModel]
ScriptTTS = Callable[..., ScriptedTTSModel]
ScriptWorkflow = Callable[..., ScriptedVoiceWorkflow]

# conftest.open_desk: a desk conversation on the given model, closed after the test.
OpenDesk = Callable[..., TravelDesk]
