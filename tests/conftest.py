"""Suite-wide settings: hypothesis profiles and shared byte-code for subprocesses.

``ci`` (the default) keeps each property test to a small example budget, so the everyday
suite stays within its minute; ``HYPOTHESIS_PROFILE=thorough`` runs a broad search (for a
nightly or manual run: ``HYPOTHESIS_PROFILE=thorough uv run pytest -k propert``).

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
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
for name in ("thorough", "long"):  # "long" is the profile's earlier name
    settings.register_profile(
        name,
        max_examples=3000,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
