"""A tracing processor that remembers the spans it is given, for tests of tracing."""

from __future__ import annotations

from typing import Any

from agents.tracing import Span, Trace, TracingProcessor


class Recorder(TracingProcessor):
    """A processor of the test's own: remembers every span that ends."""

    def __init__(self) -> None:
        self.spans: list[Span[Any]] = []

    def on_trace_start(self, trace: Trace) -> None:
        pass

    def on_trace_end(self, trace: Trace) -> None:
        pass

    def on_span_start(self, span: Span[Any]) -> None:
        pass

    def on_span_end(self, span: Span[Any]) -> None:
        self.spans.append(span)

    def shutdown(self) -> None:
        pass

    def force_flush(self) -> None:
        pass
