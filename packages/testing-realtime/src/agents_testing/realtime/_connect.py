"""Credential-free records of ``RealtimeModel.connect`` calls."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agents.realtime.model import RealtimePlaybackTracker

from ._errors import RealtimeScriptError
from ._events.detach import detach_settings, record_copy

__all__ = ["RealtimeConnectCall", "detached_call", "record_connect", "strip_url"]


class RealtimeConnectCall(dict[str, Any]):
    """What one ``connect()`` asked for, without any credential: a plain mapping.

    Keys (also readable as attributes): ``url``, ``api_key_provided``,
    ``headers_provided``, ``initial_model_settings``, ``playback_tracker`` and
    ``call_id``. Only whether an API key or headers were given is kept, never their
    values; the URL keeps scheme, host, port and path but drops user-info, query and
    fragment. ``initial_model_settings`` is a detached copy whose tools and handoffs
    keep their identity; ``playback_tracker`` is the live tracker object. Every
    ``connect_calls`` access hands out fresh copies, so changing one changes nothing
    recorded.
    """

    __slots__ = ()

    @property
    def url(self) -> str | None:
        """The connect URL without user-info, query and fragment, or ``None``."""
        return self["url"]  # type: ignore[no-any-return]

    @property
    def api_key_provided(self) -> bool:
        """Whether an API key (or key provider) was given."""
        return self["api_key_provided"]  # type: ignore[no-any-return]

    @property
    def headers_provided(self) -> bool:
        """Whether custom headers were given."""
        return self["headers_provided"]  # type: ignore[no-any-return]

    @property
    def initial_model_settings(self) -> Mapping[str, Any] | None:
        """The session settings the connect started with (tools keep their identity)."""
        return self["initial_model_settings"]  # type: ignore[no-any-return]

    @property
    def playback_tracker(self) -> RealtimePlaybackTracker | None:
        """The live playback tracker the connect was given, if any."""
        return self["playback_tracker"]  # type: ignore[no-any-return]

    @property
    def call_id(self) -> str | None:
        """The call id of a connect that attaches to an existing call, if any."""
        return self["call_id"]  # type: ignore[no-any-return]

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


def _optional_str(options: Mapping[str, Any], key: str) -> str | None:
    value = options.get(key)
    if value is None or isinstance(value, str):
        return value
    raise RealtimeScriptError(
        f"connect() option {key!r} must be a string, got {type(value).__name__}; "
        "pass the value a real RealtimeModel would accept"
    )


def record_connect(options: Mapping[str, Any]) -> RealtimeConnectCall:
    """Build the credential-free record of one ``connect(options)`` call."""
    if not isinstance(options, Mapping):
        raise RealtimeScriptError(
            f"connect() expects a RealtimeModelConfig mapping, got {type(options).__name__}"
        )
    url = _optional_str(options, "url")
    settings = options.get("initial_model_settings")
    return RealtimeConnectCall(
        url=None if url is None else strip_url(url),
        api_key_provided=options.get("api_key") is not None,
        headers_provided=options.get("headers") is not None,
        initial_model_settings=None
        if settings is None
        else record_copy(detach_settings, settings, "connect() initial_model_settings"),
        playback_tracker=options.get("playback_tracker"),
        call_id=_optional_str(options, "call_id"),
    )


def detached_call(call: RealtimeConnectCall) -> RealtimeConnectCall:
    """A copy of a record for handing out, so callers cannot change the history."""
    fresh = RealtimeConnectCall(call)
    settings = call["initial_model_settings"]
    if settings is not None:
        fresh["initial_model_settings"] = detach_settings(settings)
    return fresh
