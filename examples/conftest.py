"""pytest settings for running the example suite on its own (`uv run pytest examples`)."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """One process for the example suite alone; xdist's own choice for anything larger.

    The repository runs its tests with ``-n auto``. The example suite takes a few seconds
    in one process, less than starting workers that each import the SDK and collect it
    again; the whole suite (``uv run pytest``) still runs in parallel.
    """
    args = [Path(str(arg).split("::")[0]).resolve() for arg in config.args]
    if args and all(arg == HERE or HERE in arg.parents for arg in args):
        return 0
    return None
