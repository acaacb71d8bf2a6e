"""Normalized Realtime events: their detached copies and the checks on their fields."""
