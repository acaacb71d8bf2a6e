"""The usage of a run, request by request and per agent, with its cost.

Read from the run's ``raw_responses`` (every model response, each with its ``Usage``;
a run resumed from a ``RunState`` keeps those of earlier legs), the same for
``Runner.run``, ``Runner.run_streamed``, scripted steps and cassette replays. Each
response is given to the agent whose run items it produced (the runner makes them from
the response's own output items).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from agents_testing.core import safe_repr

from .._errors import invalid_argument
from .._script.validation import describe
from .errors import unpriced
from .prices import ModelPrice, checked_prices

__all__ = ["RequestUsage", "UsageReport", "UsageTotals", "usage_report"]

SOURCE_TYPES = (
    "a RunResult, a finished RunResultStreaming, the ApprovalRun of run_with_approvals, "
    "or a sequence of ModelResponse"
)


@dataclasses.dataclass(frozen=True)
class UsageTotals:
    """Requests and tokens added up; ``cost`` is None when no price table was given."""

    requests: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    total_tokens: int = 0
    cached_tokens: int = 0
    reasoning_tokens: int = 0
    cost: float | None = None

    def __add__(self, other: UsageTotals) -> UsageTotals:
        cost = (
            None
            if self.cost is None and other.cost is None
            else (self.cost or 0) + (other.cost or 0)
        )
        return UsageTotals(
            self.requests + other.requests,
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.total_tokens + other.total_tokens,
            self.cached_tokens + other.cached_tokens,
            self.reasoning_tokens + other.reasoning_tokens,
            cost,
        )


@dataclasses.dataclass(frozen=True)
class RequestUsage:
    """One model response: the agent that asked, its model (when known) and its usage."""

    index: int
    agent: str | None
    model: str | None
    usage: UsageTotals


@dataclasses.dataclass(frozen=True)
class UsageReport:
    """A run's usage: ``total``, ``by_agent`` (in the order agents first asked) and
    ``requests`` one by one. ``str()`` is a readable table."""

    total: UsageTotals
    by_agent: dict[str, UsageTotals]
    requests: tuple[RequestUsage, ...]

    def __str__(self) -> str:
        priced = self.total.cost is not None
        header = f"{'':<24} {'requests':>8} {'input':>9} {'cached':>8} {'output':>8} {'total':>9}"
        if priced:
            header += f" {'cost':>10}"
        lines = [header]

        def row(label: str, totals: UsageTotals) -> str:
            line = (
                f"{label[:24]:<24} {totals.requests:>8} {totals.input_tokens:>9} "
                f"{totals.cached_tokens:>8} {totals.output_tokens:>8} {totals.total_tokens:>9}"
            )
            if priced:
                line += f" {totals.cost or 0:>10.6f}"
            return line

        lines.append(row("total", self.total))
        for agent, totals in self.by_agent.items():
            lines.append(row(f"agent {agent}", totals))
        for request in self.requests:
            who = request.agent or "?"
            model = "" if request.model is None else f" {request.model}"
            lines.append(row(f"  #{request.index + 1} {who}{model}", request.usage))
        return "\n".join(lines)


def usage_report(
    source: object,
    *,
    prices: Mapping[str, Any] | None = None,
    model: str | Mapping[str, str] | None = None,
) -> UsageReport:
    """The usage of ``source`` per request and per agent, with the cost when ``prices`` is given.

    ``prices`` maps model names to prices per million tokens; a request's model is its
    agent's model name (``Agent(model="gpt-4.1")``, or a model object's ``model``
    attribute), else ``model`` (a name for every request, or a mapping of agent name to
    model name). A request whose model is unknown or not in the table raises
    :class:`UnpricedModel`.
    """
    table = None if prices is None else checked_prices(prices)
    if model is not None and not isinstance(model, (str, Mapping)):
        raise invalid_argument(
            "model", "a model name or a mapping of agent name to model name", describe(model)
        )
    responses, owners = _responses(source)
    requests: list[RequestUsage] = []
    for index, (response, agent) in enumerate(zip(responses, owners, strict=False)):
        name = _agent_name(agent)
        model_name = _model_name(agent, name, model)
        totals = _totals(response.usage)
        if table is not None:
            price = table.get(model_name) if model_name is not None else None
            if price is None:
                raise unpriced(model_name, name, tuple(table))
            totals = dataclasses.replace(totals, cost=_cost(price, totals))
        requests.append(RequestUsage(index, name, model_name, totals))
    empty = UsageTotals(cost=0.0 if table is not None else None)
    by_agent: dict[str, UsageTotals] = {}
    total = empty
    for request in requests:
        key = request.agent or "?"
        by_agent[key] = by_agent.get(key, empty) + request.usage
        total = total + request.usage
    return UsageReport(total, by_agent, tuple(requests))


def _cost(price: ModelPrice, totals: UsageTotals) -> float:
    return price.cost(totals.input_tokens, totals.cached_tokens, totals.output_tokens)


def _totals(usage: Any) -> UsageTotals:
    input_details = getattr(usage, "input_tokens_details", None)
    output_details = getattr(usage, "output_tokens_details", None)
    return UsageTotals(
        requests=int(getattr(usage, "requests", 0) or 0),
        input_tokens=int(getattr(usage, "input_tokens", 0) or 0),
        output_tokens=int(getattr(usage, "output_tokens", 0) or 0),
        total_tokens=int(getattr(usage, "total_tokens", 0) or 0),
        cached_tokens=int(getattr(input_details, "cached_tokens", 0) or 0),
        reasoning_tokens=int(getattr(output_details, "reasoning_tokens", 0) or 0),
    )


def _responses(source: object) -> tuple[list[Any], list[Any]]:
    """The model responses of ``source`` and, for each, the agent it belongs to (or None)."""
    from agents.items import ModelResponse
    from agents.result import RunResultBase, RunResultStreaming

    from .._approvals.run import ApprovalRun

    if isinstance(source, ApprovalRun):
        source = source.result  # a resumed run keeps the responses of the earlier legs
    if isinstance(source, RunResultStreaming) and not source.is_complete:
        raise invalid_argument(
            "source",
            "a finished run (iterate result.stream_events() to the end first)",
            "a RunResultStreaming that is still running",
        )
    if isinstance(source, RunResultBase):
        responses = list(source.raw_responses)
        return responses, _owners(responses, list(source.new_items), source)
    if isinstance(source, Sequence) and not isinstance(source, (str, bytes)):
        items = list(source)
        if all(isinstance(item, ModelResponse) for item in items):
            return items, [None] * len(items)
    raise invalid_argument("source", SOURCE_TYPES, describe(source))


def _owners(responses: list[Any], items: list[Any], result: Any) -> list[Any]:
    owners: list[Any] = []
    for response in responses:
        outputs = list(response.output)
        owner = None
        for item in items:
            raw = getattr(item, "raw_item", None)
            if any(raw is output for output in outputs) or any(raw == output for output in outputs):
                owner = getattr(item, "agent", None)
                break
        owners.append(owner)
    # A response that made no run item (an empty answer) belongs with the one before it;
    # the last one, with the agent the run ended on.
    for index, owner in enumerate(owners):
        if owner is None and index > 0:
            owners[index] = owners[index - 1]
    if owners and owners[-1] is None:
        owners[-1] = getattr(result, "last_agent", None)
    return owners


def _agent_name(agent: Any) -> str | None:
    name = getattr(agent, "name", None)
    return name if isinstance(name, str) else None


def _model_name(agent: Any, name: str | None, given: str | Mapping[str, str] | None) -> str | None:
    if isinstance(given, str):
        return given
    if isinstance(given, Mapping) and name in given:
        value = given[name]  # type: ignore[index]
        if not isinstance(value, str):
            raise invalid_argument(f"model[{safe_repr(name, 40)}]", "a model name", describe(value))
        return value
    own = getattr(agent, "model", None)
    if isinstance(own, str):
        return own
    named = getattr(own, "model", None)
    return named if isinstance(named, str) else None


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
