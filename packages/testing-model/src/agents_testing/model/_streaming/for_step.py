"""The automatic stream of one step, built without a model: for harnesses that pace it.

A ``ModelStep.stream(factory)`` may want the very events the model would have streamed
for an ordinary step, to hand them out at its own pace; this builds them.
"""

from __future__ import annotations

from typing import Any

from agents.items import TResponseStreamEvent
from agents.usage import Usage

from .._errors import unstreamable_item
from .._script.validation import apply_patch_item
from .._step import ModelStep
from .lifecycle import lifecycle_events
from .lifecycle import unstreamable_item as first_unstreamable

__all__ = ["_stream_events_for_step"]


def _stream_events_for_step(
    step: ModelStep, *, preserve_raw_usage: bool
) -> list[TResponseStreamEvent]:
    """The automatic stream a model would produce for ``step``, as a list of events.

    The step's usage is taken as it is (no default usage: an all-zero ``Usage()``
    reports zero tokens and zero requests); raw usage rides on the completed response
    only with ``preserve_raw_usage``. Apply-patch calls given as dicts are converted;
    an item without a streaming lifecycle raises ``agents.ModelBehaviorError``. The
    events share nothing with the step.
    """
    output = [
        apply_patch_item(item)
        if isinstance(item, dict) and item.get("type") == "apply_patch_call"
        else item
        for item in step.output
    ]
    bad = first_unstreamable(output)
    if bad is not None:
        position, class_name, _ = bad
        raise unstreamable_item(class_name, position, 0, "")
    raw_usage: dict[str, Any] | None = None
    if preserve_raw_usage and step.raw_usage is not None:
        raw_usage = dict(step.raw_usage)
    return lifecycle_events(
        step.response_id,
        output,
        Usage() if step.usage is None else step.usage,
        step.request_id,
        raw_usage,
    )


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
