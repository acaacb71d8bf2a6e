"""Loading the packages (as pytest does through their plugins) does not import the SDK."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

BOUNDARIES = ("model", "sandbox", "realtime", "voice", "mcp")


def _modules_after(code: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys, json; print(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return list(json.loads(done.stdout))


@pytest.mark.parametrize("boundary", BOUNDARIES)
def test_loading_a_boundary_plugin_does_not_import_the_sdk(boundary: str) -> None:
    loaded = _modules_after(
        f"import agents_testing.core.pytest_plugin, agents_testing.{boundary}.pytest_plugin"
    )

    assert "agents" not in loaded
    assert not [name for name in loaded if name.startswith(f"agents_testing.{boundary}._")]


@pytest.mark.parametrize("boundary", BOUNDARIES)
def test_names_are_imported_on_first_use(boundary: str) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import agents_testing.{boundary} as package, json\n"
            "print(json.dumps([sorted(package.__all__), sorted(dir(package)),"
            " all(getattr(package, name) is not None for name in package.__all__)]))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    exported, listed, resolved = json.loads(done.stdout)

    assert set(exported) <= set(listed)
    assert resolved is True


def test_an_unknown_name_is_an_attribute_error() -> None:
    import agents_testing.voice

    with pytest.raises(AttributeError, match="no attribute 'ScriptedNothing'"):
        agents_testing.voice.ScriptedNothing  # type: ignore[attr-defined]  # noqa: B018
