"""Credential-free records of ``RealtimeModel.connect`` calls."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agents.realtime.model import RealtimePlaybackTracker

from ._errors import RealtimeScriptError
from ._events.detach import detach_settings

__all__ = ["RealtimeConnectCall", "detached_call", "record_connect", "strip_url"]


class RealtimeConnectCall(dict[str, Any]):
    """What one ``connect()`` asked for, without any credential: a plain mapping.

    ``api_key_provided`` and ``headers_provided`` are always there: ``True`` when the
    options held that key, whatever its value, never the value itself. The other keys
    are there only when the options held them: ``url`` (scheme, host, port and path;
    user-info, query and fragment dropped), ``initial_model_settings`` (a detached copy
    whose tools and handoffs keep their identity), ``playback_tracker`` (the live
    tracker) and ``call_id``. So ``{"api_key_provided": False, "headers_provided": False,
    "call_id": "c1"}`` compares equal to a record. Each key is also readable as an
    attribute, ``None`` when absent. Every ``connect_calls`` access hands out fresh
    copies, so changing one changes nothing recorded.
    """

    __slots__ = ()

    @property
    def url(self) -> str | None:
        """The connect URL without user-info, query and fragment, or ``None``."""
        return self.get("url")

    @property
    def api_key_provided(self) -> bool:
        """Whether the options held an API key (or key provider)."""
        return bool(self.get("api_key_provided", False))

    @property
    def headers_provided(self) -> bool:
        """Whether the options held custom headers."""
        return bool(self.get("headers_provided", False))

    @property
    def initial_model_settings(self) -> Mapping[str, Any] | None:
        """The session settings the connect started with (tools keep their identity)."""
        return self.get("initial_model_settings")

    @property
    def playback_tracker(self) -> RealtimePlaybackTracker | None:
        """The live playback tracker the connect was given, if any."""
        return self.get("playback_tracker")

    @property
    def call_id(self) -> str | None:
        """The call id of a connect that attaches to an existing call, if any."""
        return self.get("call_id")

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (dict(self),))


def strip_url(url: str) -> str:
    """``url`` without user-info, query and fragment (the places credentials travel).

    Parsed by hand after RFC 3986 (the authority ends at the first ``/``, ``?`` or
    ``#``), so malformed URLs cannot make it raise and leak nothing either way.
    """
    head = url[: _first_mark(url)]
    scheme, separator, rest = head.partition("://")
    if not separator:
        # No authority part: nothing but the path is left, and a bare
        # "user:secret@host" string cannot be told apart from one, so keep none of it.
        return head.rpartition("@")[2]
    stretch = url.partition("://")[2].partition("/")[0]
    if "@" in stretch and _first_mark(stretch) < stretch.rfind("@"):
        # "wss://u:p?w@host/" (a raw "?" in a password) and "wss://host?t=a@b/" (an
        # "@" in a query) look alike; keep nothing rather than part of a secret.
        return f"{scheme}{separator}"
    authority, slash, path = rest.partition("/")
    return f"{scheme}{separator}{authority.rpartition('@')[2]}{slash}{path}"


def _first_mark(text: str) -> int:
    """Position of the first ``?`` or ``#`` in ``text``, or its length when there is none."""
    cut = len(text)
    for mark in ("?", "#"):
        found = text.find(mark)
        if found != -1 and found < cut:
            cut = found
    return cut


def record_connect(
    options: Mapping[str, Any], *, wrap_errors: bool = True, extra_checks: bool = False
) -> RealtimeConnectCall:
    """Build the credential-free record of one ``connect(options)`` call.

    A setting that cannot be copied raises as :func:`agents_testing.core.detach` says
    (``wrap_errors=False``: the value's own exception). A URL must be a string: it is
    the one value whose credentials have to be cut out. With ``extra_checks`` a
    ``call_id`` must be one too.
    """
    if not isinstance(options, Mapping):
        raise RealtimeScriptError(
            f"connect() expects a RealtimeModelConfig mapping, got {type(options).__name__}"
        )
    record = RealtimeConnectCall(
        api_key_provided="api_key" in options, headers_provided="headers" in options
    )
    if "url" in options:
        url = options["url"]
        if url is not None and not isinstance(url, str):
            raise _not_a_string("url", url)
        record["url"] = None if url is None else strip_url(url)
    if "initial_model_settings" in options:
        settings = options["initial_model_settings"]
        record["initial_model_settings"] = (
            None if settings is None else detach_settings(settings, wrap_errors=wrap_errors)
        )
    if "playback_tracker" in options:
        record["playback_tracker"] = options["playback_tracker"]
    if "call_id" in options:
        call_id = options["call_id"]
        if extra_checks and call_id is not None and not isinstance(call_id, str):
            raise _not_a_string("call_id", call_id)
        record["call_id"] = call_id
    return record


def _not_a_string(key: str, value: object) -> RealtimeScriptError:
    return RealtimeScriptError(
        f"connect() option {key!r} must be a string, got {type(value).__name__}; nothing "
        "was recorded. Pass the value a real RealtimeModel would accept."
    )


def detached_call(call: RealtimeConnectCall) -> RealtimeConnectCall:
    """A copy of a record for handing out, so callers cannot change the history."""
    fresh = RealtimeConnectCall(call)
    settings = call.get("initial_model_settings")
    if settings is not None:
        fresh["initial_model_settings"] = detach_settings(settings)
    return fresh


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
