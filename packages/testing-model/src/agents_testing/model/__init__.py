"""agents-testing model boundary: ``ScriptedModel`` and its steps, calls and errors.

Exposed to tests as ``agents.testing`` by the agents-testing import bridge.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agents_testing.core.lazy import lazy_exports

if TYPE_CHECKING:
    from ._call import InputMessage, ModelCall
    from ._errors import (
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
    "InputMessage",
    "InvalidModelStep",
    "ModelCall",
    "ModelScriptError",
    "ModelStep",
    "ModelStepSpec",
    "ScriptedModel",
    "ScriptedModelFactory",
    "UnconsumedModelSteps",
    "UnexpectedModelCall",
    "assistant_message",
    "function_call",
]

# Names are imported on first use, so that loading the package (as a pytest plugin, for
# one) does not import the SDK.
if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_exports(
        __name__,
        globals(),
        {
            "InputMessage": "._call",
            "InvalidModelStep": "._errors",
            "ModelCall": "._call",
            "ModelScriptError": "._errors",
            "ModelStep": "._step",
            "ModelStepSpec": "._step",
            "ScriptedModel": "._scripted_model",
            "ScriptedModelFactory": "._factory",
            "UnconsumedModelSteps": "._errors",
            "UnexpectedModelCall": "._errors",
            "assistant_message": "._items",
            "function_call": "._items",
        },
    )
