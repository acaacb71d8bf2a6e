"""Suite-wide settings: hypothesis profiles and shared byte-code for subprocesses.

``ci`` (the default) keeps each property test to a small example budget, so the everyday
suite stays within its minute; ``HYPOTHESIS_PROFILE=thorough`` runs a broad search (for a
nightly or manual run: ``HYPOTHESIS_PROFILE=thorough uv run pytest -k propert``).

Many tests start fresh interpreters (the bridge acts at start-up). With
``PYTHONDONTWRITEBYTECODE`` set, each would compile the SDK and the ``openai`` client
again, seconds apiece; instead every process of the run, the xdist workers and their
subprocesses, writes and reads byte-code where Python keeps it by default, beside the
sources (``__pycache__``, ignored by git). There the byte-code an installer compiled
(``uv sync --compile-bytecode``) is used as it is; a ``PYTHONPYCACHEPREFIX`` would make
every new environment compile the SDK again on its first run.
"""

from __future__ import annotations

import os
import sys

from hypothesis import HealthCheck, settings

if os.environ.pop("PYTHONDONTWRITEBYTECODE", None):
    sys.dont_write_bytecode = False

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
