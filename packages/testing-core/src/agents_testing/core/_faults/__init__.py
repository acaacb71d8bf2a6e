"""Faults shared by every boundary: a schedule of calls and checked waits."""
