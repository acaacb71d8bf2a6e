"""agents-testing model boundary: ``ScriptedModel``, its steps, calls and errors, and cassettes.

Exposed to tests as ``agents.testing`` by the agents-testing import bridge.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agents_testing.core.lazy import lazy_exports

if TYPE_CHECKING:
    from agents_testing.core import CapturedTraces, capture_traces, to_snapshot

    from ._call import InputMessage, ModelCall
    from ._cassette import ModelCassette
    from ._cassette_outcome import ReplayedModelError
    from ._cassette_recorder import RecordingModel, RecordingModelProvider
    from ._cassette_replay import CassetteModel, CassetteModelProvider, ModelRequestMismatch
    from ._errors import (
        InvalidModelArgument,
        InvalidModelStep,
        ModelScriptError,
        UnconsumedModelSteps,
        UnexpectedModelCall,
    )
    from ._factory import ScriptedModelFactory
    from ._items import assistant_message, function_call
    from ._scripted_model import ScriptedModel
    from ._step import ModelStep, ModelStepSpec

__all__ = [
    "CapturedTraces",
    "CassetteModel",
    "CassetteModelProvider",
    "InputMessage",
    "InvalidModelArgument",
    "InvalidModelStep",
    "ModelCall",
    "ModelCassette",
    "ModelRequestMismatch",
    "ModelScriptError",
    "ModelStep",
    "ModelStepSpec",
    "RecordingModel",
    "RecordingModelProvider",
    "ReplayedModelError",
    "ScriptedModel",
    "ScriptedModelFactory",
    "UnconsumedModelSteps",
    "UnexpectedModelCall",
    "assistant_message",
    "capture_traces",
    "function_call",
    "to_snapshot",
]

# ``InvalidModelArgument`` is served here but joins ``__all__`` (and so ``agents.testing``)
# once the import bridge's symbol table lists it.

# Names are imported on first use, so that loading the package (as a pytest plugin, for
# one) does not import the SDK.
if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_exports(
        __name__,
        globals(),
        {
            "CapturedTraces": "agents_testing.core",
            "CassetteModel": "._cassette_replay",
            "CassetteModelProvider": "._cassette_replay",
            "InputMessage": "._call",
            "InvalidModelArgument": "._errors",
            "InvalidModelStep": "._errors",
            "ModelCall": "._call",
            "ModelCassette": "._cassette",
            "ModelRequestMismatch": "._cassette_replay",
            "ModelScriptError": "._errors",
            "ModelStep": "._step",
            "ModelStepSpec": "._step",
            "RecordingModel": "._cassette_recorder",
            "RecordingModelProvider": "._cassette_recorder",
            "ReplayedModelError": "._cassette_outcome",
            "ScriptedModel": "._scripted_model",
            "ScriptedModelFactory": "._factory",
            "UnconsumedModelSteps": "._errors",
            "UnexpectedModelCall": "._errors",
            "assistant_message": "._items",
            "capture_traces": "agents_testing.core",
            "function_call": "._items",
            "to_snapshot": "agents_testing.core",
        },
    )
