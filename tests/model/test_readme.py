"""The model package README's test modules run and pass, as a user would copy them."""

from __future__ import annotations

import asyncio
import inspect
import re
from pathlib import Path
from typing import Any

import pytest

README = Path(__file__).resolve().parents[2] / "packages" / "testing-model" / "README.md"


def _modules() -> list[str]:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    # Whole test modules start with their imports; the rest are snippets of one.
    return [block for block in blocks if block.startswith("import")]


def test_the_readme_has_a_runnable_example_per_addition() -> None:
    text = "\n".join(_modules())
    for name in (
        "SmokeModel(",
        "smoke_arguments(",
        "run_with_approvals(",
        "assert_usage(",
        "rate_limit(",
        "FaultSchedule(",
    ):
        assert name in text, name


@pytest.mark.parametrize("index", range(len(_modules())))
def test_a_readme_test_module_passes(index: int) -> None:
    namespace: dict[str, Any] = {"__name__": f"readme_example_{index}"}
    exec(compile(_modules()[index], f"README.md example {index + 1}", "exec"), namespace)
    tests = [value for name, value in namespace.items() if name.startswith("test_")]

    assert tests
    for test in tests:
        if inspect.iscoroutinefunction(test):
            asyncio.run(test())
        else:
            test()
