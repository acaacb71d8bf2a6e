"""Scrubbing recorded content and scanning it for secrets before a cassette is written."""

from __future__ import annotations

import pickle
import re
from typing import Any

import pytest

from agents_testing.core import CassetteError, CassetteSecretError, SecretFinding
from agents_testing.core.cassette import scan_for_secrets, scrub, scrubber_problem

KEY = "sk-proj-" + "a1B2c3D4" * 4


def test_a_key_shaped_string_is_found_with_its_place() -> None:
    data = {"calls": [{"request": {"input": [{"content": f"my key is {KEY}"}]}}]}

    findings = scan_for_secrets(data)

    assert findings == [
        SecretFinding("calls[0].request.input[0].content", "an OpenAI-style API key (sk-...)")
    ]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Authorization: Bearer abcdef0123456789", "a bearer token"),
        ("see https://user:hunter22@example.com/v1", "a URL with credentials"),
    ],
)
def test_bearer_tokens_and_urls_with_credentials_are_found(text: str, kind: str) -> None:
    assert scan_for_secrets([text]) == [SecretFinding("[0]", kind)]


def test_the_live_key_is_found_even_without_a_known_shape() -> None:
    findings = scan_for_secrets({"a": "xx-live-value-42"}, live_secrets=["live-value-42"])
    assert findings == [SecretFinding("a", "the live API key or client secret")]


def test_ordinary_text_and_short_values_are_not_findings() -> None:
    data = {"text": "Ask for a task-list of sk- items", "n": 3, "none": None}
    assert scan_for_secrets(data, live_secrets=["", "short"]) == []


def test_a_secret_in_a_key_is_found() -> None:
    assert scan_for_secrets({KEY: 1}, root="x")[0].location == f"x.{KEY} (key)"


def test_scrubbers_rewrite_every_string_in_order() -> None:
    data: dict[str, Any] = {"a": ["call 555-1234", {"b": "token=abc"}], "n": 1}

    cleaned = scrub(
        data,
        [r"\d{3}-\d{4}", (re.compile(r"token=\w+"), "token=***"), str.upper],
    )

    assert cleaned == {"a": ["CALL <SCRUBBED>", {"b": "TOKEN=***"}], "n": 1}
    assert data["a"][0] == "call 555-1234"


def test_a_scrubber_must_return_a_string() -> None:
    with pytest.raises(CassetteError, match="must return a str"):
        scrub(["x"], [lambda text: None])  # type: ignore[list-item, return-value]


@pytest.mark.parametrize(
    ("scrubber", "problem"),
    [
        ("(unclosed", "not a valid regular expression"),
        (("a", 1), "(regex, replacement string)"),
        (3, "got int"),
    ],
)
def test_invalid_scrubbers_are_described(scrubber: object, problem: str) -> None:
    text = scrubber_problem(scrubber)
    assert text is not None
    assert problem in text
    with pytest.raises(CassetteError, match="Invalid scrubber"):
        scrub(["x"], [scrubber])  # type: ignore[list-item]


def test_the_refusal_names_each_place_but_never_the_secret() -> None:
    findings = [SecretFinding(f"calls[{n}].x", "a bearer token") for n in range(25)]

    error = CassetteSecretError("c.json", findings)

    assert "calls[0].x: a bearer token" in str(error)
    assert "... and 5 more" in str(error)
    assert "allow_secrets=True" in str(error)
    assert pickle.loads(pickle.dumps(error)).findings == error.findings
