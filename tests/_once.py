"""A result computed once per test run, shared by every xdist worker of that run.

Some checks start a fresh interpreter (the import bridge acts at start-up) and several
tests assert on what it reports. Each fresh interpreter imports the whole SDK, seconds
apiece, so the first worker that needs the report makes it, under a lock in the run's
shared temporary directory, and the others read it.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Callable
from typing import Any

import pytest


def computed_once(
    tmp_path_factory: pytest.TempPathFactory, name: str, compute: Callable[[], Any]
) -> Any:
    """``compute()`` (JSON data), made once per test run and read by every worker after."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the directory every worker of this run shares
    stored = base / f"{name}.json"
    with open(base / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if stored.exists():
                return json.loads(stored.read_text(encoding="utf-8"))
            result = compute()
            stored.write_text(json.dumps(result), encoding="utf-8")
            return result
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
