"""agents-testing sandbox boundary: a scripted ``SandboxSession`` for ``SandboxAgent`` tests.

``scripted_sandbox_session()`` returns a real SDK sandbox session whose method results
come from scripted steps, so the real ``SandboxAgent`` runtime runs without any
container, local process or remote provider.
"""

from __future__ import annotations

from ._call import SandboxCall
from ._errors import (
    InvalidSandboxStep,
    SandboxCallMatcherError,
    SandboxScriptError,
    UnconsumedSandboxSteps,
    UnexpectedSandboxCall,
)
from ._session import ScriptedSandboxSession, scripted_sandbox_session
from ._steps import SandboxStepSpec

__all__ = [
    "InvalidSandboxStep",
    "SandboxCall",
    "SandboxCallMatcherError",
    "SandboxScriptError",
    "SandboxStepSpec",
    "ScriptedSandboxSession",
    "UnconsumedSandboxSteps",
    "UnexpectedSandboxCall",
    "scripted_sandbox_session",
]
