"""A price table: what a million tokens cost, per model."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any

from agents_testing.core import safe_repr

from .._errors import invalid_argument
from .._script.validation import describe

__all__ = ["ModelPrice", "PriceTable", "checked_prices"]


@dataclasses.dataclass(frozen=True)
class ModelPrice:
    """The price of a million tokens of one model, in the currency of your choice.

    ``cached_input`` prices the cached part of the input (the input price when None);
    reasoning tokens are output tokens and cost ``output``.
    """

    input: float
    output: float
    cached_input: float | None = None

    def cost(self, input_tokens: int, cached_tokens: int, output_tokens: int) -> float:
        """The cost of that many tokens."""
        cached = min(cached_tokens, input_tokens)
        cached_price = self.input if self.cached_input is None else self.cached_input
        return (
            (input_tokens - cached) * self.input
            + cached * cached_price
            + output_tokens * self.output
        ) / 1_000_000


PriceTable = Mapping[str, ModelPrice | Mapping[str, float]]
"""Model name -> ``ModelPrice`` or ``{"input": ..., "output": ..., "cached_input": ...}``."""


def checked_prices(prices: object) -> dict[str, ModelPrice]:
    """The table as ``ModelPrice`` values; ``InvalidModelArgument`` names a bad entry."""
    if not isinstance(prices, Mapping):
        raise invalid_argument(
            "prices", "a mapping of model name to ModelPrice or a price dict", describe(prices)
        )
    table: dict[str, ModelPrice] = {}
    for name, entry in prices.items():
        where = f"prices[{safe_repr(name, 40)}]"
        if not isinstance(name, str):
            raise invalid_argument("prices", "model names (str) as keys", describe(name))
        if isinstance(entry, Mapping):
            unknown = [key for key in entry if key not in ("input", "output", "cached_input")]
            if unknown or "input" not in entry or "output" not in entry:
                raise invalid_argument(
                    where,
                    "a dict with 'input' and 'output' (and optionally 'cached_input'): "
                    "prices per million tokens",
                    describe(entry),
                )
            entry = ModelPrice(entry["input"], entry["output"], entry.get("cached_input"))
        if not isinstance(entry, ModelPrice):
            raise invalid_argument(where, "a ModelPrice or a price dict", describe(entry))
        for field in ("input", "output", "cached_input"):
            value: Any = getattr(entry, field)
            if value is None and field == "cached_input":
                continue
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not math.isfinite(value)
                or value < 0
            ):
                raise invalid_argument(
                    f"{where}.{field}", "a price of 0 or more per million tokens", describe(value)
                )
        table[name] = entry
    return table


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
