"""Smoke test of an installed agents-testing-core on its own: its import bridge is
registered at start-up and its shared primitives work."""

from __future__ import annotations

import sys

import agents_testing.core
from agents_testing.core import StepScript, safe_repr

assert any(type(f).__name__ == "BridgeFinder" for f in sys.meta_path), sys.meta_path
assert safe_repr("x") == "'x'"
assert len(StepScript(["first", "second"])) == 2

print(f"core smoke passed from {agents_testing.core.__file__}")
