"""Checking scripted tool calls against the tools and JSON schemas their model call offered."""
