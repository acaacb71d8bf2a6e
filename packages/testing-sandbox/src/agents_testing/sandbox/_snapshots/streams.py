"""Snapshots of in-memory streams: ``io.BytesIO`` and ``io.StringIO`` values with their position.

A scripted ``read`` result and a stream handed to a session method (``write``'s data) are
captured once, without reading from them, and every later use gets a fresh stream of the
same type, content and position. Only these two types can be captured that way: any
other stream (an open file, a socket, a wrapper) is live, and a closed one has nothing
left to capture, so both are refused before they are used.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

__all__ = ["SUPPORTED_STREAMS", "StreamSnapshot", "is_stream", "snapshot_stream", "stream_problem"]

#: What a captured stream must be, for messages.
SUPPORTED_STREAMS = "an open io.BytesIO or io.StringIO"


@dataclass(frozen=True)
class StreamSnapshot:
    """The content and position of an ``io.BytesIO`` (``text`` false) or ``io.StringIO``."""

    text: bool
    content: bytes | str
    position: int

    def fresh(self) -> io.BytesIO | io.StringIO:
        """A new stream of the captured type, holding the content, at the captured position."""
        stream: io.BytesIO | io.StringIO
        if isinstance(self.content, str):
            stream = io.StringIO(self.content)
        else:
            stream = io.BytesIO(self.content)
        stream.seek(self.position)
        return stream


def is_stream(value: object) -> bool:
    """Whether ``value`` is a stream object (anything ``io.IOBase``)."""
    return isinstance(value, io.IOBase)


def stream_problem(value: io.IOBase) -> str | None:
    """What is wrong with the stream ``value`` (``"a closed BytesIO"``, ...), or ``None`` when
    it can be captured."""
    kind = type(value)
    if kind is not io.BytesIO and kind is not io.StringIO:
        return (
            f"a {kind.__name__} (a live stream, which cannot be replayed; read its content "
            "into an io.BytesIO first)"
        )
    try:
        closed = value.closed is not False
    except Exception:  # a broken stream is as unusable as a closed one
        closed = True
    if closed:
        return f"a closed {kind.__name__}"
    return None


def snapshot_stream(value: io.BytesIO | io.StringIO) -> StreamSnapshot:
    """Capture an open ``io.BytesIO`` or ``io.StringIO`` without moving its position."""
    if isinstance(value, io.StringIO):
        return StreamSnapshot(True, value.getvalue(), value.tell())
    return StreamSnapshot(False, value.getvalue(), value.tell())
