"""What the card-number guardrail treats as a payment card number."""

from __future__ import annotations

import pytest
from travel_desk import contains_card_number


@pytest.mark.parametrize(
    "text",
    ["4111111111111111", "Charge 4111 1111 1111 1111 please", "5500-0000-0000-0004"],
)
def test_card_numbers_are_recognised_however_they_are_grouped(text: str) -> None:
    assert contains_card_number(text)


@pytest.mark.parametrize(
    "text",
    ["Booking BK0001", "Call me on +44 20 7946 0958", "Flight TD101 on 2026-12-24"],
)
def test_references_phone_numbers_and_dates_are_not_card_numbers(text: str) -> None:
    assert not contains_card_number(text)
