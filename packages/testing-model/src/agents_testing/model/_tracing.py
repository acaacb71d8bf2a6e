"""Optional generation spans, so traced runs look like runs against a real model."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from agents.items import TResponseOutputItem
from agents.tracing import generation_span
from agents.usage import Usage

if TYPE_CHECKING:
    from agents.tracing.span_data import GenerationSpanData
    from agents.tracing.spans import Span

    from ._call import ModelCall

__all__ = ["generation_tracing"]


class _SpanHandle:
    """Lets the model fill in the output of the current generation span, if any."""

    __slots__ = ("_include_data", "_span")

    def __init__(self, span: Span[GenerationSpanData] | None, include_data: bool) -> None:
        self._span = span
        self._include_data = include_data

    def finish_response(self, output: Sequence[TResponseOutputItem], usage: Usage) -> None:
        if self._span is None:
            return
        if self._include_data:
            self._span.span_data.output = [item.model_dump() for item in output]
        self._span.span_data.usage = {
            "input_tokens": usage.input_tokens,
            "output_tokens": usage.output_tokens,
        }


@contextmanager
def generation_tracing(
    *, enabled: bool, include_data: bool, call: ModelCall, model_name: str
) -> Iterator[_SpanHandle]:
    """A generation span around one call when ``enabled``; a no-op handle otherwise."""
    if not enabled:
        yield _SpanHandle(None, False)
        return
    model_input: Any = None
    if include_data:
        value = call.input
        model_input = [{"role": "user", "content": value}] if isinstance(value, str) else value
    with generation_span(
        model=model_name,
        model_config=call.model_settings.to_json_dict(),
        input=model_input,
    ) as span:
        try:
            yield _SpanHandle(span, include_data)
        except GeneratorExit:
            # The consumer stopped reading a stream early; that is not a model error.
            raise
        except BaseException as error:
            span.set_error({"message": f"{type(error).__name__}: {error}", "data": None})
            raise
