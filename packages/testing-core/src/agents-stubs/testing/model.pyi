"""Types of ``agents.testing.model`` as the agents-testing import bridge serves it."""

from agents_testing.model import *
