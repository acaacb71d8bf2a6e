"""Capture the SDK's traces and spans in memory: :func:`capture_traces`.

While a capture is active, a trace provider of its own is the SDK's global one: it is
switched on whatever the previous provider's switch (the ``scripted_*`` fixtures turn
tracing off) or ``OPENAI_AGENTS_DISABLE_TRACING`` say, it feeds only the capture (no
exporter, so nothing is uploaded), and the previous provider with its processors is
put back on exit.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .._errors import AgentsTestingError
from ..compat import run_loop_span_types

if TYPE_CHECKING:
    from agents.tracing import Span, Trace

__all__ = ["CapturedTraces", "TraceCaptureError", "capture_traces"]

# The fields of each span kind that say what happened; the raw span keeps the rest.
_KEY_FIELDS: dict[str, tuple[str, ...]] = {
    "agent": ("name", "handoffs", "tools", "output_type"),
    "function": ("name", "input", "output", "mcp_data"),
    "generation": ("model",),
    "handoff": ("from_agent", "to_agent"),
    "guardrail": ("name", "triggered"),
    "custom": ("name", "data"),
    "response": ("response_id",),
    "mcp_tools": ("server", "result"),
}


class TraceCaptureError(AgentsTestingError, RuntimeError):
    """A trace capture was used the wrong way (entered while already active)."""


class CapturedTraces:
    """The traces and spans the SDK made while this capture was active.

    ``traces`` and ``spans`` are the SDK's own objects in start order; ``tree`` is the
    normalized span tree (one node per trace, spans nested under their parents) that
    :func:`~agents_testing.core.to_snapshot` also accepts. Use it as a context manager
    (``with capture_traces() as traces:``) or through the ``captured_traces`` fixture.
    """

    def __init__(self) -> None:
        self.traces: list[Trace] = []
        self.spans: list[Span[Any]] = []
        self._previous: Any = None
        self._active = False

    def __enter__(self) -> CapturedTraces:
        if self._active:
            raise TraceCaptureError(
                "This trace capture is already active; leave it before entering it again, "
                "or use a new capture_traces()."
            )
        from ..compat import install_trace_provider
        from .collector import TraceCollector

        self._previous = install_trace_provider([TraceCollector(self.traces, self.spans)])
        self._active = True
        return self

    def __exit__(self, *exc: object) -> None:
        from ..compat import restore_trace_provider

        if self._active:
            self._active = False
            restore_trace_provider(self._previous)
            self._previous = None

    @property
    def active(self) -> bool:
        """Whether spans are being captured right now."""
        return self._active

    @property
    def tree(self) -> list[dict[str, Any]]:
        """One node per trace: ``{"type": "trace", "name": ..., "children": [...]}``.

        A span node has ``type`` (``agent``, ``generation``, ``function``, ``handoff``,
        ``guardrail``, ``custom``, ...), the key data of its kind, ``error`` when the
        span failed and ``children`` when it has any, in start order. Ids and times
        are left out; the structure says what belongs where. The task and turn spans
        of the run loop are left out, their children kept (see :meth:`span_tree`).
        """
        return self.span_tree()

    def span_tree(self, *, run_spans: bool = False) -> list[dict[str, Any]]:
        """The span tree; ``run_spans=True`` keeps the run loop's task and turn spans.

        Those spans (and their token counts, whose fields differ between SDK releases)
        describe the runner's bookkeeping rather than the workflow, so :attr:`tree`
        leaves them out and nests their children under their parent.
        """
        hidden = () if run_spans else run_loop_span_types()
        roots: dict[str, dict[str, Any]] = {}
        nodes: dict[str, dict[str, Any]] = {}
        ordered: list[dict[str, Any]] = []
        for trace in self.traces:
            roots[trace.trace_id] = node = _trace_node(trace)
            ordered.append(node)
        for span in self.spans:
            parent = nodes.get(span.parent_id or "") or roots.get(span.trace_id)
            if parent is None:
                # A span of a trace that started before the capture did.
                parent = roots[span.trace_id] = {"type": "trace", "children": []}
                ordered.append(parent)
            if span.span_data.type in hidden:
                nodes[span.span_id] = parent
                continue
            node = _span_node(span)
            parent["children"].append(node)
            nodes[span.span_id] = node
        return [_pruned(node) for node in ordered]

    def spans_of(self, kind: str) -> list[Span[Any]]:
        """The captured spans of one kind (``"function"``, ``"handoff"``, ...), in start order."""
        return [span for span in self.spans if span.span_data.type == kind]

    def __agents_testing_snapshot__(self) -> object:
        return self.tree

    def __repr__(self) -> str:
        return f"CapturedTraces(traces={len(self.traces)}, spans={len(self.spans)})"


def capture_traces() -> CapturedTraces:
    """A new capture; use it as ``with capture_traces() as traces:``."""
    return CapturedTraces()


def _trace_node(trace: Trace) -> dict[str, Any]:
    exported = trace.export() or {}
    node: dict[str, Any] = {"type": "trace", "name": trace.name}
    for key in ("group_id", "metadata"):
        if exported.get(key) is not None:
            node[key] = exported[key]
    node["children"] = []
    return node


def _span_node(span: Span[Any]) -> dict[str, Any]:
    data = span.span_data
    kind = str(data.type)
    exported: dict[str, Any] = data.export() or {}
    fields = _KEY_FIELDS.get(kind, tuple(key for key in exported if key != "type"))
    node: dict[str, Any] = {"type": kind}
    for key in fields:
        value = exported.get(key)
        if key == "input" and kind == "function" and isinstance(value, str):
            value = _parsed(value)
        if value is not None:
            node[key] = value
    if span.error is not None:
        node["error"] = dict(span.error)
    if span.ended_at is None:
        node["unfinished"] = True
    node["children"] = []
    return node


def _parsed(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _pruned(node: dict[str, Any]) -> dict[str, Any]:
    children = [_pruned(child) for child in node.pop("children")]
    if children:
        node["children"] = children
    return node


# Public names show agents_testing.core, however this module was first imported.
from ..lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
