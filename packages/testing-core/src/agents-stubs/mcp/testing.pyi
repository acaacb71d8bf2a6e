"""Types of ``agents.mcp.testing`` as the agents-testing import bridge serves it."""

from agents_testing.mcp import *
