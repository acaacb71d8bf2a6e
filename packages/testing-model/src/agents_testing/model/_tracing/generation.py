"""Optional generation spans, so traced runs look like runs against a real model.

A span is made current only while the model's own code (or a test's responder or
stream factory) runs, never across the ``yield`` of a stream: between two events the
runner does its own work, and its spans must not nest under the generation span.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

import agents.exceptions
from agents.items import TResponseOutputItem
from agents.tracing import generation_span
from agents.tracing.scope import Scope
from agents.usage import Usage

from agents_testing.core import safe_repr

if TYPE_CHECKING:
    from agents.tracing.span_data import GenerationSpanData
    from agents.tracing.spans import Span

    from .._call import ModelCall

__all__ = ["NO_TRACE", "REDACTED", "GenerationTrace", "error_message", "start_generation"]


def error_message(error: BaseException) -> str:
    """``TypeName: message`` of an exception, bounded, even when its ``__str__`` fails."""
    try:
        text = str(error)
    except Exception:
        text = safe_repr(error)
    if len(text) > 500:
        text = text[:497] + "..."
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


REDACTED = "Error details are redacted."
"""What a span says instead of an error's text when the call's tracing excludes data."""

# The SDK runtime (0.22 and later) marks the task it cancels for a model timeout with
# the timeout error, under this attribute, so that model spans can record it.
_TIMEOUT_MARKER = "_openai_agents_model_timeout_error"
_TIMEOUT_ERROR: type[BaseException] | None = getattr(agents.exceptions, "ModelTimeoutError", None)


def _text(error: BaseException, include_data: bool) -> str:
    # str() runs only when its result may be exported: an exception's __str__ can have
    # side effects, or carry what redaction keeps out.
    if not include_data:
        return REDACTED
    try:
        return str(error)
    except BaseException:
        return f"Unrenderable {type(error).__name__}"


def _timeout_error() -> BaseException | None:
    """The model timeout cancelling the current task, if the SDK marked one."""
    if _TIMEOUT_ERROR is None:
        return None
    try:
        task = asyncio.current_task()
    except RuntimeError:
        return None
    error = getattr(task, _TIMEOUT_MARKER, None)
    return error if isinstance(error, _TIMEOUT_ERROR) else None


# Every call of an untraced model enters this: one shared, reusable do-nothing block.
_NOTHING: AbstractContextManager[None] = nullcontext()


class _Current:
    """The span made current for one ``with`` block, the previous one restored after."""

    __slots__ = ("_span", "_token")

    def __init__(self, span: Span[GenerationSpanData]) -> None:
        self._span = span
        self._token: Any = None

    def __enter__(self) -> None:
        self._token = Scope.set_current_span(self._span)

    def __exit__(self, *_: object) -> None:
        Scope.reset_current_span(self._token)


class GenerationTrace:
    """The generation span of one call, or a no-op stand-in when tracing is off."""

    __slots__ = ("_include_data", "_span")

    def __init__(self, span: Span[GenerationSpanData] | None, include_data: bool) -> None:
        self._span = span
        self._include_data = include_data

    def current(self) -> AbstractContextManager[None]:
        """Make the span the current one for the duration of the ``with`` block."""
        if self._span is None:
            return _NOTHING
        return _Current(self._span)

    def record_error(self, error: BaseException) -> None:
        """Mark the span failed by ``error``, as the SDK's models mark theirs.

        An ``Exception`` is recorded with its class name and text (or the redaction
        notice when the call's tracing excludes data); a cancellation only when the SDK
        cancelled the call for its model timeout. Recording never raises: what the
        caller sees is always the original error.
        """
        if self._span is None:
            return
        try:
            if isinstance(error, Exception):
                data: dict[str, Any] = {
                    "name": type(error).__name__,
                    "message": _text(error, self._include_data),
                }
            else:
                timeout = _timeout_error()
                if timeout is None:
                    return  # a cancellation or an early close: nothing failed here
                data = {"error": _text(timeout, self._include_data)}
            self._span.set_error({"message": "Error", "data": data})
        except Exception:
            return

    def finish_response(self, output: Sequence[TResponseOutputItem], usage: Usage) -> None:
        """Fill in the output (when data may be included) and the token usage."""
        if self._span is None:
            return
        if self._include_data:
            self._span.span_data.output = [
                dict(item) if isinstance(item, dict) else item.model_dump() for item in output
            ]
        self._span.span_data.usage = {
            "input_tokens": usage.input_tokens,
            "output_tokens": usage.output_tokens,
        }

    def end(self) -> None:
        """Finish the span (it is never left current)."""
        if self._span is not None:
            self._span.finish(reset_current=False)


NO_TRACE = GenerationTrace(None, False)
"""The trace of a call that makes no span: every method does nothing."""


def start_generation(
    *, enabled: bool, include_data: bool, call: ModelCall, model_name: str
) -> GenerationTrace:
    """Start a generation span for ``call`` when ``enabled``; a no-op trace otherwise."""
    if not enabled:
        return NO_TRACE
    # Made whatever the call's tracing mode: that mode decides only what the span may
    # hold, and the trace provider decides whether it is recorded at all.
    model_input: Any = None
    if include_data:
        value = call.input
        model_input = [{"role": "user", "content": value}] if isinstance(value, str) else value
    span = generation_span(
        model=model_name,
        model_config=call.model_settings.to_json_dict(),
        input=model_input,
    )
    span.start(mark_as_current=False)
    return GenerationTrace(span, include_data)
