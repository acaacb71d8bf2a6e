"""Detached copies of what crosses the session: call arguments, results and streams."""
