"""Request diffs of long strings: the window around the change, not two truncated values."""

from __future__ import annotations

from agents_testing.core.cassette import diff_json

PROMPT = "You are the booking agent of the travel desk. " * 6


def test_a_long_string_changed_near_its_end_shows_the_change() -> None:
    lines = diff_json(PROMPT + "Reply in English.", PROMPT + "Reply in French.", "request.x")

    assert lines == [
        f"request.x: differs from character {len(PROMPT) + 10} (line 1): "
        "recorded ...' of the travel desk. Reply in English.', "
        "now ...' of the travel desk. Reply in French.'"
    ]


def test_a_multi_line_string_says_on_which_line_it_changes() -> None:
    recorded = "Rules:\n1. Be brief.\n2. Quote the fare.\n3. Never book twice."
    live = recorded.replace("Quote the fare", "Quote the total fare")

    [line] = diff_json(recorded, live, "request.system_instructions")

    assert line.startswith("request.system_instructions: differs from character 34 (line 3): ")
    assert "recorded ...'es:\\n1. Be brief.\\n2. Quote the fare.\\n3. Never book twice.'" in line
    assert "now ...'es:\\n1. Be brief.\\n2. Quote the total fare.\\n3. Never book twice.'" in line


def test_changes_far_apart_show_the_first_and_count_the_rest() -> None:
    recorded = "Start. " + "filler text " * 20 + "End."
    live = recorded.replace("Start", "Begin").replace("End", "Finish")

    [line] = diff_json(recorded, live, "p")

    assert line.startswith(
        "p: differs from character 1 (line 1), and 1 more change(s) further on: "
    )
    assert "recorded 'Start. filler text filler text fill'..." in line
    assert "now 'Begin. filler text filler text fill'..." in line


def test_a_change_longer_than_the_window_is_cut_after_its_start() -> None:
    recorded = "x" * 100
    live = "x" * 40 + "y" * 200 + "x" * 60

    [line] = diff_json(recorded, live, "p")

    assert f"now ...'{'x' * 30}{'y' * 80}'..." in line


def test_short_strings_keep_the_plain_form() -> None:
    assert diff_json("Paris", "Rome", "p") == ["p: recorded 'Paris', now 'Rome'"]
