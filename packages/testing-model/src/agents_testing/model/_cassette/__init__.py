"""Cassettes: recording a real model's calls once and replaying them as a scripted model."""
