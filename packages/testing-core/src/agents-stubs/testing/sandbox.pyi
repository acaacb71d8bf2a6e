"""Types of ``agents.testing.sandbox`` as the agents-testing import bridge serves it."""

from agents_testing.sandbox import *
