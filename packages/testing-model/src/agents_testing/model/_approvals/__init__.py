"""Scripted approval decisions and resumes from RunState."""
