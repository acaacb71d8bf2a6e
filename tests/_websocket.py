"""A WebSocket server on a free local port, for tests that compare a double with the
SDK's real client against a live connection."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import websockets


@asynccontextmanager
async def local_websocket_server(
    handler: Callable[[Any], Awaitable[None]], path: str = ""
) -> AsyncIterator[str]:
    """Serve ``handler`` on 127.0.0.1 while the block runs; yields ``ws://host:port{path}``."""
    server = await websockets.serve(handler, "127.0.0.1", 0)
    try:
        yield f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}{path}"
    finally:
        server.close()
        await server.wait_closed()
