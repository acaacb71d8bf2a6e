"""Checking scripted tool calls against the tools their model call offered."""
