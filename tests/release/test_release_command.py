"""The release command's checks and its dry run, on a throw-away clone: what it refuses,
which version it computes, and that a dry run changes nothing."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import Version

Release = Callable[..., subprocess.CompletedProcess[str]]
Git = Callable[..., str]
ReleaseIn = Callable[..., subprocess.CompletedProcess[str]]

PACKAGES = ("core", "model", "sandbox", "realtime", "voice", "mcp")


def _state(git: Git, repo: Path) -> dict[str, str]:
    """Everything a release could change: commits, tags, status and tracked files."""
    files = git(repo, "ls-files", "-z").split("\0")
    digest = hashlib.sha256()
    for name in sorted(f for f in files if f):
        digest.update(name.encode() + b"\0" + (repo / name).read_bytes())
    return {
        "head": git(repo, "rev-parse", "HEAD"),
        "tags": git(repo, "tag", "--list"),
        "status": git(repo, "status", "--porcelain", "--ignored"),
        "files": digest.hexdigest(),
    }


def _assert_refused(
    done: subprocess.CompletedProcess[str],
    git: Git,
    repo: Path,
    before: dict[str, str],
    *fragments: str,
) -> None:
    """The command failed with a message naming every fragment, and changed nothing."""
    assert done.returncode == 1
    for fragment in fragments:
        assert fragment in done.stderr
    assert "Traceback" not in done.stderr
    assert _state(git, repo) == before


def _set_version(git: Git, repo: Path, package: str, version: str) -> None:
    """Commit ``package`` at ``version``, in its pyproject.toml and in the lock."""
    path = repo / "packages" / f"testing-{package}" / "pyproject.toml"
    lines = path.read_text().splitlines(keepends=True)
    lines = [
        f'version = "{version}"\n' if line.startswith("version = ") else line for line in lines
    ]
    path.write_text("".join(lines))
    lock = repo / "uv.lock"
    member = rf'(\[\[package\]\]\nname = "agents-testing-{package}"\nversion = )"[^"]*"'
    lock.write_text(re.sub(member, rf'\g<1>"{version}"', lock.read_text(), count=1))
    git(repo, "commit", "-q", "-am", f"{package} {version}")


def _unreleased(repo: Path, package: str) -> str:
    text = (repo / "packages" / f"testing-{package}" / "CHANGELOG.md").read_text()
    return text.split("## Unreleased", 1)[1].split("\n## ", 1)[0].strip()


def test_dry_run_prints_version_changelog_section_and_tag_and_changes_nothing(
    release_in: ReleaseIn, shared_repo: Path, git: Git
) -> None:
    repo = shared_repo
    before = _state(git, repo)
    notes = _unreleased(repo, "model")

    done = release_in(repo, "release", "model", "minor", "--dry-run", "--date", "2026-01-15")

    assert "agents-testing-model 0.1.0 -> 0.2.0" in done.stdout
    assert "tag: testing-model-v0.2.0" in done.stdout
    assert f"## 0.2.0 (2026-01-15)\n\n{notes}\n" in done.stdout
    assert "nothing changed" in done.stdout
    assert _state(git, repo) == before
    assert not (repo / "dist").exists()


PRE_RELEASES = {
    "realtime": "0.2.0rc1",
    "sandbox": "0.2.1rc1",
    "voice": "1.0.0b2",
    "model": "0.2.0a1",
}


@pytest.fixture(scope="module")
def prerelease_repo(
    tmp_path_factory: pytest.TempPathFactory, clone_repo: Callable[[Path], Path], git: Git
) -> Path:
    """A clone whose boundaries stand at pre-release versions."""
    repo = clone_repo(tmp_path_factory.mktemp("pre") / "repo")
    for package, version in PRE_RELEASES.items():
        _set_version(git, repo, package, version)
    return repo


@pytest.mark.parametrize(
    ("package", "request_", "expected"),
    [
        ("core", "patch", "0.1.1"),
        ("core", "minor", "0.2.0"),
        ("core", "major", "1.0.0"),
        ("core", "0.2.0-rc.1", "0.2.0rc1"),
        ("core", "0.2.0-beta.2", "0.2.0b2"),
        ("core", "0.2.0a1", "0.2.0a1"),
        ("core", "1.0.0", "1.0.0"),
        ("realtime", "patch", "0.2.0"),
        ("realtime", "minor", "0.2.0"),
        ("sandbox", "minor", "0.3.0"),
        ("voice", "major", "1.0.0"),
        ("model", "0.2.0rc1", "0.2.0rc1"),
    ],
)
def test_release_computes_semver_versions_with_pre_releases(
    release_in: ReleaseIn, prerelease_repo: Path, package: str, request_: str, expected: str
) -> None:
    current = PRE_RELEASES.get(package, "0.1.0")

    done = release_in(prerelease_repo, "release", package, request_, "--dry-run")

    assert f"agents-testing-{package} {current} -> {expected}" in done.stdout
    assert f"tag: testing-{package}-v{expected}" in done.stdout


@pytest.mark.parametrize(
    ("request_", "problem"),
    [
        ("0.0.9", "is not newer than the current version 0.1.0"),
        ("0.2", "is not a release version"),
        ("0.2.0.dev1", "is not a release version"),
        ("0.2.0+local", "is not a release version"),
        ("next", "is not a release version"),
    ],
)
def test_release_refuses_a_version_that_is_not_a_newer_release(
    release_in: ReleaseIn, shared_repo: Path, git: Git, request_: str, problem: str
) -> None:
    repo = shared_repo
    before = _state(git, repo)

    done = release_in(repo, "release", "model", request_, "--dry-run", check=False)

    _assert_refused(done, git, repo, before, problem)


def test_release_refuses_a_tree_with_uncommitted_changes(
    repo: Path, release: Release, git: Git
) -> None:
    readme = repo / "packages" / "testing-model" / "README.md"
    readme.write_text(readme.read_text() + "\nLocal edit.\n")

    done = release("release", "model", "patch", check=False)

    assert done.returncode == 1
    assert "uncommitted changes" in done.stderr
    assert "packages/testing-model/README.md" in done.stderr
    assert git(repo, "tag", "--list") == ""
    assert 'version = "0.1.0"' in (repo / "packages/testing-model/pyproject.toml").read_text()


def test_release_refuses_an_empty_unreleased_section(
    repo: Path, release: Release, git: Git
) -> None:
    changelog = repo / "packages" / "testing-voice" / "CHANGELOG.md"
    changelog.write_text("# Changelog\n\n## Unreleased\n\n## 0.1.0 (2026-01-01)\n\n- Notes.\n")
    git(repo, "commit", "-q", "-am", "voice: nothing unreleased")
    before = _state(git, repo)

    done = release("release", "voice", "patch", check=False)

    assert done.returncode == 1
    assert "'Unreleased' section is empty" in done.stderr
    assert _state(git, repo) == before


def test_release_refuses_an_existing_tag(repo: Path, release: Release, git: Git) -> None:
    git(repo, "tag", "testing-sandbox-v0.1.1")

    done = release("release", "sandbox", "patch", "--dry-run", check=False)

    assert done.returncode == 1
    assert "tag testing-sandbox-v0.1.1 already exists" in done.stderr


def test_release_refuses_a_boundary_whose_core_range_excludes_the_workspace_core(
    repo: Path, release: Release, git: Git
) -> None:
    _set_version(git, repo, "core", "0.2.0")

    done = release("release", "model", "patch", "--dry-run", check=False)

    assert done.returncode == 1
    assert "excludes the workspace's core 0.2.0" in done.stderr


@pytest.mark.parametrize("package", PACKAGES[1:])
def test_each_boundary_declares_a_core_range_up_to_the_next_breaking_core(
    release_in: ReleaseIn, shared_repo: Path, package: str
) -> None:
    repo = shared_repo
    declared = json.loads(release_in(repo, "core-range", package).stdout)
    pyproject = (repo / "packages" / "testing-core" / "pyproject.toml").read_text()
    workspace_core = Version(pyproject.split('version = "', 1)[1].split('"', 1)[0])

    oldest = Version(declared["oldest"])
    (upper,) = (s for s in SpecifierSet(declared["range"]) if s.operator == "<")
    major, minor = oldest.release[:2]
    # 0.x: the minor number is the breaking one; from 1.0 on, the major.
    assert Version(upper.version) == (
        Version(f"0.{minor + 1}") if major == 0 else Version(f"{major + 1}")
    )
    assert declared["range"] == f">={oldest},<{upper.version}"
    assert workspace_core in SpecifierSet(declared["range"])


def test_tag_names_its_package_and_must_match_its_version(
    repo: Path, release: Release, git: Git
) -> None:
    assert release("tag", "testing-model-v0.1.0").stdout.strip() == "model"

    wrong = release("tag", "testing-model-v0.3.0", check=False)
    malformed = release("tag", "model-0.1.0", check=False)

    assert wrong.returncode == 1
    assert "names 0.3.0, but agents-testing-model is at 0.1.0" in wrong.stderr
    assert malformed.returncode == 1
    assert "is not a release tag" in malformed.stderr


def test_the_current_version_is_released_as_is_until_it_has_a_tag(
    release_in: ReleaseIn, repo: Path, git: Git
) -> None:
    first = release_in(repo, "release", "model", "0.1.0", "--dry-run")
    git(repo, "tag", "testing-model-v0.1.0")
    again = release_in(repo, "release", "model", "0.1.0", "--dry-run", check=False)

    assert "agents-testing-model 0.1.0 -> 0.1.0" in first.stdout
    assert "tag: testing-model-v0.1.0" in first.stdout
    assert again.returncode == 1
    assert "0.1.0 is not newer than the current version 0.1.0" in again.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    ("package", "current", "request_", "expected"),
    [
        # uv's own minor bump would take 0.2.0rc1 to 0.3.0: releasing it is its stable bump.
        ("realtime", "0.2.0rc1", "minor", "0.2.0"),
        ("sandbox", "0.2.1rc1", "minor", "0.3.0"),
    ],
)
def test_a_release_sets_the_version_with_uv_and_locks_it(
    repo: Path,
    release: Release,
    git: Git,
    package: str,
    current: str,
    request_: str,
    expected: str,
) -> None:
    _set_version(git, repo, package, current)

    release("release", package, request_, "--date", "2026-01-15")

    pyproject = (repo / "packages" / f"testing-{package}" / "pyproject.toml").read_text()
    assert f'\nversion = "{expected}"\n' in pyproject
    lock = (repo / "uv.lock").read_text()
    assert f'name = "agents-testing-{package}"\nversion = "{expected}"\n' in lock
    assert git(repo, "tag", "--list", f"testing-{package}-v{expected}").strip()
    assert git(repo, "status", "--porcelain") == ""


def test_a_dry_run_refuses_a_lock_that_does_not_record_the_package(
    repo: Path, release: Release, git: Git
) -> None:
    lock = repo / "uv.lock"
    lock.write_text(
        lock.read_text().replace('name = "agents-testing-voice"\n', 'name = "someone-else"\n', 1)
    )
    git(repo, "commit", "-q", "-am", "a lock without the voice package")
    before = _state(git, repo)

    done = release("release", "voice", "patch", "--dry-run", check=False)

    _assert_refused(
        done,
        git,
        repo,
        before,
        "uv.lock does not match the workspace's pyproject.toml files",
        "run `uv lock` and commit the lock",
    )


def test_a_release_refuses_a_lock_left_behind_by_a_dependency_change(
    repo: Path, release: Release, git: Git
) -> None:
    pyproject = repo / "packages" / "testing-voice" / "pyproject.toml"
    text = pyproject.read_text()
    pyproject.write_text(text.replace('"numpy', '"packaging>=20",\n    "numpy', 1))
    git(repo, "commit", "-q", "-am", "voice needs packaging, lock not updated")
    before = _state(git, repo)

    done = release("release", "voice", "patch", "--date", "2026-01-15", check=False)

    _assert_refused(
        done,
        git,
        repo,
        before,
        "uv.lock does not match the workspace's pyproject.toml files",
    )
