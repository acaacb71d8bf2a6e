"""Scrubbing recorded content and scanning it for secrets before a cassette is written."""

from __future__ import annotations

import pickle
import re
from typing import Any

import pytest

from agents_testing.core import CassetteError, CassetteSecretError, SecretFinding
from agents_testing.core.cassette import scan_for_secrets, scrub, scrubber_problem

from ..._secret_samples import SAMPLES, Sample

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


def test_a_secret_in_a_key_is_found_without_spelling_it_out_there_or_below() -> None:
    findings = scan_for_secrets({"a": {KEY: {"b": f"also {KEY}"}}}, root="x")

    assert findings == [
        SecretFinding("x.a (a key)", "an OpenAI-style API key (sk-...)"),
        SecretFinding("x.a.<secret key>.b", "an OpenAI-style API key (sk-...)"),
    ]


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


@pytest.mark.parametrize("sample", SAMPLES, ids=[sample.id for sample in SAMPLES])
def test_every_known_secret_format_is_found_by_its_name(sample: Sample) -> None:
    data = {"calls": [{"response": {"text": f"Here: {sample.text}."}}]}

    findings = scan_for_secrets(data["calls"], root="calls")

    assert findings == [SecretFinding("calls[0].response.text", sample.kind)]
    message = str(CassetteSecretError("c.json", findings))
    assert sample.secret not in message
    assert "calls[0].response.text: " + sample.kind in message


@pytest.mark.parametrize(
    ("field", "kind"),
    [
        ("Authorization", "an Authorization header value"),
        ("proxy-authorization", "an Authorization header value"),
        ("api-key", "an api-key header value"),
        ("X-API-Key", "an api-key header value"),
        ("x-goog-api-key", "an api-key header value"),
        ("Ocp-Apim-Subscription-Key", "an Azure subscription key (Ocp-Apim-Subscription-Key)"),
        ("AWS_SECRET_ACCESS_KEY", "an AWS secret access key"),
    ],
)
def test_a_header_like_field_is_a_secret_whatever_its_value(field: str, kind: str) -> None:
    data = {"headers": {field: "opaque-value-1", "Accept": "application/json"}}

    assert scan_for_secrets(data) == [SecretFinding(f"headers.{field}", kind)]


def test_redacted_header_values_are_not_findings() -> None:
    data = {"extra_headers": {"Authorization": "<redacted>", "api-key": "<scrubbed>"}}
    assert scan_for_secrets(data) == []


def test_an_allow_list_lets_exact_values_and_whole_patterns_through() -> None:
    example = "AKIA" + "IOSFODNN7EXAMPLE"
    other = "AKIA" + "Z" * 16
    data = {"a": f"id {example}", "b": f"id {other}", "h": {"Authorization": "Basic dGVzdA=="}}

    assert scan_for_secrets(data, allowed=[example]) == [
        SecretFinding("b", "an AWS access key id (AKIA...)"),
        SecretFinding("h.Authorization", "an Authorization header value"),
    ]
    assert scan_for_secrets(data, allowed=[re.compile(r"AKIA[A-Z0-9]{16}"), "dGVzdA=="]) == []
    # A pattern must match the whole value: a part is not enough.
    assert len(scan_for_secrets(data, allowed=[re.compile("AKIA")])) == 3


def test_an_allowed_value_does_not_hide_another_secret_in_the_same_string() -> None:
    example = "AKIA" + "IOSFODNN7EXAMPLE"
    text = f"{example} and {KEY}"

    assert scan_for_secrets([text], allowed=[example]) == [
        SecretFinding("[0]", "an OpenAI-style API key (sk-...)")
    ]


@pytest.mark.parametrize("entry", [3, b"AKIA", ""])
def test_an_allow_list_entry_of_the_wrong_kind_is_refused(entry: object) -> None:
    with pytest.raises(CassetteError, match="Invalid allowed secret: an allowed secret"):
        scan_for_secrets(["x"], allowed=[entry])  # type: ignore[list-item]
