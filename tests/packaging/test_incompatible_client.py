"""openai-agents 0.14 to 0.17 with an openai client from 2.45 on: no run can work there
(openai made a usage field required that those releases do not fill in). Importing our
packages still works, and the first double made says what to pin, in our own error."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

from .conftest import call, run_python, uv

pytestmark = pytest.mark.slow

LOWEST = runpy.run_path(str(Path(__file__).resolve().parents[2] / "scripts" / "sdk_releases.py"))[
    "LOWEST"
]

CHECK = """
import json
from agents.testing import ScriptedModel, assistant_message
imported = True
try:
    ScriptedModel([[assistant_message("Paris.")]])
except Exception as error:
    print(json.dumps({"imported": imported, "error": type(error).__name__, "message": str(error),
                      "cause": type(error.__cause__).__name__}))
else:
    print(json.dumps({"imported": imported, "error": None}))
"""


def test_the_first_double_says_to_pin_the_client(tmp_path: Path, wheels: dict[str, Path]) -> None:
    venv = tmp_path / "venv"
    call(uv(), "venv", "-q", "--python", sys.executable, venv)
    python = venv / "bin" / "python"
    call(
        uv(), "pip", "install", "-q", "--python", python,
        f"openai-agents=={LOWEST}", "openai>=2.45,<3", wheels["core"], wheels["model"],
    )  # fmt: skip

    outcome = run_python(python, CHECK)

    assert outcome["imported"] is True
    assert outcome["error"] == "IncompatibleOpenAIClient"
    assert outcome["cause"] == "ValidationError"
    assert 'Pin openai<2.45 (pip install "openai<2.45")' in outcome["message"]
    assert f"openai-agents {LOWEST}" in outcome["message"]
