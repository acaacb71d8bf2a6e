"""The test examples of the READMEs (the root one, core's plugin section, the MCP package's)
run and pass as a user's test files, with the request guard on.

One fresh pytest process runs them all: each in-process run after another in the same
worker can see the SDK's modules imported twice, which no user setup does, and each fresh
process imports the whole SDK.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
READMES = {
    "root": ROOT / "README.md",
    "core": ROOT / "packages" / "testing-core" / "README.md",
    "mcp": ROOT / "packages" / "testing-mcp" / "README.md",
}
INI = "[pytest]\nasyncio_mode = strict\nasyncio_default_fixture_loop_scope = function\n"


def examples(readme: Path) -> list[str]:
    """The whole test modules of a README (they start with their imports).

    The cassette example needs a recording made against the real provider: the cassette
    tests (tests/model/cassette) run that workflow end to end.
    """
    blocks = re.findall(r"```python\n(.*?)```", readme.read_text(encoding="utf-8"), re.S)
    return [
        block for block in blocks if block.startswith("import") and "model_cassette" not in block
    ]


def test_every_fixture_has_a_readme_example() -> None:
    text = "\n".join(examples(READMES["core"]))
    for fixture in (
        "scripted_model",
        "scripted_model_provider",
        "scripted_sandbox",
        "scripted_realtime_model",
        "scripted_stt",
        "scripted_tts",
        "scripted_voice_workflow",
        "scripted_mcp_server",
    ):
        assert f"{fixture}(" in text, fixture


def test_the_readme_examples_pass(pytester: pytest.Pytester) -> None:
    files = {
        f"test_{name}_readme_{index}": source
        for name, readme in READMES.items()
        for index, source in enumerate(examples(readme))
    }
    assert [name for name in files if name.startswith("test_root_")] == [
        "test_root_readme_0",  # the first test
        "test_root_readme_1",  # the fixture example
    ]
    assert "test_mcp_readme_0" in files
    pytester.makeini(INI)
    pytester.makepyfile(**files)

    result = pytester.runpytest_subprocess(
        "--agents-block-model-requests", "--strict-markers", "-v"
    )

    result.assert_outcomes(passed=len(files))
    for name in files:
        result.stdout.fnmatch_lines([f"{name}.py::* PASSED*"])
