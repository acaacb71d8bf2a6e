"""Release one agents-testing package, and the steps the publish workflow shares.

    uv run --group release python scripts/release.py release model minor --dry-run

Subcommands: ``release`` (the whole local flow), ``build``, ``check``, ``serve``,
``upload``, ``smoke``, ``core-range`` and ``tag``. RELEASING.md describes the flow.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

# Run as a script, so its own directory is on sys.path.
from sdk_releases import LOWEST, NEWEST, sdk_requirements

BOUNDARIES = ("core", "model", "sandbox", "realtime", "voice", "mcp")
SMOKE_DIR = Path(__file__).resolve().parent / "smoke"
DEFAULT_ROOT = Path(__file__).resolve().parents[1]
_UNRELEASED = "## Unreleased"
_BUMPS = ("major", "minor", "patch")
_PRE = {"a": "a", "alpha": "a", "b": "b", "beta": "b", "rc": "rc"}
# A sandbox or MCP-backed agent run needs a model: their smoke runs install the model
# package beside them.
_SMOKE_COMPANIONS = {"sandbox": ("model",), "mcp": ("model",)}


class ReleaseError(Exception):
    """A release step refused or failed; the message says what to do."""


# -- packages ------------------------------------------------------------------------


def boundary_name(package: str) -> str:
    """``model`` for ``model``, ``testing-model`` or ``agents-testing-model``."""
    name = package.removeprefix("agents-").removeprefix("testing-")
    if name not in BOUNDARIES:
        raise ReleaseError(f"unknown package {package!r}: use one of {', '.join(BOUNDARIES)}")
    return name


def distribution(boundary: str) -> str:
    return f"agents-testing-{boundary}"


def package_dir(root: Path, boundary: str) -> Path:
    return root / "packages" / f"testing-{boundary}"


def tag_name(boundary: str, version: Version | str) -> str:
    return f"testing-{boundary}-v{version}"


def read_version(root: Path, boundary: str) -> Version:
    text = (package_dir(root, boundary) / "pyproject.toml").read_text()
    found = re.search(r'^version = "([^"]+)"$', text, re.MULTILINE)
    if found is None:
        raise ReleaseError(f"no static version in {boundary}'s pyproject.toml")
    return Version(found.group(1))


def uv_version_args(current: Version, new: Version, request: str) -> list[str]:
    """The ``uv version`` arguments that take ``current`` to ``new`` (``next_version``'s).

    A bump is uv's own, except for a pre-release the bump releases: uv's ``--bump
    minor`` takes ``0.2.0rc1`` past it to ``0.3.0``, so that one is uv's stable bump.
    """
    if request not in _BUMPS:
        return [str(new)]
    releases_it = current.pre is not None and new == Version(current.base_version)
    return ["--bump", "stable" if releases_it else request]


def write_version(root: Path, boundary: str, current: Version, new: Version, request: str) -> None:
    """Set ``boundary``'s version with ``uv version`` (the lock is updated afterwards)."""
    args = uv_version_args(current, new, request)
    run(
        uv(),
        "version",
        "--package",
        distribution(boundary),
        "--frozen",
        *args,
        cwd=root,
        quiet=True,
    )
    written = read_version(root, boundary)
    if written != new:
        raise ReleaseError(
            f"uv version {' '.join(args)} set {distribution(boundary)} to {written}, not {new}"
        )


def check_lock(root: Path) -> None:
    """Refuse a ``uv.lock`` that does not match the workspace's ``pyproject.toml`` files.

    ``uv lock --locked`` compares without resolving again, so it works offline on a
    fresh uv cache.
    """
    try:
        run(uv(), "lock", "--locked", "--offline", "-q", cwd=root, quiet=True)
    except ReleaseError as error:
        raise ReleaseError(
            "uv.lock does not match the workspace's pyproject.toml files (checked with "
            f"`uv lock --locked --offline`): run `uv lock` and commit the lock before "
            f"releasing.\n{error}"
        ) from None


def lock_version(root: Path, boundary: str, new: Version) -> None:
    """Record ``boundary``'s new version in ``uv.lock``, then check the lock with uv.

    Only the member's version line changes. Relocking would resolve every dependency
    again, which offline needs index pages that uv's cache may not hold, and online
    could move pins that a release has no business moving. Should uv ever write the
    entry otherwise, nothing is replaced and the check refuses the lock.
    """
    lock = root / "uv.lock"
    member = (
        rf'^(\[\[package\]\]\nname = "{re.escape(distribution(boundary))}"\nversion = )"[^"]*"$'
    )
    lock.write_text(re.sub(member, rf'\g<1>"{new}"', lock.read_text(), count=1, flags=re.M))
    check_lock(root)


def requirement(root: Path, boundary: str, name: str) -> str | None:
    """The dependency line of ``boundary`` that names ``name``, without the name."""
    text = (package_dir(root, boundary) / "pyproject.toml").read_text()
    found = re.search(rf'^\s*"{re.escape(name)}(\[[^\]]*\])?([^"]*)",?$', text, re.MULTILINE)
    if found is None:
        return None
    return (found.group(1) or "") + found.group(2)


def core_range(root: Path, boundary: str) -> SpecifierSet:
    """The core releases ``boundary`` declares it works with."""
    line = requirement(root, boundary, "agents-testing-core")
    if line is None:
        raise ReleaseError(f"{distribution(boundary)} does not depend on agents-testing-core")
    return SpecifierSet(line)


def oldest_core(specifiers: SpecifierSet) -> Version:
    """The lower bound of a ``>=L,<B`` core range: the oldest core it allows."""
    lower = [Version(s.version) for s in specifiers if s.operator == ">="]
    upper = [s for s in specifiers if s.operator == "<"]
    if len(lower) != 1 or len(upper) != 1 or len(specifiers) != 2:
        raise ReleaseError(f"core range {specifiers} is not of the form '>=OLDEST,<NEXT_BREAKING'")
    return lower[0]


# -- versions ------------------------------------------------------------------------


def parse_version(text: str) -> Version:
    """An explicit ``MAJOR.MINOR.PATCH`` version, optionally a pre-release.

    Accepts both spellings: ``1.2.0rc1`` and semver's ``1.2.0-rc.1``.
    """
    spelled = re.fullmatch(r"(\d+\.\d+\.\d+)-(alpha|beta|rc|a|b)\.?(\d+)", text)
    if spelled is not None:
        text = f"{spelled.group(1)}{_PRE[spelled.group(2)]}{spelled.group(3)}"
    try:
        version = Version(text)
    except InvalidVersion:
        version = None
    if (
        version is None
        or len(version.release) != 3
        or version.epoch
        or version.dev is not None
        or version.post is not None
        or version.local is not None
    ):
        raise ReleaseError(
            f"{text!r} is not a release version: give MAJOR.MINOR.PATCH, optionally with a "
            "pre-release (1.2.0rc1, 1.2.0-rc.1, 1.2.0b2), or one of major, minor, patch"
        )
    return version


def next_version(current: Version, request: str, *, current_released: bool = True) -> Version:
    """Semver's next version: an explicit one, or a major/minor/patch bump.

    Bumping a pre-release releases it when it already sits at that level
    (``0.2.0rc1`` + minor is ``0.2.0``), as semver tools do. The current version itself
    may be given while it has no tag yet: a package's first release.
    """
    if request not in _BUMPS:
        new = parse_version(request)
    else:
        major, minor, patch = current.release
        pre = current.pre is not None
        if request == "major":
            new = Version(f"{major}.0.0" if pre and minor == patch == 0 else f"{major + 1}.0.0")
        elif request == "minor":
            new = Version(f"{major}.{minor}.0" if pre and patch == 0 else f"{major}.{minor + 1}.0")
        else:
            new = Version(f"{major}.{minor}.{patch}" if pre else f"{major}.{minor}.{patch + 1}")
    if new < current or (new == current and current_released):
        raise ReleaseError(f"{new} is not newer than the current version {current}")
    return new


# -- changelog -----------------------------------------------------------------------


def changelog_section(text: str) -> tuple[int, int, str]:
    """Where the ``## Unreleased`` body starts and ends, and the body itself."""
    heading = re.search(rf"^{re.escape(_UNRELEASED)}[ \t]*$", text, re.MULTILINE)
    if heading is None:
        raise ReleaseError(f"no '{_UNRELEASED}' heading in the CHANGELOG")
    start = heading.end()
    following = re.search(r"^## ", text[start:], re.MULTILINE)
    end = start + following.start() if following else len(text)
    return start, end, text[start:end].strip()


def released_changelog(text: str, version: Version, date: str) -> tuple[str, str]:
    """The CHANGELOG with the Unreleased notes moved under the version, and that section."""
    start, end, body = changelog_section(text)
    if not body:
        raise ReleaseError(
            "the CHANGELOG's 'Unreleased' section is empty: "
            "write down what this release changes first"
        )
    section = f"## {version} ({date})\n\n{body}\n"
    rest = text[end:]
    return text[:start] + "\n\n" + section + ("\n" + rest if rest else ""), section


# -- commands run on the machine -----------------------------------------------------


def run(*args: str | Path, cwd: Path | None = None, quiet: bool = False) -> str:
    """Run a command; on failure raise with its output."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV",)}
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        command = " ".join(str(a) for a in args)
        raise ReleaseError(f"`{command}` failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    if not quiet and done.stdout.strip():
        print(done.stdout.rstrip())
    return done.stdout


def tool(name: str) -> str:
    """A console script of this environment (the ``release`` dependency group)."""
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return str(beside)
    found = shutil.which(name)
    if found is None:
        raise ReleaseError(
            f"{name} is not installed: run with `uv run --group release` "
            "(or `uv sync --all-groups`)"
        )
    return found


def uv() -> str:
    found = shutil.which("uv")
    if found is None:
        raise ReleaseError("uv is needed: https://docs.astral.sh/uv/")
    return found


def git(root: Path, *args: str) -> str:
    return run("git", "-C", root, *args, quiet=True).rstrip()


# -- subcommands ---------------------------------------------------------------------


def build(root: Path, boundary: str, out: Path) -> list[Path]:
    """Build the sdist and wheel of one package alone, from its own sources."""
    out.mkdir(parents=True, exist_ok=True)
    version = read_version(root, boundary)
    stem = f"agents_testing_{boundary}-{version}"
    for stale in (out / f"{stem}.tar.gz", out / f"{stem}-py3-none-any.whl"):
        stale.unlink(missing_ok=True)
    run(uv(), "build", "--package", distribution(boundary), "--no-sources", "-q", "-o", out,
        cwd=root, quiet=True)  # fmt: skip
    files = [out / f"{stem}.tar.gz", out / f"{stem}-py3-none-any.whl"]
    missing = [f.name for f in files if not f.exists()]
    if missing:
        raise ReleaseError(f"the build did not produce {', '.join(missing)} in {out}")
    for file in files:
        print(f"built {file}")
    return files


def check(files: list[Path]) -> None:
    """Metadata and long description must render on the index (``twine check --strict``)."""
    if not files:
        raise ReleaseError("nothing to check: no distributions given")
    run(tool("twine"), "check", "--strict", *files)


def dist_files(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += sorted([*path.glob("*.whl"), *path.glob("*.tar.gz")])
        else:
            files.append(path)
    return files


def wait_for_index(url: str, timeout: float = 30.0) -> None:
    """Wait until the index at ``url`` answers, for a server started in the background."""
    health = url.rstrip("/").removesuffix("/simple") + "/health"
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(health, timeout=5) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if time.monotonic() > deadline:
            raise ReleaseError(f"the index at {url} did not answer within {timeout:.0f} s")
        time.sleep(0.1)


def serve(root_dir: Path, port: int, fallback: bool) -> int:
    """Run a local package index (pypiserver) on 127.0.0.1 until terminated."""
    root_dir.mkdir(parents=True, exist_ok=True)
    args = [tool("pypi-server"), "run", "-i", "127.0.0.1", "-p", str(port),
            "-a", ".", "-P", ".", "--log-stream", "stderr"]  # fmt: skip
    args += [] if fallback else ["--disable-fallback"]
    # The server logs to stderr; stdout carries only the index URL, once it answers.
    server = subprocess.Popen([*args, str(root_dir)], stdout=sys.stderr)
    # Stopping this command (SIGTERM, as CI and the tests do) stops the server with it.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    url = f"http://127.0.0.1:{port}/simple/"
    try:
        wait_for_index(url)
        print(url, flush=True)
        return server.wait()
    except BaseException:
        server.terminate()
        server.wait()
        raise


def upload(files: list[Path], index_url: str) -> None:
    """Upload distributions to a local index with twine."""
    wait_for_index(index_url)
    upload_url = index_url.rstrip("/").removesuffix("/simple") + "/"
    run(tool("twine"), "upload", "--non-interactive", "--disable-progress-bar",
        "--repository-url", upload_url, "-u", "local", "-p", "local", *files)  # fmt: skip


def smoke(
    root: Path,
    boundary: str,
    index_url: str,
    sdk: str,
    core: str | None,
    venv: Path | None,
    python: str,
) -> dict[str, object]:
    """Install a package from the index into a clean environment and run its smoke test.

    The SDK and its own dependencies come from the default index first; the
    agents-testing packages then come from ``index_url`` alone.
    """
    wait_for_index(index_url)
    extras = re.match(r"\[[^\]]*\]", requirement(root, boundary, "openai-agents") or "")
    targets = [boundary, *_SMOKE_COMPANIONS.get(boundary, ())]
    wanted: dict[str, str] = {}
    if core == "oldest" and boundary != "core":
        wanted["core"] = str(oldest_core(core_range(root, boundary)))
    elif core not in (None, "oldest"):
        wanted["core"] = str(Version(core))
    with tempfile.TemporaryDirectory(prefix="agents-testing-smoke-") as scratch:
        env_dir = venv or Path(scratch) / "venv"
        if env_dir.exists():
            raise ReleaseError(f"{env_dir} exists: the smoke test needs a fresh environment")
        run(uv(), "venv", "-q", "--python", python, env_dir)
        env_python = env_dir / "bin" / "python"
        run(uv(), "pip", "install", "-q", "--python", env_python,
            *sdk_requirements(sdk, extras.group(0) if extras else ""))  # fmt: skip
        ours = [distribution(name) for name in targets]
        ours += [f"{distribution(name)}=={v}" for name, v in wanted.items()]
        # Only the local index: an agents-testing name it lacks fails here, rather than
        # being fetched from anywhere else.
        run(uv(), "pip", "install", "-q", "--no-cache", "--python", env_python,
            "--index-url", index_url, *ours)  # fmt: skip
        installed = json.loads(
            run(env_python, "-I", "-c", _INSTALLED, cwd=Path(scratch), quiet=True)
        )
        if installed["openai-agents"] != sdk:
            raise ReleaseError(f"installed openai-agents {installed['openai-agents']}, not {sdk}")
        for name, version in wanted.items():
            if installed[distribution(name)] != version:
                raise ReleaseError(
                    f"installed {distribution(name)} {installed[distribution(name)]}, not {version}"
                )
        program = SMOKE_DIR / f"{boundary}.py"
        result = run(env_python, "-I", program, cwd=Path(scratch), quiet=True)
    report = {"package": distribution(boundary), "installed": installed, "smoke": result.strip()}
    print(json.dumps(report))
    return report


_INSTALLED = """
import json
from importlib.metadata import distributions
names = {"openai", "openai-agents"}
print(json.dumps({
    d.metadata["Name"]: d.version for d in distributions()
    if d.metadata["Name"] in names or d.metadata["Name"].startswith("agents-testing-")
}))
"""


def release(root: Path, boundary: str, request: str, dry_run: bool, date: str) -> None:
    """The whole local release of one package: bump, CHANGELOG, build, check, commit, tag."""
    dirty = git(root, "status", "--porcelain")
    if dirty:
        raise ReleaseError(
            f"the working tree has uncommitted changes; commit or stash them first:\n{dirty}"
        )
    current = read_version(root, boundary)
    released = bool(git(root, "tag", "--list", tag_name(boundary, current)))
    version = next_version(current, request, current_released=released)
    tag = tag_name(boundary, version)
    if git(root, "tag", "--list", tag):
        raise ReleaseError(f"tag {tag} already exists")
    changelog = package_dir(root, boundary) / "CHANGELOG.md"
    new_changelog, section = released_changelog(changelog.read_text(), version, date)
    if boundary != "core":
        allowed = core_range(root, boundary)
        oldest_core(allowed)
        if read_version(root, "core") not in allowed:
            raise ReleaseError(
                f"{distribution(boundary)} allows agents-testing-core"
                f"{requirement(root, boundary, 'agents-testing-core')}, which excludes "
                f"the workspace's core {read_version(root, 'core')} it is tested with: "
                "update its core range first"
            )
    check_lock(root)
    out = root / "dist"
    print(f"{distribution(boundary)} {current} -> {version}")
    print(f"tag: {tag}")
    print(f"CHANGELOG section:\n\n{section}")
    if dry_run:
        print(f"dry run: would build and check {distribution(boundary)} {version} into {out},")
        print(f"commit 'Release {distribution(boundary)} {version}' and tag {tag}; nothing changed")
        return

    pyproject = package_dir(root, boundary) / "pyproject.toml"
    touched = [pyproject, changelog, root / "uv.lock"]
    try:
        write_version(root, boundary, current, version, request)
        changelog.write_text(new_changelog)
        # The lock records each workspace member's version.
        lock_version(root, boundary, version)
        check(build(root, boundary, out))
    except BaseException:
        git(root, "checkout", "--", *(str(p.relative_to(root)) for p in touched))
        raise
    git(root, "add", *(str(p.relative_to(root)) for p in touched))
    git(root, "commit", "-q", "-m", f"Release {distribution(boundary)} {version}")
    git(root, "tag", "-a", tag, "-m", f"{distribution(boundary)} {version}")
    if boundary == "core":
        for other in BOUNDARIES[1:]:
            if version not in core_range(root, other):
                print(f"note: {distribution(other)} allows core {core_range(root, other)}")
    print(f"released {distribution(boundary)} {version}: push the commit, then the tag {tag}")


def tag_package(root: Path, tag: str) -> str:
    """The package a release tag names, after checking the tree carries that version."""
    found = re.fullmatch(r"testing-([a-z]+)-v(.+)", tag)
    if found is None:
        raise ReleaseError(f"{tag!r} is not a release tag (testing-<package>-v<version>)")
    boundary = boundary_name(found.group(1))
    if read_version(root, boundary) != Version(found.group(2)):
        raise ReleaseError(
            f"tag {tag} names {found.group(2)}, but {distribution(boundary)} is at "
            f"{read_version(root, boundary)}"
        )
    return boundary


# -- command line --------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=DEFAULT_ROOT, help="repository root")
    commands = parser.add_subparsers(dest="command", required=True)

    p = commands.add_parser("release", help="bump, update the CHANGELOG, build, check, tag")
    p.add_argument("package")
    p.add_argument("version", help="major, minor, patch or an explicit version")
    p.add_argument("--dry-run", action="store_true", help="print what it would do, change nothing")
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    p.add_argument("--date", default=today, help="release date (default: today, UTC)")

    p = commands.add_parser("build", help="build one package's sdist and wheel")
    p.add_argument("package")
    p.add_argument("--out", type=Path, default=None)

    p = commands.add_parser("check", help="twine check --strict the distributions")
    p.add_argument("paths", type=Path, nargs="+")

    p = commands.add_parser("serve", help="run a local package index on 127.0.0.1")
    p.add_argument("directory", type=Path)
    p.add_argument("--port", type=int, default=8080)
    p.add_argument(
        "--fallback-to-pypi",
        action="store_true",
        help="redirect names the local index lacks to PyPI (default: serve local names only)",
    )

    p = commands.add_parser("upload", help="upload distributions to a local index")
    p.add_argument("paths", type=Path, nargs="+")
    p.add_argument("--index-url", required=True)

    p = commands.add_parser("smoke", help="install from the index in a clean venv and run it")
    p.add_argument("package")
    p.add_argument("--index-url", required=True)
    p.add_argument(
        "--sdk",
        default="newest",
        help=f"openai-agents release: lowest ({LOWEST}), newest ({NEWEST}) or a version",
    )
    p.add_argument("--core", default=None, help="'oldest' (of the package's range) or a version")
    p.add_argument("--venv", type=Path, default=None)
    p.add_argument("--python", default=sys.executable)

    p = commands.add_parser("core-range", help="print a package's core range and its oldest core")
    p.add_argument("package")

    p = commands.add_parser("tag", help="print the package a release tag names")
    p.add_argument("tag")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    root: Path = args.root.resolve()
    try:
        if args.command == "release":
            release(root, boundary_name(args.package), args.version, args.dry_run, args.date)
        elif args.command == "build":
            build(root, boundary_name(args.package), args.out or root / "dist")
        elif args.command == "check":
            check(dist_files(args.paths))
        elif args.command == "serve":
            return serve(args.directory, args.port, args.fallback_to_pypi)
        elif args.command == "upload":
            upload(dist_files(args.paths), args.index_url)
        elif args.command == "smoke":
            sdk = {"lowest": LOWEST, "newest": NEWEST}.get(args.sdk, args.sdk)
            smoke(root, boundary_name(args.package), args.index_url, sdk, args.core,
                  args.venv, args.python)  # fmt: skip
        elif args.command == "core-range":
            boundary = boundary_name(args.package)
            specifiers = core_range(root, boundary)
            line = requirement(root, boundary, "agents-testing-core")
            print(json.dumps({"range": line, "oldest": str(oldest_core(specifiers))}))
        elif args.command == "tag":
            print(tag_package(root, args.tag))
    except ReleaseError as error:
        print(f"release: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
