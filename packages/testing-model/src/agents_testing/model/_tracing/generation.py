"""Optional generation spans, so traced runs look like runs against a real model.

A span is made current only while the model's own code (or a test's responder or
stream factory) runs, never across the ``yield`` of a stream: between two events the
runner does its own work, and its spans must not nest under the generation span.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from agents.items import TResponseOutputItem
from agents.tracing import generation_span
from agents.tracing.scope import Scope
from agents.usage import Usage

from agents_testing.core import safe_repr

if TYPE_CHECKING:
    from agents.tracing.span_data import GenerationSpanData
    from agents.tracing.spans import Span

    from .._call import ModelCall

__all__ = ["GenerationTrace", "error_message", "start_generation"]


def error_message(error: BaseException) -> str:
    """``TypeName: message`` of an exception, bounded, even when its ``__str__`` fails."""
    try:
        text = str(error)
    except Exception:
        text = safe_repr(error)
    if len(text) > 500:
        text = text[:497] + "..."
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


class GenerationTrace:
    """The generation span of one call, or a no-op stand-in when tracing is off."""

    __slots__ = ("_include_data", "_span")

    def __init__(self, span: Span[GenerationSpanData] | None, include_data: bool) -> None:
        self._span = span
        self._include_data = include_data

    @contextmanager
    def current(self) -> Iterator[None]:
        """Make the span the current one for the duration of the ``with`` block."""
        if self._span is None:
            yield
            return
        token = Scope.set_current_span(self._span)
        try:
            yield
        finally:
            Scope.reset_current_span(token)

    def record_error(self, error: BaseException) -> None:
        """Mark the span failed with the error's type and message."""
        if self._span is not None:
            self._span.set_error({"message": error_message(error), "data": None})

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


def start_generation(
    *, enabled: bool, include_data: bool, call: ModelCall, model_name: str
) -> GenerationTrace:
    """Start a generation span for ``call`` when ``enabled``; a no-op trace otherwise."""
    if not enabled:
        return GenerationTrace(None, False)
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
