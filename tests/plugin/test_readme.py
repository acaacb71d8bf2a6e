"""The plugin section of the core README: every complete example runs and passes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "packages" / "testing-core" / "README.md"


def _examples() -> list[str]:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    # Whole test modules start with their imports; the rest are marker snippets.
    return [block for block in blocks if block.startswith("import")]


def test_every_fixture_has_a_readme_example() -> None:
    text = "\n".join(_examples())
    for fixture in (
        "scripted_model",
        "scripted_sandbox",
        "scripted_realtime_model",
        "scripted_stt",
        "scripted_tts",
        "scripted_voice_workflow",
    ):
        assert f"{fixture}(" in text, fixture


def test_the_readme_examples_pass(project: pytest.Pytester) -> None:
    examples = _examples()
    project.makepyfile(**{f"test_readme_{index}": source for index, source in enumerate(examples)})

    result = project.runpytest("--agents-block-model-requests", "--strict-markers")

    result.assert_outcomes(passed=len(examples))
