"""The record of what reached a scripted Realtime model's listeners, and when."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from agents.realtime.model_events import RealtimeModelEvent

from ._events.detach import detach_model_event

__all__ = ["DeliveredEvent", "DeliverySource", "delivered_record"]

DeliverySource = Literal["connect", "send", "emit", "drop"]
"""What put an event on the connection: ``connect()``'s events, the step a send matched,
``emit()``, or the connection dropping (a scripted fault)."""


@dataclass(frozen=True)
class DeliveredEvent:
    """One incoming event as it went to the listeners.

    ``at`` is the event loop's time when it went out (under the virtual clock, the
    seconds on the clock); ``event`` a detached copy of it; ``source`` what put it on
    the connection; ``send_index`` the 0-based position in ``sent_events`` of the send
    whose step emitted it (``None`` for connect events, ``emit()`` and the drop of a
    send that failed).
    """

    at: float
    event: RealtimeModelEvent
    source: DeliverySource
    send_index: int | None = None


def delivered_record(entry: tuple[float, Any, str, int | None]) -> DeliveredEvent:
    """The public record of one history entry of the delivery queue, freshly copied."""
    at, event, source, send_index = entry
    return DeliveredEvent(at, detach_model_event(event), source, send_index)  # type: ignore[arg-type]


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
