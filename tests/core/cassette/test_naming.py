"""Cassette file names: one per test, class-qualified and parametrize-aware."""

from __future__ import annotations

from pathlib import Path

from agents_testing.core.cassette import cassette_file_name, cassette_path


def test_a_test_function_is_named_after_itself() -> None:
    assert cassette_file_name("test_greeting") == "test_greeting.json"


def test_a_method_carries_its_classes_outermost_first() -> None:
    assert cassette_file_name("test_greeting", ["TestA"]) == "TestA.test_greeting.json"
    assert cassette_file_name("test_x", ["Outer", "Inner"]) == "Outer.Inner.test_x.json"


def test_parameters_stay_and_forbidden_characters_become_dashes() -> None:
    assert cassette_file_name("test_x[en-gpt 4]") == "test_x[en-gpt 4].json"
    assert cassette_file_name("test_x[a/b:c*d?\"e']") == "test_x[a-b-c-d--e-].json"


def test_another_boundary_adds_its_name_before_the_extension() -> None:
    assert cassette_file_name("test_x", ["T"], "sandbox") == "T.test_x.sandbox.json"


def test_the_file_sits_in_a_folder_per_test_module() -> None:
    path = cassette_path(Path("/p/tests/test_desk.py"), "test_x", ["TestA"])

    assert path == Path("/p/tests/cassettes/test_desk/TestA.test_x.json")
