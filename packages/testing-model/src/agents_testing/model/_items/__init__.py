"""Builders of the output items a scripted step returns, and the automatic call ids they get."""
