"""The plugin is tested the way pytest plugins are: by running throw-away test files."""

from __future__ import annotations

# numpy's extension cannot be loaded twice in one process, and pytester's inline runs
# forget the modules first imported inside them: import it before any of them runs.
# The same for the SDK's provider models: the request guard finds their classes once
# per process, so a later inline run must see the same class objects, not a re-import.
import agents.models.openai_chatcompletions
import agents.models.openai_responses
import agents.realtime.openai_realtime
import agents.voice.models.openai_stt
import agents.voice.models.openai_tts  # noqa: F401
import numpy  # noqa: F401
import pytest

# pytester is enabled for the whole suite in the root pyproject (addopts).

# The ini every throw-away project gets: strict asyncio like this repository.
INNER_INI = """
[pytest]
asyncio_mode = strict
asyncio_default_fixture_loop_scope = function
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    """A pytester project with the repository's asyncio settings."""
    pytester.makeini(INNER_INI)
    return pytester


# Every real model gets an AsyncOpenAI client whose HTTP transport fails the test the
# moment a request reaches it, so "blocked before any connection" is observable.
PROVIDER_CONFTEST = """
import pytest
from openai import AsyncOpenAI, DefaultAsyncHttpxClient


# An HTTP transport for httpx or httpx2, whichever the installed openai uses.
class NoNetwork:
    def __init__(self):
        self.requests = []

    async def handle_async_request(self, request):
        self.requests.append(str(request.url))
        pytest.fail(f"the network was reached: {request.url}")

    async def aclose(self):
        pass


@pytest.fixture
def transport():
    return NoNetwork()


@pytest.fixture
def client(transport):
    return AsyncOpenAI(
        api_key="sk-test",
        base_url="http://provider.invalid/v1",
        http_client=DefaultAsyncHttpxClient(transport=transport),
        max_retries=0,
    )
"""


@pytest.fixture
def guarded(project: pytest.Pytester) -> pytest.Pytester:
    """A project whose tests get a ``client`` (AsyncOpenAI) on a network-failing ``transport``."""
    project.makeconftest(PROVIDER_CONFTEST)
    return project
