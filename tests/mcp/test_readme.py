"""The MCP package README's test example runs and passes, with the request guard on."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "packages" / "testing-mcp" / "README.md"


def test_the_readme_example_passes(pytester: pytest.Pytester) -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    examples = [block for block in blocks if block.startswith("import")]
    assert len(examples) == 1
    pytester.makeini(
        "[pytest]\nasyncio_mode = strict\nasyncio_default_fixture_loop_scope = function\n"
    )
    pytester.makepyfile(test_readme=examples[0])

    result = pytester.runpytest_subprocess("--agents-block-model-requests", "--strict-markers")

    result.assert_outcomes(passed=1)
