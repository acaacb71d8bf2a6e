"""The fault builders: production failures of a model provider, checked when built.

Each returns a ``ModelStep`` to script where a call should fail (or a :class:`ModelFault`
for a :class:`FaultSchedule`, where the step it needs is the model's next one). Every
argument is checked here, so a bad one raises :class:`InvalidModelArgument` naming it
where the test wrote it, not in the middle of a run.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, overload

from agents_testing.core import safe_repr, seconds_problem

from .._errors import InvalidModelStep, invalid_argument
from .._script.validation import describe
from .._step import ModelStep
from .fault import FaultKind, ModelFault, RetryAdviceChoice

if TYPE_CHECKING:
    from agents.items import TResponseStreamEvent

    from .._step import StepInput

__all__ = [
    "SERVER_ERROR_STATUSES",
    "answer_after",
    "connection_reset",
    "rate_limit",
    "request_timeout",
    "server_error",
    "stream_cut",
]

SERVER_ERROR_STATUSES: dict[int, str] = {
    500: "The server had an error while processing your request. Sorry about that!",
    502: "Bad gateway.",
    503: "The server is overloaded or not ready yet.",
    504: "Gateway timeout.",
}
"""The statuses ``server_error`` scripts, with the message each answers with by default."""

_RATE_LIMIT_MESSAGE = "Rate limit reached for requests. Please try again later."
_OPENAI = "openai"
# What the provider sends with every answer; the client exposes it as ``request_id``.
_REQUEST_ID = "req_scripted_fault"


def rate_limit(
    *,
    retry_after: float | None = 1.0,
    message: str = _RATE_LIMIT_MESSAGE,
    headers: Mapping[str, str] | None = None,
    delay: float = 0.0,
    retry_advice: RetryAdviceChoice = "openai",
) -> ModelStep:
    """A call the provider refuses with HTTP 429: the client's ``openai.RateLimitError``.

    ``retry_after`` is the ``Retry-After`` header in seconds (``None``: no header), which
    the SDK's retry policies read; ``headers`` adds or replaces response headers
    (``{"x-should-retry": "false"}``); ``delay`` is how long the call waits before the
    answer comes; ``retry_advice`` is what the model advises (by default what the SDK's
    OpenAI models advise for this error).
    """
    name = "rate_limit"
    retry_after = _optional_seconds(name, "retry_after", retry_after)
    message = _text(name, "message", message)
    delay = _seconds(name, "delay", delay)
    retry_advice = _advice(name, retry_advice)
    shown = _shown(
        name,
        retry_after=(retry_after, 1.0),
        message=(message, _RATE_LIMIT_MESSAGE),
        headers=(headers, None),
        delay=(delay, 0.0),
        retry_advice=(retry_advice, "openai"),
    )
    return _step(
        _http_fault(
            "rate_limit",
            shown,
            429,
            retry_after,
            message,
            "requests",
            "rate_limit_exceeded",
            headers,
            delay,
            retry_advice,
        )
    )


def server_error(
    status: int = 500,
    *,
    message: str | None = None,
    retry_after: float | None = None,
    headers: Mapping[str, str] | None = None,
    delay: float = 0.0,
    retry_advice: RetryAdviceChoice = "openai",
) -> ModelStep:
    """A call the provider fails with HTTP ``status`` (500, 502, 503 or 504): the client's
    ``openai.InternalServerError``.

    ``message`` replaces the provider's usual text for that status; ``retry_after``,
    ``headers``, ``delay`` and ``retry_advice`` are as for :func:`rate_limit`.
    """
    name = "server_error"
    if isinstance(status, bool) or status not in SERVER_ERROR_STATUSES:
        raise invalid_argument(
            f"{name}(status)",
            "one of " + ", ".join(str(known) for known in SERVER_ERROR_STATUSES),
            describe(status),
        )
    retry_after = _optional_seconds(name, "retry_after", retry_after)
    text = SERVER_ERROR_STATUSES[status] if message is None else _text(name, "message", message)
    delay = _seconds(name, "delay", delay)
    retry_advice = _advice(name, retry_advice)
    shown = _shown(
        name,
        status=(status, 500),
        message=(message, None),
        retry_after=(retry_after, None),
        headers=(headers, None),
        delay=(delay, 0.0),
        retry_advice=(retry_advice, "openai"),
    )
    return _step(
        _http_fault(
            "server_error",
            shown,
            status,
            retry_after,
            text,
            "server_error",
            None,
            headers,
            delay,
            retry_advice,
        )
    )


def request_timeout(*, delay: float = 0.0, retry_advice: RetryAdviceChoice = "openai") -> ModelStep:
    """A call whose HTTP request times out: the client's ``openai.APITimeoutError``
    (``Request timed out.``), caused by the HTTP library's ``ReadTimeout``.

    ``delay`` is how long the request ran before it timed out (the client's own timeout,
    600 s by default); ``retry_advice`` as for :func:`rate_limit`.
    """
    return _step(_plain_fault("request_timeout", delay, retry_advice))


def connection_reset(
    *, delay: float = 0.0, retry_advice: RetryAdviceChoice = "openai"
) -> ModelStep:
    """A call whose connection the peer resets: the client's ``openai.APIConnectionError``
    (``Connection error.``), caused by the HTTP library's ``ReadError``.

    ``delay`` and ``retry_advice`` as for :func:`rate_limit`.
    """
    return _step(_plain_fault("connection_reset", delay, retry_advice))


@overload
def stream_cut(
    after: int, *, delay: float = 0.0, retry_advice: RetryAdviceChoice = "openai"
) -> ModelFault: ...


@overload
def stream_cut(
    after: int,
    step: StepInput,
    *,
    delay: float = 0.0,
    retry_advice: RetryAdviceChoice = "openai",
) -> ModelStep: ...


def stream_cut(
    after: int,
    step: StepInput | None = None,
    *,
    delay: float = 0.0,
    retry_advice: RetryAdviceChoice = "openai",
) -> ModelStep | ModelFault:
    """A streamed answer whose connection drops after ``after`` events, before
    ``response.completed``: the stream raises what the installed client raises then
    (openai 3: ``openai.APIConnectionError``; openai 2: the HTTP library's
    ``RemoteProtocolError``). A call that does not stream gets the client's
    ``APIConnectionError`` for a body cut short.

    The events are those ``step`` streams (output items, or ``ModelStep.stream`` with a
    list of events); the step is refused if it has ``after`` events or fewer. Without
    ``step`` it is a :class:`ModelFault` for a :class:`FaultSchedule`, which streams the
    model's next scripted step. ``delay`` is how long the stream takes to start.
    """
    name = "stream_cut"
    if isinstance(after, bool) or not isinstance(after, int) or after < 0:
        raise invalid_argument(f"{name}(after)", "a number of events, an int >= 0", describe(after))
    delay = _seconds(name, "delay", delay)
    retry_advice = _advice(name, retry_advice)
    events: list[TResponseStreamEvent] | None = None
    queued: ModelStep | None = None
    if step is not None:
        queued = _checked_step(name, step)
        events = _events_of(name, queued)
        if after >= len(events):
            raise invalid_argument(
                f"{name}(after)",
                f"fewer events than the {len(events)} the step streams (at most "
                f"{len(events) - 1}: the connection drops before the stream ends)",
                str(after),
            )
    shown = _shown(
        name,
        after=(after, None),
        step=(step, None),
        delay=(delay, 0.0),
        retry_advice=(retry_advice, "openai"),
    )
    fault = ModelFault(
        "stream_cut",
        shown,
        delay=delay,
        after=after,
        step=queued,
        events=None if events is None else events[:after],
        retry_advice=retry_advice,
    )
    return fault if step is None else _step(fault)


@overload
def answer_after(seconds: float) -> ModelFault: ...


@overload
def answer_after(seconds: float, step: StepInput) -> ModelStep: ...


def answer_after(seconds: float, step: StepInput | None = None) -> ModelStep | ModelFault:
    """A slow answer: the call waits ``seconds``, then is answered by ``step``.

    The wait is ``scripted_wait``: virtual time under the clock (listed in
    ``clock.delays``), and an SDK model timeout
    (``ModelSettings(timeout=...)``) shorter than it ends the call as it would end a slow
    provider's. Without ``step`` it is a :class:`ModelFault` for a :class:`FaultSchedule`:
    the call waits, then takes the model's next scripted step.
    """
    name = "answer_after"
    seconds = _seconds(name, "seconds", seconds)
    queued = None if step is None else _checked_step(name, step)
    shown = _shown(name, seconds=(seconds, None), step=(step, None))
    fault = ModelFault("answer_after", shown, delay=seconds, step=queued, retry_advice=None)
    return fault if step is None else _step(fault)


# -- checks and assembly ----------------------------------------------------------------


def _step(fault: ModelFault) -> ModelStep:
    return ModelStep.respond(fault)


def _http_fault(
    kind: FaultKind,
    shown: str,
    status: int,
    retry_after: float | None,
    message: str,
    error_type: str,
    code: str | None,
    headers: Mapping[str, str] | None,
    delay: float,
    retry_advice: RetryAdviceChoice,
) -> ModelFault:
    answer_headers = {"x-request-id": _REQUEST_ID}
    if retry_after is not None:
        answer_headers["retry-after"] = _header_seconds(retry_after)
    answer_headers.update(_headers(kind, headers))
    body = {"error": {"message": message, "type": error_type, "param": None, "code": code}}
    return ModelFault(
        kind,
        shown,
        delay=delay,
        status=status,
        headers=answer_headers,
        body=body,
        retry_advice=retry_advice,
    )


def _plain_fault(kind: FaultKind, delay: object, retry_advice: object) -> ModelFault:
    checked_delay = _seconds(kind, "delay", delay)
    checked_advice = _advice(kind, retry_advice)
    shown = _shown(kind, delay=(checked_delay, 0.0), retry_advice=(checked_advice, "openai"))
    return ModelFault(kind, shown, delay=checked_delay, retry_advice=checked_advice)


def _seconds(builder: str, argument: str, value: object) -> float:
    problem = seconds_problem(value)
    if problem is not None:
        raise invalid_argument(f"{builder}({argument})", problem.expected, problem.got)
    return float(value)  # type: ignore[arg-type]


def _optional_seconds(builder: str, argument: str, value: object) -> float | None:
    return None if value is None else _seconds(builder, argument, value)


def _header_seconds(seconds: float) -> str:
    # As servers write it: whole seconds without a fraction.
    return str(int(seconds)) if seconds == int(seconds) else repr(seconds)


def _text(builder: str, argument: str, value: object) -> str:
    if not isinstance(value, str):
        raise invalid_argument(f"{builder}({argument})", "a str", describe(value))
    return value


def _headers(builder: str, headers: object) -> dict[str, str]:
    if headers is None:
        return {}
    if not isinstance(headers, Mapping) or not all(
        isinstance(key, str) and isinstance(value, str) for key, value in headers.items()
    ):
        raise invalid_argument(
            f"{builder}(headers)", "a mapping of header names to str values", describe(headers)
        )
    return {key.lower(): value for key, value in headers.items()}


def _advice(builder: str, choice: object) -> RetryAdviceChoice:
    from agents.retry import ModelRetryAdvice

    if choice is None or isinstance(choice, ModelRetryAdvice):
        return choice
    if isinstance(choice, str) and choice == _OPENAI:
        return "openai"
    raise invalid_argument(
        f"{builder}(retry_advice)",
        '"openai", an agents.ModelRetryAdvice or None',
        describe(choice),
    )


def _checked_step(builder: str, step: object) -> ModelStep:
    from .._script.normalize import normalize_step

    try:
        return normalize_step(step, 0).step
    except InvalidModelStep as error:
        detail = error.detail.rstrip(".")
        got = detail[4:] if detail.startswith("got ") else f"{describe(step)}: {detail}"
        raise invalid_argument(f"{builder}(step)", "a step", got) from error


def _events_of(builder: str, step: ModelStep) -> list[TResponseStreamEvent]:
    """The events ``step`` streams, known now: its own list, or its automatic stream."""
    from agents.exceptions import ModelBehaviorError

    from .._streaming.for_step import _stream_events_for_step

    if step.responder is not None or step.error is not None or callable(step.stream_events):
        raise invalid_argument(
            f"{builder}(step)",
            "a step whose events are known when it is built (output items, or "
            "ModelStep.stream with a list of events)",
            "a responder step"
            if step.responder is not None
            else "an error step"
            if step.error is not None
            else "a ModelStep.stream factory",
        )
    if step.stream_events is not None:
        return list(step.stream_events)
    try:
        return _stream_events_for_step(step, preserve_raw_usage=False)
    except ModelBehaviorError as error:
        raise invalid_argument(f"{builder}(step)", "a step that streams", str(error)) from error


def _shown(name: str, **arguments: tuple[object, object]) -> str:
    """How the builder call reads, with the arguments that differ from their defaults."""
    parts = [
        f"{key}={safe_repr(value, 60)}"
        for key, (value, default) in arguments.items()
        if value is not default and value != default
    ]
    return f"{name}({', '.join(parts)})"


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
