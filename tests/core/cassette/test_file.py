"""The cassette file shared by the boundaries: layout, versions, record modes, diffs."""

from __future__ import annotations

import json
import pickle
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents_testing.core import (
    CassetteFormatError,
    CassetteMismatch,
    CassetteNotFound,
    CassetteVersionError,
    UnexpectedCallError,
)
from agents_testing.core.cassette import (
    FORMAT_VERSION,
    diff_json,
    dump_cassette,
    iter_cassette,
    load_cassette,
    read_cassette,
    without_keys,
    write_cassette,
)


def test_a_cassette_is_sorted_json_with_one_call_per_block_and_the_writers_versions() -> None:
    text = dump_cassette("model", [{"b": 1, "a": [1, 2]}, {"z": None}], packages=["pytest"])
    document = json.loads(text)

    assert document["agents_testing_cassette"] == FORMAT_VERSION
    assert document["boundary"] == "model"
    assert set(document["written_by"]) == {"pytest"}
    assert text.endswith("}\n")
    assert text.index('"a"') < text.index('"b"')
    assert text == dump_cassette("model", [{"a": [1, 2], "b": 1}, {"z": None}], packages=["pytest"])
    assert '  "calls": [\n    {\n' in text


def test_an_unknown_package_is_left_out_of_the_versions() -> None:
    text = dump_cassette("model", [], packages=["no-such-distribution-here"])
    assert json.loads(text)["written_by"] == {}


def test_loading_returns_the_calls_of_the_boundary() -> None:
    text = dump_cassette("sandbox", [{"method": "exec"}], packages=[])
    assert load_cassette(text, "sandbox") == [{"method": "exec"}]


def test_a_cassette_of_a_future_format_fails_with_a_clear_error() -> None:
    text = json.dumps({"agents_testing_cassette": FORMAT_VERSION + 1, "boundary": "model"})

    with pytest.raises(CassetteVersionError) as caught:
        load_cassette(text, "model", "t.json")

    assert (caught.value.found, caught.value.supported) == (FORMAT_VERSION + 1, FORMAT_VERSION)
    assert "Upgrade the agents-testing packages" in str(caught.value)
    assert isinstance(caught.value, CassetteFormatError)
    copy = pickle.loads(pickle.dumps(caught.value))
    assert (copy.path, copy.found, str(copy)) == ("t.json", FORMAT_VERSION + 1, str(caught.value))


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "not an agents-testing cassette"),
        ('{"agents_testing_cassette": "1"}', "format version '1' is not valid"),
        ('{"agents_testing_cassette": 1, "boundary": "sandbox", "calls": []}', "'sandbox'"),
        ('{"agents_testing_cassette": 1, "boundary": "model", "calls": [1]}', "list of objects"),
    ],
)
def test_a_damaged_cassette_fails_saying_what_is_wrong(text: str, detail: str) -> None:
    with pytest.raises(CassetteFormatError, match="cannot be read") as caught:
        load_cassette(text, "model", "x.json")
    assert detail in caught.value.detail
    assert caught.value.path == "x.json"


