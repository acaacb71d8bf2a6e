"""Capturing the SDK's traces and spans in memory, uploading nothing."""
