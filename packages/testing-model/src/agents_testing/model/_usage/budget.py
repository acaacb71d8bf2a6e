"""``assert_usage``: budgets on a run's requests, tokens and cost."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from .._errors import invalid_argument
from .._script.validation import describe
from .errors import UsageBudgetExceeded
from .report import UsageReport, UsageTotals, usage_report

__all__ = ["assert_usage"]

_BUDGETS = (
    ("max_requests", "requests", "requests"),
    ("max_input_tokens", "input_tokens", "input tokens"),
    ("max_output_tokens", "output_tokens", "output tokens"),
    ("max_total_tokens", "total_tokens", "total tokens"),
    ("max_cost", "cost", "cost"),
)


def assert_usage(
    source: object,
    *,
    max_requests: int | None = None,
    max_input_tokens: int | None = None,
    max_output_tokens: int | None = None,
    max_total_tokens: int | None = None,
    max_cost: float | None = None,
    prices: Mapping[str, Any] | None = None,
    model: str | Mapping[str, str] | None = None,
    agent: str | None = None,
) -> UsageReport:
    """Assert that the run ``source`` stayed within every budget given; return its report.

    ``source`` is a ``RunResult``, a finished ``RunResultStreaming`` or an ``ApprovalRun``.
    ``agent`` puts the budgets on that agent's requests only. ``max_cost`` needs
    ``prices`` (model name to price per million tokens; see :func:`usage_report` for how a
    request's model is found). A run over a budget raises :class:`UsageBudgetExceeded`
    (an ``AssertionError``) listing each budget exceeded and the usage per agent and request.
    """
    limits = {
        "max_requests": max_requests,
        "max_input_tokens": max_input_tokens,
        "max_output_tokens": max_output_tokens,
        "max_total_tokens": max_total_tokens,
        "max_cost": max_cost,
    }
    for name, limit in limits.items():
        if limit is None:
            continue
        integral = name != "max_cost"
        if (
            isinstance(limit, bool)
            or not isinstance(limit, int if integral else (int, float))
            or (not integral and not math.isfinite(limit))
            or limit < 0
        ):
            kind = "an int" if integral else "a number"
            raise invalid_argument(name, f"{kind} of 0 or more, or None", describe(limit))
    if max_cost is not None and prices is None:
        raise invalid_argument(
            "prices", "a price table (model name to price per million tokens) for max_cost", "None"
        )
    report = usage_report(source, prices=prices, model=model)
    totals = report.total
    if agent is not None:
        if not isinstance(agent, str):
            raise invalid_argument("agent", "an agent name", describe(agent))
        if agent not in report.by_agent:
            raise invalid_argument(
                "agent",
                f"the name of an agent that made requests ({', '.join(report.by_agent) or 'none'})",
                repr(agent),
            )
        totals = report.by_agent[agent]
    exceeded = _exceeded(limits, totals)
    if exceeded:
        raise _budget_failure(exceeded, report, agent)
    return report


def _exceeded(
    limits: dict[str, float | None], totals: UsageTotals
) -> dict[str, tuple[float, float]]:
    found: dict[str, tuple[float, float]] = {}
    for name, field, _ in _BUDGETS:
        limit = limits[name]
        actual = getattr(totals, field)
        if limit is not None and actual is not None and actual > limit:
            found[name] = (limit, actual)
    return found


def _budget_failure(
    exceeded: dict[str, tuple[float, float]], report: UsageReport, agent: str | None
) -> UsageBudgetExceeded:
    scope = "The run" if agent is None else f"Agent {agent!r}"
    words = {name: label for name, _, label in _BUDGETS}
    parts = []
    for name, (limit, actual) in exceeded.items():
        if name == "max_cost":
            parts.append(f"{words[name]} {actual:.6f} > {name}={limit}")
        else:
            parts.append(f"{int(actual)} {words[name]} > {name}={int(limit)}")
    message = (
        f"{scope} is over budget: {'; '.join(parts)}.\n{report}\n"
        "(rows: the run's total, each agent, then each request in order; raise the budget "
        "if the growth is intended.)"
    )
    return UsageBudgetExceeded(message, exceeded=exceeded, report=report)


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
