"""Input guardrails: what never reaches a model."""

from __future__ import annotations

import re
from typing import Any

from agents import (
    Agent,
    GuardrailFunctionOutput,
    RunContextWrapper,
    TResponseInputItem,
    input_guardrail,
)

# 13 to 19 digits, optionally grouped by spaces or dashes: the shape of a payment card number.
_CARD_NUMBER = re.compile(r"\b(?:\d[ -]?){12,18}\d\b")


def _text_of(item: TResponseInputItem) -> str:
    content = item.get("content") if isinstance(item, dict) else None
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return ""


def contains_card_number(text: str) -> bool:
    """Whether ``text`` holds something shaped like a payment card number."""
    return _CARD_NUMBER.search(text) is not None


# Blocking, not parallel: a card number must be stopped before any model sees it.
@input_guardrail(name="no_card_numbers", run_in_parallel=False)
def no_card_numbers(
    ctx: RunContextWrapper[Any],
    agent: Agent[Any],
    user_input: str | list[TResponseInputItem],
) -> GuardrailFunctionOutput:
    """Trip when the customer types a payment card number into the chat."""
    texts = [user_input] if isinstance(user_input, str) else [_text_of(i) for i in user_input]
    found = any(contains_card_number(text) for text in texts)
    return GuardrailFunctionOutput(
        output_info={"reason": "payment card number in chat"} if found else None,
        tripwire_triggered=found,
    )
