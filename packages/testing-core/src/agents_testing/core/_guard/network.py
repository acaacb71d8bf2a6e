"""The network block: no connection and no name lookup beyond this machine during a test.

A backstop under the model-request guard, in the spirit of pytest-recording's
``--block-network``: while installed, ``socket.socket.connect`` / ``connect_ex`` refuse
any Internet address that is not loopback, and ``socket.getaddrinfo`` /
``gethostbyname`` refuse to look up any name but ``localhost`` (a lookup already sends
the name to a DNS server), each with :class:`~agents_testing.core.NetworkBlocked` naming
the host and the test. That catches what no model guard knows: custom models, HTTP MCP
servers, webhooks, trace exporters. Unix sockets and loopback stay open, so local test
servers work. The SDK's trace exporter is refused before it connects (it would retry
with back-off otherwise), unless it points at a loopback address.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from .._errors import NetworkBlocked
from ..compat import trace_exporter_class
from .guard import Guard

__all__ = ["NetworkGuard", "is_local_host"]

_ANY_ADDRESS = frozenset({"", "0.0.0.0", "::"})


def is_local_host(host: object) -> bool:
    """Whether ``host`` (a name or an address) is this machine's loopback."""
    if isinstance(host, (bytes, bytearray)):
        host = bytes(host).decode("ascii", "replace")
    if not isinstance(host, str):
        return False
    name = host.strip("[]").split("%", 1)[0].rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return bool(address.is_loopback or (mapped is not None and mapped.is_loopback))


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]").split("%", 1)[0])
    except ValueError:
        return False
    return True


class NetworkGuard(Guard):
    """Refuses non-loopback connections and lookups for one test, remembering each attempt.

    ``attempts`` keeps every error raised, so a test whose code caught it (a retry
    loop, a fallback) can still be failed afterwards.
    """

    kind = "network"
    attempts: list[NetworkBlocked]

    def _install(self) -> None:
        for name in ("connect", "connect_ex"):
            self._replace(socket.socket, name, self._connect(getattr(socket.socket, name), name))
        self._replace(socket, "getaddrinfo", self._lookup(socket.getaddrinfo))
        self._replace(socket, "gethostbyname", self._lookup(socket.gethostbyname))
        self._replace(socket, "gethostbyname_ex", self._lookup(socket.gethostbyname_ex))
        exporter = trace_exporter_class()
        self._replace(exporter, "export", self._export(vars(exporter)["export"]))

    def _refuse(self, host: str, port: int | None, operation: str) -> NetworkBlocked:
        error = NetworkBlocked(self.test, host, port, operation)
        self.attempts.append(error)
        return error

    def _connect(self, original: Callable[..., Any], name: str) -> Callable[..., Any]:
        guard = self

        def connect(sock: socket.socket, address: Any, *args: Any, **kwargs: Any) -> Any:
            if sock.family in (socket.AF_INET, socket.AF_INET6) and isinstance(address, tuple):
                host, port = address[0], address[1] if len(address) > 1 else None
                if not is_local_host(host):
                    shown = host.decode() if isinstance(host, (bytes, bytearray)) else str(host)
                    raise guard._refuse(shown, port if isinstance(port, int) else None, "connect")
            return original(sock, address, *args, **kwargs)

        connect.__name__ = connect.__qualname__ = name
        return connect

    def _lookup(self, original: Callable[..., Any]) -> Callable[..., Any]:
        guard = self

        def lookup(host: Any, *args: Any, **kwargs: Any) -> Any:
            if host is not None:
                text = (
                    bytes(host).decode("ascii", "replace")
                    if isinstance(host, (bytes, bytearray))
                    else str(host)
                )
                # An address needs no DNS; its connection is checked when it is made.
                if not (text in _ANY_ADDRESS or is_local_host(text) or _is_address(text)):
                    port = args[0] if args and isinstance(args[0], int) else None
                    raise guard._refuse(text, port, "name lookup")
            return original(host, *args, **kwargs)

        lookup.__name__ = lookup.__qualname__ = getattr(original, "__name__", "lookup")
        return lookup

    def _export(self, original: Callable[..., Any]) -> Callable[..., Any]:
        """The SDK exporter's ``export``, refused up front for a remote endpoint."""
        guard = self

        def export(exporter: Any, items: list[Any]) -> Any:
            if not items or not getattr(exporter, "api_key", None):
                return original(exporter, items)  # it uploads nothing without a key
            endpoint = urlsplit(str(getattr(exporter, "endpoint", "")))
            if is_local_host(endpoint.hostname or ""):
                return original(exporter, items)
            # Raised in the exporter's thread, where nobody sees it: recording it is
            # what fails the test.
            guard._refuse(endpoint.hostname or "?", endpoint.port, "trace upload")
            return None

        return export
