"""Type checkers see this project's types behind the bridged names.

The bridge works at run time; for mypy and pyright, agents-testing-core ships a partial
stub package (``agents-stubs``, PEP 561) that covers only the bridged modules, so
``from agents.testing import ScriptedModel`` is typed as ours on every SDK release —
instead of the SDK's own module (0.21+) or nothing at all (before 0.21).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

USES = """
from agents import Agent
from agents.mcp.testing import ScriptedMCPServer, text_result
from agents.realtime.testing import ScriptedRealtimeModel
from agents.testing import ScriptedModel, assistant_message, scripted_sandbox_session
from agents.testing.model import ModelCall
from agents.voice.testing import ScriptedSTTModel, pcm16_samples

model = ScriptedModel([[assistant_message("Hello.")]])
agent = Agent(name="Assistant", model=model)
reveal_type(model)
reveal_type(model.remaining_steps)
reveal_type(model.last_call)
reveal_type(scripted_sandbox_session())
reveal_type(ScriptedRealtimeModel().pending_steps)
reveal_type(ScriptedSTTModel().created_sessions)
reveal_type(pcm16_samples([0, 1]))
reveal_type(ScriptedMCPServer([{"tool": "t", "result": text_result("x")}]).calls)
Agent(name="Tools", mcp_servers=[ScriptedMCPServer()])
call: ModelCall | None = model.first_call
"""


# The openai client's own types are many and none of them is a bridged name: mypy skips
# them (halving the run), and checks the SDK's and ours in full.
CONFIG = "[mypy]\n[mypy-openai.*]\nfollow_imports = skip\n"


# A mypy run over the SDK's types.
@pytest.mark.slow
def test_mypy_resolves_bridged_names_to_this_project(tmp_path: Path) -> None:
    source = tmp_path / "uses.py"
    source.write_text(USES)
    (tmp_path / "mypy.ini").write_text(CONFIG)

    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--config-file",
            "mypy.ini",
            "--cache-dir",
            str(tmp_path / "cache"),
            "uses.py",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )

    revealed = re.findall(r'Revealed type is "(.*)"', done.stdout)
    assert revealed[:3] == [
        "agents_testing.model._scripted_model.ScriptedModel",
        "int",
        "agents_testing.model._call.ModelCall | None",
    ], done.stdout
    assert revealed[3] == "agents_testing.sandbox._session.ScriptedSandboxSession"
    assert revealed[4] == "tuple[agents_testing.realtime._step.RealtimeStep, ...]"
    assert revealed[5] == "tuple[agents_testing.voice._session.ScriptedTranscriptionSession, ...]"
    assert revealed[6] == "bytes"
    assert revealed[7] == "tuple[agents_testing.mcp._call.MCPCall, ...]"
    assert "error" not in done.stdout, done.stdout
    assert done.returncode == 0, done.stdout
