"""Types of ``agents.testing`` as the agents-testing import bridge serves it."""

from agents_testing.model import *
from agents_testing.sandbox import *
