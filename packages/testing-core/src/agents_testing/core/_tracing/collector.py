"""The tracing processor behind :class:`~agents_testing.core.CapturedTraces`.

Kept apart so that importing core never imports the SDK: this module is loaded only
when a capture starts.
"""

from __future__ import annotations

from typing import Any

from agents.tracing import Span, Trace, TracingProcessor

__all__ = ["TraceCollector"]


class TraceCollector(TracingProcessor):
    """Appends every started trace and span to a capture's lists, in start order; exports
    nothing."""

    def __init__(self, traces: list[Trace], spans: list[Span[Any]]) -> None:
        self._traces = traces
        self._spans = spans

    def on_trace_start(self, trace: Trace) -> None:
        self._traces.append(trace)

    def on_trace_end(self, trace: Trace) -> None:
        return None

    def on_span_start(self, span: Span[Any]) -> None:
        self._spans.append(span)

    def on_span_end(self, span: Span[Any]) -> None:
        return None

    def shutdown(self, timeout: float | None = None) -> None:
        return None

    def force_flush(self) -> None:
        return None
