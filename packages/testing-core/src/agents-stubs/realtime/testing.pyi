"""Types of ``agents.realtime.testing`` as the agents-testing import bridge serves it."""

from agents_testing.realtime import *
