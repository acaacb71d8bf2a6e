"""Cost of the JSON Schema check that guards scripted tool calls, per call.

``agents_testing.core.json_schema.first_violation`` judges the arguments of every
scripted function call when ``check_tool_calls`` is on. It runs on ``jsonschema``; the
baseline is ``jsonschema`` itself, used plainly (``Draft202012Validator(schema)`` then
``is_valid`` for a valid call, ``best_match(iter_errors(...))`` for an invalid one), so
the ratio is what our ordering, paths and messages add. Two schemas, as the SDK's
``function_tool`` builds them: one string parameter, and nested pydantic models with a
list, a literal, an optional field and numeric bounds.

Run: ``uv run --no-sync python benchmarks/bench_json_schema.py [--calls N] [--repeat R]``
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any, Literal

from agents import function_tool
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from pydantic import BaseModel, Field

from agents_testing.core.json_schema import first_violation


class Stop(BaseModel):
    name: str = Field(min_length=1, max_length=20)
    minutes: int = Field(ge=0, le=600)


class Route(BaseModel):
    stops: list[Stop]
    mode: Literal["walk", "ride"]
    note: str | None = None


def plan(route: Route, tags: list[str], limit: int | None = None) -> str:
    """Plan a route."""
    return ""


def weather(city: str) -> str:
    """Return the weather for a city."""
    return city


CASES: list[tuple[str, dict[str, Any], Any]] = [
    ("weather, valid", function_tool(weather).params_json_schema, {"city": "Tokyo"}),
    ("weather, invalid", function_tool(weather).params_json_schema, {"town": "Tokyo"}),
    (
        "route, valid",
        function_tool(plan).params_json_schema,
        {
            "route": {
                "stops": [{"name": "A", "minutes": 3}, {"name": "B", "minutes": 9}],
                "mode": "walk",
                "note": None,
            },
            "tags": ["x"],
            "limit": 3,
        },
    ),
    (
        "route, invalid",
        function_tool(plan).params_json_schema,
        {
            "route": {"stops": [{"name": "A", "minutes": 601}], "mode": "walk", "note": None},
            "tags": [],
            "limit": None,
        },
    ),
]


def _plain(schema: dict[str, Any], value: Any) -> object:
    validator = Draft202012Validator(schema)
    if validator.is_valid(value):
        return None
    return best_match(validator.iter_errors(value))


def _best(function: Callable[[], object], calls: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(calls):
            function()
        best = min(best, (time.perf_counter() - start) / calls)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    print(f"{'case':18} {'jsonschema µs':>14} {'ours µs':>9} {'ratio':>6}")
    for label, schema, value in CASES:
        # Alternate the two, so that a busy machine slows both alike.
        ours = plain = float("inf")
        for _ in range(options.repeat):
            plain = min(plain, _best(lambda s=schema, v=value: _plain(s, v), options.calls, 1))
            ours = min(
                ours, _best(lambda s=schema, v=value: first_violation(v, s), options.calls, 1)
            )
        print(f"{label:18} {plain * 1e6:14.1f} {ours * 1e6:9.1f} {ours / plain:5.2f}x")


if __name__ == "__main__":
    main()
