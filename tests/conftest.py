"""Suite-wide settings: hypothesis profiles and shared byte-code for subprocesses.

``ci`` (the default) keeps generated runs short enough for every commit;
``HYPOTHESIS_PROFILE=long`` runs a broad search locally.

Many tests start fresh interpreters (the bridge acts at start-up). With
``PYTHONDONTWRITEBYTECODE`` set, each would compile the SDK and the ``openai`` client
again, seconds apiece; instead every process of the run, the xdist workers and their
subprocesses, shares compiled byte-code in a cache directory outside the source tree.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings

_PYCACHE = Path(tempfile.gettempdir()) / f"agents-testing-pycache-{os.getuid()}"
if os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX"):
    os.environ.pop("PYTHONDONTWRITEBYTECODE")
    os.environ["PYTHONPYCACHEPREFIX"] = str(_PYCACHE)
    sys.dont_write_bytecode = False
    sys.pycache_prefix = str(_PYCACHE)

settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
settings.register_profile(
    "long",
    max_examples=3000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
