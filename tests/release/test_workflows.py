"""The publish and compatibility workflows cannot run here; these tests keep them tied to
what does run: the release script's own subcommands and the supported SDK list."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"
SUPPORTED: dict[str, str] = runpy.run_path(str(ROOT / "scripts" / "sdk_releases.py"))["SUPPORTED"]


def _release_subcommands(text: str) -> list[str]:
    """The release script's subcommands the workflow's steps run, in order."""
    steps = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    return re.findall(r"scripts/release\.py (\w[\w-]*)", steps)


def test_publish_workflow_steps_are_release_script_subcommands() -> None:
    publish = (WORKFLOWS / "publish.yml").read_text()
    script = (ROOT / "scripts" / "release.py").read_text()
    known = set(re.findall(r'commands\.add_parser\(\s*"([\w-]+)"', script))

    used = _release_subcommands(publish)

    # In order: which package the tag names, then what the release tests run.
    assert used == ["tag", "build", "check", "serve", "upload", "smoke"]
    assert set(used) <= known
    assert "--core oldest" in publish
    assert "for sdk in lowest newest" in publish


def test_publish_workflow_triggers_on_every_package_tag_and_uses_trusted_publishing() -> None:
    publish = (WORKFLOWS / "publish.yml").read_text()

    tags = re.findall(r'- "(testing-[a-z]+-v\*)"', publish)

    packages = ("core", "model", "sandbox", "realtime", "voice", "mcp")
    assert tags == [f"testing-{p}-v*" for p in packages]
    assert publish.count("id-token: write") == 1
    assert "pypa/gh-action-pypi-publish@" in publish
    # No stored credentials: the upload authenticates through OIDC alone.
    assert "secrets." not in publish
    assert "password:" not in publish
    assert "needs: compat" in publish


def test_compatibility_workflow_covers_every_supported_sdk_minor() -> None:
    compat = (WORKFLOWS / "compat.yml").read_text()

    (matrix,) = re.findall(r"minor: \[([^\]]*)\]", compat)

    assert [m.strip().strip('"') for m in matrix.split(",")] == list(SUPPORTED)
    assert 'scripts/compat_matrix.py --minors "$MINOR"' in compat
    assert next(iter(SUPPORTED)) == "0.14"
    assert all(release.startswith(f"{minor}.") for minor, release in SUPPORTED.items())
