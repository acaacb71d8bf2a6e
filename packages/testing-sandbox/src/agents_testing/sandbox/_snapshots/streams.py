"""Snapshots of in-memory streams: ``io.BytesIO`` and ``io.StringIO`` values with their position.

A scripted result and a stream handed to a session method (``write``'s data) are
captured once, without reading from them or moving them, and every later use gets a
fresh plain ``io.BytesIO`` / ``io.StringIO`` of the same content and position. Any
subclass of the two counts, whatever else it defines. Any other stream (an open file,
a socket, a wrapper) is live, and a closed one has nothing left to capture, so both are
refused before they are used.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

__all__ = ["StreamRefused", "StreamSnapshot", "capture_stream"]


@dataclass(frozen=True)
class StreamSnapshot:
    """The content and position of an ``io.BytesIO`` or ``io.StringIO`` (``content`` is str)."""

    content: bytes | str
    position: int

    def fresh(self) -> io.BytesIO | io.StringIO:
        """A new plain stream of the captured kind, holding the content, at the position."""
        stream: io.BytesIO | io.StringIO
        if isinstance(self.content, str):
            stream = io.StringIO(self.content)
        else:
            stream = io.BytesIO(self.content)
        stream.seek(self.position)
        return stream


class StreamRefused(Exception):
    """A stream that cannot be captured: ``kind`` is its class name; ``closed`` tells a
    closed ``io.BytesIO`` / ``io.StringIO`` (``text`` for the latter) from a live stream."""

    def __init__(self, kind: str, *, closed: bool, text: bool = False) -> None:
        super().__init__(kind)
        self.kind = kind
        self.closed = closed
        self.text = text


def capture_stream(value: io.IOBase) -> StreamSnapshot:
    """Capture ``value`` (any ``io.IOBase``) or raise :class:`StreamRefused`.

    Read through the base classes' own methods, so a subclass that overrides
    ``getvalue``, ``tell`` or ``closed`` can neither fail the capture nor move the stream.
    """
    base: type[io.BytesIO] | type[io.StringIO]
    if isinstance(value, io.BytesIO):
        base = io.BytesIO
    elif isinstance(value, io.StringIO):
        base = io.StringIO
    else:
        raise StreamRefused(type(value).__name__, closed=False)
    text = base is io.StringIO
    try:
        if not base.closed.__get__(value):
            return StreamSnapshot(base.getvalue(value), base.tell(value))  # type: ignore[arg-type]
    except ValueError:  # a subclass that never initialized its base: nothing to capture
        pass
    raise StreamRefused(type(value).__name__, closed=True, text=text)
