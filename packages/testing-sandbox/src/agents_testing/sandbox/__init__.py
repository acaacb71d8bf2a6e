"""agents-testing sandbox boundary: a scripted ``SandboxSession`` for ``SandboxAgent`` tests.

``scripted_sandbox_session()`` returns a real SDK sandbox session whose method results
come from scripted steps, so the real ``SandboxAgent`` runtime runs without any
container, local process or remote provider.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agents_testing.core.lazy import serve_lazily

if TYPE_CHECKING:
    from agents_testing.core import any_order, to_snapshot

    from ._call import SandboxCall
    from ._cassette.cassette import ReplayedSandboxError, SandboxCallMismatch, SandboxCassette
    from ._cassette.fixture import SandboxCassetteFixture
    from ._errors import (
        InvalidSandboxArgument,
        InvalidSandboxStep,
        SandboxCallMatcherError,
        SandboxMethodUnavailable,
        SandboxScriptError,
        UnconsumedSandboxSteps,
        UnexpectedSandboxCall,
    )
    from ._factory import ScriptedSandboxFactory
    from ._session import ScriptedSandboxSession, scripted_sandbox_session
    from ._steps import SandboxStepSpec

__all__ = [
    "InvalidSandboxArgument",
    "InvalidSandboxStep",
    "ReplayedSandboxError",
    "SandboxCall",
    "SandboxCallMatcherError",
    "SandboxCallMismatch",
    "SandboxCassette",
    "SandboxCassetteFixture",
    "SandboxMethodUnavailable",
    "SandboxScriptError",
    "SandboxStepSpec",
    "ScriptedSandboxFactory",
    "ScriptedSandboxSession",
    "UnconsumedSandboxSteps",
    "UnexpectedSandboxCall",
    "any_order",
    "scripted_sandbox_session",
    "to_snapshot",
]

# Names are imported on first use, so that loading the package (as a pytest plugin, for
# one) does not import the SDK.
serve_lazily(
    __name__,
    {
        "InvalidSandboxArgument": "._errors",
        "InvalidSandboxStep": "._errors",
        "ReplayedSandboxError": "._cassette.cassette",
        "SandboxCall": "._call",
        "SandboxCallMatcherError": "._errors",
        "SandboxCallMismatch": "._cassette.cassette",
        "SandboxCassette": "._cassette.cassette",
        "SandboxCassetteFixture": "._cassette.fixture",
        "SandboxMethodUnavailable": "._errors",
        "SandboxScriptError": "._errors",
        "SandboxStepSpec": "._steps",
        "ScriptedSandboxFactory": "._factory",
        "ScriptedSandboxSession": "._session",
        "UnconsumedSandboxSteps": "._errors",
        "UnexpectedSandboxCall": "._errors",
        "any_order": "agents_testing.core",
        "scripted_sandbox_session": "._session",
        "to_snapshot": "agents_testing.core",
    },
)
