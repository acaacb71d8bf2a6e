"""Usage budgets: a run's requests, tokens and cost, per agent and per request."""
