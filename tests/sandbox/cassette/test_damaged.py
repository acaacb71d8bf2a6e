"""A damaged or hand-edited sandbox cassette fails with ``CassetteFormatError``, nothing else."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agents_testing.core import CassetteFormatError
from agents_testing.sandbox import SandboxCassette

from .test_cassette import record

_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(
            st.sampled_from(["text", "base64", "stdout", "exit_code", "method", "path", "type"])
            | st.text(max_size=8),
            children,
            max_size=3,
        )
    ),
    max_leaves=8,
)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A real recording of a local sandbox session (write, apply_patch, read, exec)."""
    path = tmp_path_factory.mktemp("sandbox") / "desk.sandbox.json"
    asyncio.run(record(path))
    return path.read_bytes()


def _places(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found.extend(_places(value, (*path, key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found.extend(_places(value, (*path, index)))
    return found


@st.composite
def edits(draw: st.DrawFn, data: bytes) -> bytes:
    kind = draw(st.sampled_from(["value", "delete", "cut", "byte"]))
    if kind == "cut":
        return data[: draw(st.integers(0, len(data) - 1))]
    if kind == "byte":
        at = draw(st.integers(0, len(data) - 1))
        return data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1 :]
    document = json.loads(data)
    path = draw(st.sampled_from(_places(document)[1:]))
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    if kind == "delete":
        del parent[path[-1]]
    else:
        parent[path[-1]] = draw(_json)
    return json.dumps(document).encode()


def test_the_recording_loads_as_it_is(recorded: bytes, tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_bytes(recorded)
    assert SandboxCassette(path).replay().remaining_steps == 4


@given(data=st.data())
def test_an_edited_cassette_loads_or_fails_with_a_format_error(
    recorded: bytes, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    path = tmp_path_factory.mktemp("damaged") / "c.json"
    path.write_bytes(data.draw(edits(recorded)))

    try:
        SandboxCassette(path).replay()
    except CassetteFormatError as error:
        failure: CassetteFormatError | None = error
    else:
        failure = None
    if failure is not None:
        assert failure.path == str(path)


def test_a_damaged_result_is_named_by_its_json_path(recorded: bytes, tmp_path: Path) -> None:
    document = json.loads(recorded)
    document["calls"][3]["result"]["stdout"] = {"base64": "not base64!"}
    path = tmp_path / "c.json"
    path.write_text(json.dumps(document))

    with pytest.raises(CassetteFormatError) as caught:
        SandboxCassette(path).replay()

    assert caught.value.location == "calls[3].result"
    assert "this exec() result cannot be rebuilt" in str(caught.value)


def test_an_unknown_method_is_named_by_its_json_path(recorded: bytes, tmp_path: Path) -> None:
    document = json.loads(recorded)
    document["calls"][0]["method"] = "teleport"
    path = tmp_path / "c.json"
    path.write_text(json.dumps(document))

    with pytest.raises(CassetteFormatError, match="'teleport' is not a sandbox session method"):
        SandboxCassette(path).replay()
