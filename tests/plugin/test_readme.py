"""The READMEs' test examples (core plugin section and the root README) run and pass."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "packages" / "testing-core" / "README.md"


def _examples(readme: Path = README) -> list[str]:
    blocks = re.findall(r"```python\n(.*?)```", readme.read_text(encoding="utf-8"), re.S)
    # Whole test modules start with their imports; the rest are marker snippets. The
    # cassette example needs a recording made against the real provider: the cassette
    # tests (tests/model/cassette) run that workflow end to end.
    return [
        block for block in blocks if block.startswith("import") and "model_cassette" not in block
    ]


def test_every_fixture_has_a_readme_example() -> None:
    text = "\n".join(_examples())
    for fixture in (
        "scripted_model",
        "scripted_model_provider",
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


def test_the_root_readme_examples_pass(project: pytest.Pytester) -> None:
    examples = _examples(ROOT / "README.md")
    assert len(examples) == 2  # the first test, and the fixture example
    project.makepyfile(**{f"test_root_{index}": source for index, source in enumerate(examples)})

    # In a fresh process: an in-process run after another one in the same worker can see
    # the SDK's modules imported twice, which no user setup does.
    result = project.runpytest_subprocess("--agents-block-model-requests", "--strict-markers")

    result.assert_outcomes(passed=len(examples))
