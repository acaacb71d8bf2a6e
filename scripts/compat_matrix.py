"""Run the test suite on every supported openai-agents minor (its latest patch).

    uv run python scripts/compat_matrix.py                  # all of 0.14 ... 0.24
    uv run python scripts/compat_matrix.py --minors 0.14 0.24 -- -x
    uv run python scripts/compat_matrix.py --releases 0.19.0 0.19.3 -- tests/core/test_compat.py

Each minor (or exact release) gets its own environment, ``.venv-sdk-<minor>`` or
``.venv-sdk-<release>``: the locked workspace with that SDK release (and the client it
works with) installed over it. The compatibility workflow runs the same command, one
minor per job; ``--releases`` checks patches in between, such as where a feature
arrived within a minor.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

# Run as a script, so its own directory is on sys.path.
from sdk_releases import SUPPORTED, sdk_requirements

ROOT = Path(__file__).resolve().parents[1]


def _run(args: list[str], env: dict[str, str]) -> int:
    print("$", " ".join(args), flush=True)
    return subprocess.run(args, cwd=ROOT, env=env, check=False).returncode


def run_release(release: str, venv_name: str, pytest_args: list[str]) -> bool:
    """Sync an environment for one SDK release and run the suite in it."""
    venv = ROOT / f".venv-sdk-{venv_name}"
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    env["UV_PROJECT_ENVIRONMENT"] = str(venv)
    steps = [
        ["uv", "sync", "--locked", "--quiet"],
        [
            "uv",
            "pip",
            "install",
            "--quiet",
            "--python",
            str(venv / "bin" / "python"),
            *sdk_requirements(release, "[voice,realtime]"),
        ],
        ["uv", "run", "--no-sync", "pytest", "-q", "-m", "not slow", *pytest_args],
    ]
    return all(_run(step, env) == 0 for step in steps)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--minors",
        nargs="+",
        default=list(SUPPORTED),
        choices=list(SUPPORTED),
        metavar="MINOR",
        help=f"SDK minors to test (default: all of {', '.join(SUPPORTED)})",
    )
    parser.add_argument(
        "--releases",
        nargs="+",
        default=None,
        metavar="RELEASE",
        help="exact SDK releases to test instead of the minors' latest patches, e.g. 0.19.0",
    )
    parser.add_argument("--list", action="store_true", help="print the matrix and exit")
    parser.add_argument("pytest_args", nargs="*", help="extra pytest arguments, after --")
    args = parser.parse_args(argv)
    # Environment name -> release: a minor's latest patch, or each exact release asked for.
    matrix = (
        {release: release for release in args.releases}
        if args.releases
        else {minor: SUPPORTED[minor] for minor in args.minors}
    )
    if args.list:
        for name, release in matrix.items():
            print(name, " ".join(sdk_requirements(release)))
        return 0

    results: dict[str, tuple[bool, float]] = {}
    for name, release in matrix.items():
        print(f"== openai-agents {release}", flush=True)
        started = time.monotonic()
        results[release] = (
            run_release(release, name, args.pytest_args),
            time.monotonic() - started,
        )

    print("\nopenai-agents  result  seconds")
    for release, (passed, seconds) in results.items():
        print(f"{release:<13}  {'passed' if passed else 'FAILED':<6}  {seconds:7.1f}")
    return 0 if all(passed for passed, _ in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
