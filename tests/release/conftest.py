"""A throw-away clone of the repository for the release tests: the release command
commits and tags, so it never runs on the working copy itself."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"git {' '.join(args)}\n{done.stdout}{done.stderr}"
    return done.stdout


def clone_repository(dest: Path) -> Path:
    """Clone the repository, then carry over what is not committed yet, so the tests
    exercise the files on disk."""
    git(ROOT, "clone", "-q", str(ROOT), str(dest))
    changed = git(ROOT, "ls-files", "-z", "--modified", "--others", "--exclude-standard")
    deleted = set(git(ROOT, "ls-files", "-z", "--deleted").split("\0")) - {""}
    for name in set(changed.split("\0")) - {""}:
        target = dest / name
        if name in deleted:
            target.unlink(missing_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    git(dest, "config", "user.name", "Release Test")
    git(dest, "config", "user.email", "release-test@example.invalid")
    git(dest, "config", "commit.gpgsign", "false")
    git(dest, "config", "tag.gpgsign", "false")
    if git(dest, "status", "--porcelain"):
        git(dest, "add", "-A")
        git(dest, "commit", "-q", "-m", "Changes not committed in the working copy")
    return dest


def release_command(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run the clone's own release script, as a maintainer would."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV",)}
    # No byte-code beside the clone's scripts: the tests compare everything in it,
    # ignored files included, before and after a refused release.
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    done = subprocess.run(
        [sys.executable, str(repo / "scripts" / "release.py"), *args],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if check:
        assert done.returncode == 0, f"release.py {' '.join(args)}\n{done.stdout}{done.stderr}"
    return done


Git = Callable[..., str]
ReleaseIn = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(name="git", scope="session")
def git_fixture() -> Git:
    """Run git in a repository and return its output."""
    return git


@pytest.fixture(scope="session")
def clone_repo() -> Callable[[Path], Path]:
    """Make a throw-away clone of the repository at a path."""
    return clone_repository


@pytest.fixture(scope="session")
def release_in() -> ReleaseIn:
    """Run a clone's release script: ``release_in(repo, *args, check=True)``."""
    return release_command


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return clone_repository(tmp_path / "repo")


@pytest.fixture(scope="module")
def shared_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One clone for the tests that only read it (dry runs and refusals change nothing,
    which those tests check)."""
    return clone_repository(tmp_path_factory.mktemp("shared") / "repo")


@pytest.fixture
def release(repo: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    def _run(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return release_command(repo, *args, check=check)

    return _run


# -- a real local index holding released distributions ---------------------------------


@dataclass(frozen=True)
class Published:
    """What the session released into the local index, and where."""

    index_url: str
    repo: Path
    oldest_core: str
    newest_core_in_range: str
    core_beyond_range: str
    model_version: str


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _core_built_at(repo: Path, version: str, scratch: Path) -> list[Path]:
    """Build core at ``version``: from its release tag, or from the tree when that
    version is the unreleased one in the tree."""
    tag = f"testing-core-v{version}"
    source = repo
    if git(repo, "tag", "--list", tag).strip():
        source = scratch / f"core-{version}"
        git(repo, "worktree", "add", "-q", "--detach", str(source), tag)
    else:
        pyproject = (repo / "packages" / "testing-core" / "pyproject.toml").read_text()
        assert f'version = "{version}"' in pyproject, (
            f"the oldest core a boundary allows, {version}, is neither tagged "
            f"({tag}) nor the version in the tree"
        )
    out = scratch / f"dist-core-{version}"
    release_command(repo, "--root", str(source), "build", "core", "--out", str(out))
    return [out]


@pytest.fixture(scope="session")
def published(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Published]:
    """Release into a real local index (pypiserver, uploads through twine), the way a
    maintainer would: the oldest core the boundaries allow, a newer core inside their
    range (released with the release command), the model package (released with it),
    the other boundaries, and a core beyond their range."""
    scratch = tmp_path_factory.mktemp("published")
    repo = clone_repository(scratch / "repo")
    server = subprocess.Popen(
        [
            sys.executable,
            str(repo / "scripts" / "release.py"),
            "serve",
            str(scratch / "index"),
            "--port",
            str(_free_port()),
        ],
        stdout=subprocess.PIPE,
        stderr=(scratch / "index.log").open("w"),
        text=True,
    )
    try:
        assert server.stdout is not None
        index_url = server.stdout.readline().strip()
        assert index_url.startswith("http://127.0.0.1:"), (scratch / "index.log").read_text()

        def upload(files: list[Path]) -> None:
            release_command(repo, "upload", *map(str, files), "--index-url", index_url)

        ranges = {
            json.loads(release_command(repo, "core-range", b).stdout)["oldest"]
            for b in ("model", "sandbox", "realtime", "voice", "mcp")
        }
        assert len(ranges) == 1, f"the boundaries allow different oldest cores: {ranges}"
        (oldest,) = ranges
        upload(_core_built_at(repo, oldest, scratch))

        release_command(repo, "release", "core", "patch", "--date", "2026-01-15")
        newer = _version(repo, "core")
        upload(_dist(repo, "core", newer))

        release_command(repo, "release", "model", "minor", "--date", "2026-01-15")
        model = _version(repo, "model")
        upload(_dist(repo, "model", model))
        for boundary in ("sandbox", "realtime", "voice", "mcp"):
            out = scratch / f"dist-{boundary}"
            release_command(repo, "build", boundary, "--out", str(out))
            release_command(repo, "check", str(out))
            upload([out])

        upper = json.loads(release_command(repo, "core-range", "model").stdout)["range"]
        major, minor, patch = (*Version(upper.split("<", 1)[1]).release, 0, 0)[:3]
        changelog = repo / "packages" / "testing-core" / "CHANGELOG.md"
        changelog.write_text(
            changelog.read_text().replace(
                "## Unreleased\n", "## Unreleased\n\n- A breaking change.\n", 1
            )
        )
        git(repo, "commit", "-q", "-am", "Core: a breaking change")
        release_command(repo, "release", "core", f"{major}.{minor}.{patch}", "--date", "2026-02-01")
        upload(_dist(repo, "core", _version(repo, "core")))

        yield Published(
            index_url=index_url,
            repo=repo,
            oldest_core=oldest,
            newest_core_in_range=newer,
            core_beyond_range=_version(repo, "core"),
            model_version=model,
        )
    finally:
        server.terminate()
        server.communicate(timeout=30)


def _version(repo: Path, package: str) -> str:
    text = (repo / "packages" / f"testing-{package}" / "pyproject.toml").read_text()
    return text.split('\nversion = "', 1)[1].split('"', 1)[0]


def _dist(repo: Path, package: str, version: str) -> list[Path]:
    stem = f"agents_testing_{package}-{version}"
    files = [repo / "dist" / f"{stem}.tar.gz", repo / "dist" / f"{stem}-py3-none-any.whl"]
    assert all(f.exists() for f in files), files
    return files
