"""Errors of usage budgets: a budget exceeded, and a model the price table lacks."""

from __future__ import annotations

from typing import Any

from agents_testing.core import error_fields, safe_repr

from .._errors import ModelScriptError

__all__ = ["UnpricedModel", "UsageBudgetExceeded"]


@error_fields
class UsageBudgetExceeded(ModelScriptError, AssertionError):
    """``assert_usage`` found a run over one or more budgets.

    ``exceeded`` maps each budget over its limit (``"max_total_tokens"``, ...) to
    ``(limit, actual)``; ``report`` is the run's :class:`UsageReport`. The message lists
    the budgets, then the usage per agent and per request.
    """

    exceeded: dict[str, tuple[float, float]]
    report: Any

    def __post_init__(self, message: str) -> None:
        super().__post_init__(message)
        self.exceeded = dict(self.exceeded)


@error_fields
class UnpricedModel(ModelScriptError, LookupError):
    """A request's model has no price in the table, or its model name is not known.

    ``model`` is the model name (None when the run does not say which model answered),
    ``agent`` the agent that made the request and ``known_models`` the names the table has.
    """

    model: str | None
    agent: str | None
    known_models: tuple[str, ...]


def unpriced(model: str | None, agent: str | None, known: tuple[str, ...]) -> UnpricedModel:
    """The error for a request whose cost cannot be worked out."""
    who = "an unknown agent" if agent is None else f"agent {safe_repr(agent, 60)}"
    names = ", ".join(safe_repr(name, 40) for name in known) or "none"
    if model is None:
        text = (
            f"Cannot price a request of {who}: the run does not say which model answered "
            f"it (the agent's model is a Model object without a name). Pass model= "
            f"(a name, or a mapping of agent name to model name) to say which price applies "
            f"(the table has {names})."
        )
    else:
        text = (
            f"Cannot price a request of {who}: the price table has no model "
            f"{safe_repr(model, 60)} (it has {names}). Add its price per million tokens, "
            f"e.g. prices={{{safe_repr(model, 60)}: ModelPrice(input=..., output=...)}}."
        )
    return UnpricedModel(text, model=model, agent=agent, known_models=known)


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
