"""The compatibility module reads the installed SDK release."""

from __future__ import annotations

import os
from importlib.metadata import version

from agents_testing.core import compat


def test_sdk_version_matches_the_installed_distribution() -> None:
    installed = version("openai-agents")
    assert ".".join(map(str, compat.sdk_version())) == installed
    assert compat.sdk_at_least(*compat.MINIMUM_SDK)
    assert not compat.sdk_at_least(99)


def test_builtin_testing_follows_the_release() -> None:
    import agents

    shipped = any(os.path.isdir(os.path.join(path, "testing")) for path in agents.__path__)
    assert compat.has_builtin_testing() is shipped
