"""Trajectory assertions: which tools and handoffs a run took, matched against an expectation."""
