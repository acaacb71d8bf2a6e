"""Types of ``agents.voice.testing`` as the agents-testing import bridge serves it."""

from agents_testing.voice import *
