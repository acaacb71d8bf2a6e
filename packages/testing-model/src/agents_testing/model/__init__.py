"""agents-testing model boundary: ``ScriptedModel`` and its steps, calls and errors.

Exposed to tests as ``agents.testing`` by the agents-testing import bridge.
"""

from __future__ import annotations

from ._call import ModelCall
from ._errors import (
    InvalidModelStep,
    ModelScriptError,
    UnconsumedModelSteps,
    UnexpectedModelCall,
)
from ._items import assistant_message, function_call
from ._scripted_model import ScriptedModel
from ._step import ModelStep, ModelStepSpec

__all__ = [
    "InvalidModelStep",
    "ModelCall",
    "ModelScriptError",
    "ModelStep",
    "ModelStepSpec",
    "ScriptedModel",
    "UnconsumedModelSteps",
    "UnexpectedModelCall",
    "assistant_message",
    "function_call",
]
