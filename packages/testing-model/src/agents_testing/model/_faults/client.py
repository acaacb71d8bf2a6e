"""The errors a model fault raises, made by the installed ``openai`` client itself.

Each fault sends one request through a real ``AsyncOpenAI`` client whose HTTP transport
is in memory (the HTTP library's own ``MockTransport``): the transport answers with the
fault's status, headers and body, raises the transport error of a timeout or a reset
connection, or cuts the body short; the client turns that into its exception as it does
in production. So the class, message, response, headers, body and chained cause are those
of the installed release — openai 2 runs on httpx and lets a stream cut through as the
transport's error; openai 3 runs on httpx2, words status errors differently and wraps a
cut stream in ``APIConnectionError`` — with no network and no API key. The client's own
retries are off: what the test scripts is what reaches the SDK's runner, which decides.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from agents.retry import ModelRetryAdvice, ModelRetryAdviceRequest
    from openai import AsyncOpenAI

__all__ = ["BASE_URL", "Failure", "client_error", "openai_advice"]

Failure = Literal["status", "timeout", "reset", "cut"]
"""How the request fails: an HTTP error status, a read timeout, a reset connection, or a
body cut short (the connection closed before the answer was complete)."""

BASE_URL = "https://api.openai.com/v1"
# Never sent anywhere (the transport is in memory); not a key of any known format.
_PLACEHOLDER_KEY = "scripted-fault"

_http_module: ModuleType | None = None
_advice_model: Any = None


def _http() -> ModuleType:
    """The HTTP library the installed openai client is built on (``httpx``, or ``httpx2``)."""
    global _http_module
    if _http_module is None:
        import openai

        for base in openai.DefaultAsyncHttpxClient.__mro__:
            root = base.__module__.partition(".")[0]
            if root in ("httpx", "httpx2"):
                _http_module = importlib.import_module(root)
                break
        else:  # pragma: no cover - every openai release so far is built on one of them
            raise RuntimeError(
                "The installed openai client is built on neither httpx nor httpx2, so its "
                "errors cannot be made without a network; please report this."
            )
    return _http_module


def _client(handler: Callable[[Any], Any]) -> AsyncOpenAI:
    import openai

    http = _http()
    return openai.AsyncOpenAI(
        api_key=_PLACEHOLDER_KEY,
        base_url=BASE_URL,
        max_retries=0,
        http_client=openai.DefaultAsyncHttpxClient(transport=http.MockTransport(handler)),
    )


def _cut_body(http: ModuleType, sent: bytes) -> Any:
    """A response body that sends ``sent`` and then loses its connection."""

    class CutBody(http.AsyncByteStream):  # type: ignore[misc, name-defined]
        async def __aiter__(self) -> Any:
            if sent:
                yield sent
            raise http.RemoteProtocolError(
                "peer closed connection without sending complete message body "
                "(incomplete chunked read)"
            )

        async def aclose(self) -> None:
            return None

    return CutBody()


async def client_error(
    failure: Failure,
    *,
    streamed: bool,
    status: int = 200,
    headers: Iterable[tuple[str, str]] = (),
    body: Mapping[str, Any] | None = None,
) -> Exception:
    """What the installed client raises when a Responses request fails as ``failure`` says.

    ``streamed`` sends a streaming request (and, for a cut, reads the stream), as the
    SDK's models do for ``Runner.run_streamed``.
    """
    import openai

    http = _http()

    def answer(request: Any) -> Any:
        if failure == "timeout":
            raise http.ReadTimeout("The read operation timed out", request=request)
        if failure == "reset":
            raise http.ReadError("[Errno 104] Connection reset by peer", request=request)
        if failure == "cut":
            kind = "text/event-stream" if streamed else "application/json"
            sent = b"" if streamed else b'{"id": "resp_'
            return http.Response(
                200, headers={"content-type": kind}, stream=_cut_body(http, sent), request=request
            )
        return http.Response(status, headers=list(headers), json=dict(body or {}), request=request)

    client = _client(answer)
    try:
        if streamed:
            stream = await client.post(
                "/responses",
                cast_to=object,
                body={"stream": True},
                stream=True,
                stream_cls=openai.AsyncStream[object],
            )
            async for _ in stream:
                pass
        else:
            await client.post("/responses", cast_to=object, body={})
    except Exception as error:
        return error
    finally:
        await client.close()
    raise AssertionError(f"the openai client did not fail for a {failure} answer")


def openai_advice(request: ModelRetryAdviceRequest) -> ModelRetryAdvice | None:
    """The retry advice the SDK's own OpenAI models give for ``request``'s error.

    Asked of a real ``OpenAIResponsesModel`` (whose client is never used), so the advice
    follows the installed SDK: suggested for timeouts, network errors, 408, 409, 429 and
    5xx, with ``Retry-After``, ``x-should-retry`` and replay safety as it reads them.
    """
    global _advice_model
    if _advice_model is None:
        from agents.models.openai_responses import OpenAIResponsesModel

        _advice_model = OpenAIResponsesModel("gpt-4.1", openai_client=_client(_refuse))
    advice: ModelRetryAdvice | None = _advice_model.get_retry_advice(request)
    return advice


def _refuse(request: Any) -> Any:
    raise AssertionError("the client that gives retry advice sends no request")
