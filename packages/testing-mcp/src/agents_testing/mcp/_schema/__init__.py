"""Checking call arguments and results against the tool's JSON schemas."""
