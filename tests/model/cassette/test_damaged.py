"""A damaged or hand-edited model cassette fails with ``CassetteFormatError``, nothing else.

Random edits (a value replaced, a key removed, the file cut short or a byte changed) to
real recorded cassettes either still load or raise ``CassetteFormatError`` naming the
file, never a raw ``KeyError``, ``JSONDecodeError``, ``TypeError`` or validation error.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agents_testing.core import CassetteFormatError
from agents_testing.model import ModelCassette

ROOT = Path(__file__).resolve().parents[3]
RECORDED = sorted(
    (ROOT / "examples" / "travel_desk" / "tests" / "cassettes" / "test_recorded").glob("*.json")
)

_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(
            st.sampled_from(["type", "id", "role", "content", "text", "usage", "input", "x"])
            | st.text(max_size=8),
            children,
            max_size=3,
        )
    ),
    max_leaves=8,
)


def _places(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found.extend(_places(value, (*path, key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found.extend(_places(value, (*path, index)))
    return found


def _edit(document: Any, path: tuple[Any, ...], action: str, value: Any) -> Any:
    if not path:
        return value
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    if action == "delete":
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return document


@st.composite
def damaged(draw: st.DrawFn) -> tuple[str, bytes]:
    """A recorded cassette's name and its content after one random edit."""
    source = draw(st.sampled_from(RECORDED))
    data = source.read_bytes()
    kind = draw(st.sampled_from(["value", "delete", "cut", "byte"]))
    if kind == "cut":
        return source.name, data[: draw(st.integers(0, len(data) - 1))]
    if kind == "byte":
        at = draw(st.integers(0, len(data) - 1))
        return source.name, data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1 :]
    document = json.loads(data)
    places = _places(document)
    path = draw(st.sampled_from(places))
    if kind == "delete" and not path:
        kind = "value"
    edited = _edit(document, path, kind, draw(_json) if kind == "value" else None)
    return source.name, json.dumps(edited).encode()


def test_the_recorded_cassettes_load_as_they_are() -> None:
    assert len(RECORDED) >= 2
    for source in RECORDED:
        assert ModelCassette(source).replay().recorded_calls > 0


@given(damaged())
def test_an_edited_cassette_loads_or_fails_with_a_format_error(
    tmp_path_factory: pytest.TempPathFactory, edit: tuple[str, bytes]
) -> None:
    name, content = edit
    path = tmp_path_factory.mktemp("damaged") / name
    path.write_bytes(content)

    try:
        ModelCassette(path).replay()
    except CassetteFormatError as error:
        failure: CassetteFormatError | None = error
    else:
        failure = None
    if failure is not None:
        assert failure.path == str(path)
        assert str(failure).startswith(f"Cassette {path} cannot be read")


def test_a_damaged_part_is_named_by_its_json_path(tmp_path: Path) -> None:
    document = json.loads(RECORDED[0].read_text(encoding="utf-8"))
    document["calls"][1]["response"]["output"][0]["type"] = "telegram"
    path = tmp_path / "c.json"
    path.write_text(json.dumps(document), encoding="utf-8")

    with pytest.raises(CassetteFormatError) as caught:
        ModelCassette(path).replay()

    assert caught.value.location == "calls[1].response.output[0]"
    assert f"Cassette {path} cannot be read at calls[1].response.output[0]: " in str(caught.value)
