"""End to end against a real package index: released distributions are uploaded to a
local pypiserver with twine, then each boundary is installed from that index alone into
a clean virtual environment and run through the SDK's real runner, on the lowest and the
newest supported SDK, with the oldest core its declared range allows."""

from __future__ import annotations

import json
import re
import runpy
import subprocess
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

_SDKS = runpy.run_path(str(Path(__file__).resolve().parents[2] / "scripts" / "sdk_releases.py"))
LOWEST: str = _SDKS["LOWEST"]
NEWEST: str = _SDKS["NEWEST"]

pytestmark = pytest.mark.slow

ReleaseIn = Callable[..., subprocess.CompletedProcess[str]]
Git = Callable[..., str]


def _smoke(release_in: ReleaseIn, published: Any, package: str, *args: str) -> Any:
    done = release_in(published.repo, "smoke", package, "--index-url", published.index_url, *args)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _versions_on_index(index_url: str, name: str) -> set[str]:
    with urllib.request.urlopen(f"{index_url}{name}/", timeout=30) as page:
        files = re.findall(r">([^<]+)</a>", page.read().decode())
    stem = name.replace("-", "_")
    return {
        found.group(1)
        for file in files
        if (found := re.fullmatch(rf"{stem}-(.+?)(?:\.tar\.gz|-py3-none-any\.whl)", file))
    }


def test_index_holds_every_release_uploaded_with_twine(published: Any) -> None:
    assert _versions_on_index(published.index_url, "agents-testing-core") == {
        published.oldest_core,
        published.newest_core_in_range,
        published.core_beyond_range,
    }
    assert _versions_on_index(published.index_url, "agents-testing-model") == {
        published.model_version
    }
    for boundary in ("sandbox", "realtime", "voice", "mcp"):
        assert _versions_on_index(published.index_url, f"agents-testing-{boundary}") == {"0.1.0"}


def test_a_release_changes_only_its_own_package_and_is_tagged(published: Any, git: Git) -> None:
    tag = f"testing-model-v{published.model_version}"

    changed = git(published.repo, "diff", "--name-only", f"{tag}^", tag).split()
    tagged = git(published.repo, "show", f"{tag}:packages/testing-model/CHANGELOG.md")

    assert sorted(changed) == [
        "packages/testing-model/CHANGELOG.md",
        "packages/testing-model/pyproject.toml",
        "uv.lock",
    ]
    assert tagged.startswith(
        f"# Changelog\n\n## Unreleased\n\n## {published.model_version} (2026-01-15)\n\n- "
    )
    diff = git(published.repo, "diff", f"{tag}^", tag, "--", "uv.lock")
    assert [line for line in diff.splitlines() if line.startswith(("+ ", "- ", "+v", "-v"))] == [
        '-version = "0.1.0"',
        f'+version = "{published.model_version}"',
    ]


@pytest.mark.parametrize("sdk", [LOWEST, NEWEST])
@pytest.mark.parametrize("package", ["model", "sandbox", "realtime", "voice", "mcp"])
def test_boundary_installed_from_the_index_runs_with_the_oldest_core_its_range_allows(
    release_in: ReleaseIn, published: Any, package: str, sdk: str
) -> None:
    report = _smoke(release_in, published, package, "--sdk", sdk, "--core", "oldest")

    installed = report["installed"]
    assert installed["agents-testing-core"] == published.oldest_core
    assert installed["openai-agents"] == sdk
    assert installed[f"agents-testing-{package}"] == (
        published.model_version if package == "model" else "0.1.0"
    )
    assert report["smoke"].startswith(f"{package} smoke passed")
    assert "/site-packages/agents_testing/" in report["smoke"]


def test_resolver_picks_the_newest_core_inside_the_range_not_the_one_beyond(
    release_in: ReleaseIn, published: Any
) -> None:
    report = _smoke(release_in, published, "model", "--sdk", NEWEST)

    assert report["installed"]["agents-testing-core"] == published.newest_core_in_range
    assert report["smoke"].startswith("model smoke passed")


def test_a_core_outside_the_range_cannot_be_installed_with_the_boundary(
    release_in: ReleaseIn, published: Any
) -> None:
    done = release_in(
        published.repo, "smoke", "model", "--index-url", published.index_url,
        "--sdk", NEWEST, "--core", published.core_beyond_range, check=False,
    )  # fmt: skip

    assert done.returncode == 1
    assert f"agents-testing-core=={published.core_beyond_range}" in done.stderr
    assert "unsatisfiable" in done.stderr


def test_core_release_installs_on_its_own_from_the_index(
    release_in: ReleaseIn, published: Any
) -> None:
    report = _smoke(release_in, published, "core", "--sdk", NEWEST)

    assert report["installed"]["agents-testing-core"] == published.core_beyond_range
    assert report["smoke"].startswith("core smoke passed")
