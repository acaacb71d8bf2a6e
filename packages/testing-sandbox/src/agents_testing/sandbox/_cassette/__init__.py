"""Sandbox cassettes: recording a real session's calls once and replaying them."""