def test_writing_then_reading_a_file_round_trips(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "case.json"
    text = dump_cassette("model", [{"request": {}}], packages=[])

    write_cassette(target, text)

    assert target.read_text(encoding="utf-8") == text
    assert read_cassette(target, "model") == [{"request": {}}]
    assert [path.name for path in target.parent.iterdir()] == ["case.json"]


class _Interrupted(KeyboardInterrupt):
    pass


def _interrupted_after(pieces: int, text: str) -> Iterator[str]:
    """The pieces of ``text`` (one character each), then Ctrl-C part-way, like a serializer."""
    for position, character in enumerate(text):
        if position == pieces:
            raise _Interrupted
        yield character


@pytest.mark.parametrize("existing", [True, False])
def test_a_write_interrupted_part_way_leaves_the_previous_cassette_and_no_temporary_file(
    tmp_path: Path, existing: bool
) -> None:
    target = tmp_path / "case.json"
    previous = dump_cassette("model", [{"request": {"input": "old"}}], packages=[])
    if existing:
        write_cassette(target, previous)
    new = "".join(iter_cassette("model", [{"request": {"input": "new" * 500}}], packages=[]))

    with pytest.raises(_Interrupted):
        write_cassette(target, _interrupted_after(len(new) // 2, new))

    assert [path.name for path in tmp_path.iterdir()] == (["case.json"] if existing else [])
    if existing:
        assert target.read_text(encoding="utf-8") == previous
        assert read_cassette(target, "model") == [{"request": {"input": "old"}}]


def test_the_pieces_of_a_cassette_are_its_text(tmp_path: Path) -> None:
    calls = [{"request": {"input": [{"content": "é"}]}, "b": [1, 2.5, None, True]}]
    pieces = list(iter_cassette("model", calls, packages=["pytest"]))

    assert len(pieces) > 10
    assert "".join(pieces) == dump_cassette("model", calls, packages=["pytest"])
    write_cassette(tmp_path / "c.json", iter(pieces))
    assert read_cassette(tmp_path / "c.json", "model") == calls


@pytest.mark.parametrize(
    ("content", "detail"),
    [
        (b"\xff\xfe not text", "not UTF-8 text"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    ],
)
def test_a_file_that_is_not_a_cassette_at_all_is_a_format_error(
    tmp_path: Path, content: bytes, detail: str
) -> None:
    target = tmp_path / "odd.json"
    target.write_bytes(content)

    with pytest.raises(CassetteFormatError, match=detail) as caught:
        read_cassette(target, "model")

    assert caught.value.path == str(target)


def test_a_format_error_names_the_file_and_the_json_path() -> None:
    text = '{"agents_testing_cassette": 1, "boundary": "model", "calls": [{}, 7]}'

    with pytest.raises(CassetteFormatError) as caught:
        load_cassette(text, "model", "cassettes/t/x.json")

    assert caught.value.location == "calls[1]"
    assert str(caught.value).startswith("Cassette cassettes/t/x.json cannot be read at calls[1]:")
    copy = pickle.loads(pickle.dumps(caught.value))
    assert (copy.path, copy.location, str(copy)) == (
        "cassettes/t/x.json",
        "calls[1]",
        str(caught.value),
    )


def test_a_missing_file_says_how_to_record_it(tmp_path: Path) -> None:
    with pytest.raises(CassetteNotFound) as caught:
        read_cassette(tmp_path / "none.json", "model")
    assert "--agents-record-mode=once" in str(caught.value)
    assert "--agents-record-in-ci" in str(caught.value)
    assert caught.value.boundary == "model"


def test_a_cassette_at_its_earlier_place_is_named_so_it_can_be_moved() -> None:
    error = CassetteNotFound("c/m/T.test_x.json", "model", "c/m/test_x.json")

    assert "git mv c/m/test_x.json c/m/T.test_x.json" in str(error)
    assert pickle.loads(pickle.dumps(error)).earlier == "c/m/test_x.json"


def test_a_diff_names_each_differing_field_by_path() -> None:
    recorded = {"input": [{"role": "user", "content": "Paris"}], "tools": {"search": {"a": 1}}}
    live = {"input": [{"role": "user", "content": "Rome"}], "tools": {"book": {"a": 1}}}

    lines = diff_json(recorded, live)

    assert lines == [
        "request.input[0].content: recorded 'Paris', now 'Rome'",
        "request.tools.book: not recorded, now {'a': 1}",
        "request.tools.search: recorded {'a': 1}, now missing",
    ]


def test_a_diff_reports_added_and_missing_items_and_odd_keys() -> None:
    assert diff_json([1], [1, 2], "input") == [
        "input: recorded 1 item(s), now 2; added input[1] = 2"
    ]
    assert diff_json([1, 2], [1], "input") == [
        "input: recorded 2 item(s), now 1; missing input[1] = 2"
    ]
    assert diff_json({"a b": 1}, {"a b": 2}, "x") == ["x['a b']: recorded 1, now 2"]
    assert diff_json(1, True, "x") == ["x: recorded 1, now True"]


def test_a_long_diff_is_cut_short() -> None:
    lines = diff_json(list(range(30)), [n + 1 for n in range(30)], limit=5)
    assert len(lines) == 6
    assert lines[-1] == "... and 25 more difference(s)"


def test_without_keys_drops_the_named_keys_at_every_depth() -> None:
    assert without_keys([{"id": 1, "a": {"id": 2, "b": 3}}], {"id"}) == [{"a": {"b": 3}}]


def test_a_mismatch_is_an_unexpected_call_listing_the_differences() -> None:
    error = CassetteMismatch("model", 2, ["request.input[0].content: recorded 'a', now 'b'"])

    assert isinstance(error, UnexpectedCallError)
    assert "model call 3 differs" in str(error)
    assert "  request.input[0].content" in str(error)
    assert pickle.loads(pickle.dumps(error)).differences == error.differences
