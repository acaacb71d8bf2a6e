"""A text-to-speech model that streams scripted audio chunks."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Literal

from agents.voice import TTSModel, TTSModelSettings

from agents_testing.core import (
    AnyOrder,
    CallableProblem,
    GroupEntry,
    ScriptedDouble,
    build_entry,
    close_awaitable,
    group_reason,
    ordinal,
    safe_repr,
)

from ._errors import InvalidVoiceStep, invalid_step, matcher_rejected, unconsumed, unexpected_call
from ._faults import check_delays, delayed_replay
from ._settings import ScriptedVoiceModel, settings_snapshot
from ._steps import ScriptedError, as_sequence, check_name, describe, fail, replay, scripted_error

__all__ = ["TTSCall", "TTSResult", "TTSResultSpec", "ScriptedTTSModel"]


class TTSResult:
    """The audio of one TTS call: the byte chunks ``TTSModel.run`` streams, in order.

    ``chunks`` is an iterable of ``bytes``, ``bytearray`` or ``memoryview`` values; they
    are copied when the result is built. Anything else is an ``InvalidVoiceStep``
    naming the ``chunks`` argument. ``delays`` (our own, opt-in) maps chunk positions to
    the seconds the stream stalls before that chunk, on the event loop's clock (position
    ``len(chunks)``: before the stream ends).
    """

    __slots__ = ("_chunks", "_delays", "_match")

    def __init__(
        self,
        chunks: Iterable[bytes | bytearray | memoryview] = (),
        *,
        match: Callable[[str], object] | None = None,
        delays: Mapping[int, float] | None = None,
    ) -> None:
        problem = None if match is None else _matcher_problem(match)
        if problem is not None:
            raise invalid_step("invalid_matcher", 0, problem, "match")
        self._match = match
        if isinstance(chunks, (bytes, bytearray, memoryview, str)):
            raise invalid_step(
                "invalid_chunk",
                0,
                "TTSResult takes a sequence of byte chunks; wrap a single chunk in a list",
                "chunks",
            )
        if not isinstance(chunks, Iterable) or isinstance(chunks, (Mapping, Set)):
            raise invalid_step(
                "invalid_chunk",
                0,
                f"TTSResult chunks must be a sequence of byte chunks, got {describe(chunks)}",
                "chunks",
            )
        try:
            items = list(chunks)
        except Exception as error:
            raise invalid_step(
                "invalid_chunk",
                0,
                f"reading the TTSResult chunks failed with {type(error).__name__}; pass a list",
                "chunks",
            ) from error
        self._chunks = tuple(_chunk(chunk, index) for index, chunk in enumerate(items))
        self._delays = check_delays(delays, len(self._chunks))

    @property
    def chunks(self) -> tuple[bytes, ...]:
        """The scripted chunks (copied when the result was built)."""
        return self._chunks

    @property
    def delays(self) -> dict[int, float]:
        """Seconds the stream stalls before each chunk position (a fresh dict; empty: none)."""
        return dict(self._delays)

    @property
    def match(self) -> Callable[[str], object] | None:
        """The matcher of the text to speak, or ``None`` (any text); only ``False`` rejects."""
        return self._match

    def accepts(self, text: str) -> bool:
        """Whether this result answers a call speaking ``text`` (its matcher's verdict)."""
        if self._match is None:
            return True
        verdict = self._match(text)
        if inspect.isawaitable(verdict):
            close_awaitable(verdict)
            raise invalid_step(
                "invalid_matcher",
                0,
                "match returned an awaitable; a matcher must answer at once",
                "match",
            )
        return verdict is not False

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, TTSResult)
            and other._chunks == self._chunks
            and other._match is self._match
            and other._delays == self._delays
        )

    def __hash__(self) -> int:
        return hash(self._chunks)

    def __repr__(self) -> str:
        parts = [safe_repr(list(self._chunks), 200)]
        if self._match is not None:
            parts.append(f"match={safe_repr(self._match)}")
        if self._delays:
            parts.append(f"delays={dict(self._delays)!r}")
        return f"TTSResult({', '.join(parts)})"


def _matcher_problem(match: object) -> str | None:
    if isinstance(match, type) or not callable(match):
        return f"match must be a function taking the text to speak, got {describe(match)}"
    if (
        inspect.iscoroutinefunction(match)
        or inspect.isgeneratorfunction(match)
        or inspect.isasyncgenfunction(match)
    ):
        return "match must be a plain (not async) callable taking the text to speak"
    try:
        signature = inspect.signature(match)
    except Exception:  # some builtins have none: checked when called instead
        return None
    try:
        signature.bind("")
    except TypeError:
        return "match must accept one positional argument (the text to speak)"
    return None


def _chunk(chunk: object, index: int) -> bytes:
    if not isinstance(chunk, (bytes, bytearray, memoryview)):
        raise invalid_step(
            "invalid_chunk",
            index,
            f"an audio chunk must be bytes, got {describe(chunk)}",
            "chunks",
        )
    try:
        # Through memoryview, so a bytes subclass cannot substitute its own __bytes__.
        return memoryview(chunk).tobytes()
    except ValueError as error:  # a released memoryview
        raise invalid_step(
            "invalid_chunk",
            index,
            f"an audio chunk cannot be read ({safe_repr(str(error), 80)})",
            "chunks",
        ) from error


TTSResultSpec = TTSResult | Sequence[bytes] | Exception | type[Exception]
"""One scripted TTS call: a ``TTSResult``, a sequence of byte chunks, or an exception.

Several of them may form an ``any_order(...)`` group: each call then gets the first
pending member whose ``TTSResult(match=...)`` accepts its text (members without a
matcher accept any text, in the order given)."""


@dataclass(frozen=True)
class TTSCall:
    """One ``TTSModel.run`` call: the text to speak and a snapshot of the settings."""

    text: str
    settings: TTSModelSettings


class _Held:
    """A scripted result as the script holds it: where it came from, and its matcher."""

    __slots__ = ("input_index", "match", "result")

    #: A TTS call names nothing a result must script; the matcher alone chooses.
    target = None

    def __init__(self, input_index: int, result: TTSResult | ScriptedError) -> None:
        self.input_index = input_index
        self.result = result
        self.match = result.match if isinstance(result, TTSResult) else None


class ScriptedTTSModel(
    ScriptedVoiceModel, ScriptedDouble[_Held, TTSCall, "TTSResult | ScriptedError"], TTSModel
):
    """A ``TTSModel`` that streams one scripted result per call, in order.

    An ``any_order(...)`` group of results is one position whose members answer calls in
    any order, each picked by its ``TTSResult(match=...)`` on the text to speak.
    A scripted exception is raised while the audio is streamed, as a failing provider
    would. Apart from the constructor, :meth:`assert_complete`, ``calls`` and the
    inspection properties ``remaining_steps`` and ``pending_steps``, every method is the
    ``TTSModel`` interface.

    The settings are recorded as a deep copy; a copy that raises makes the stream raise
    that very exception, and nothing is recorded or consumed. ``extra_checks=True``
    raises ``UncopyableValue`` (caused by it) instead.
    """

    def __init__(
        self,
        results: Iterable[TTSResultSpec | AnyOrder[TTSResultSpec]]
        | TTSResult
        | AnyOrder[TTSResultSpec]
        | Exception
        | type[Exception] = (),
        *,
        model_name: str = "scripted-tts",
        extra_checks: bool = False,
    ) -> None:
        items = as_sequence(
            results,
            (TTSResult, str, AnyOrder),
            "results",
            ("invalid_tts_result", "result") if extra_checks else None,
        )
        steps = [_entry(item, index) for index, item in enumerate(items)]
        self._model_name = check_name(model_name, "model_name")
        self._start_script(steps, remembers=False, checks_calls=True)
        self._calls: list[TTSCall] = []
        self._extra_checks = extra_checks

    @property
    def calls(self) -> tuple[TTSCall, ...]:
        """Every ``run`` call so far, as detached snapshots."""
        return tuple(TTSCall(call.text, settings_snapshot(call.settings)) for call in self._calls)

    def run(self, text: str, settings: TTSModelSettings) -> AsyncIterator[bytes]:
        # Recorded and consumed at call time, so history holds the settings as they
        # were when the pipeline asked, even if the stream is never iterated.
        try:
            snapshot = settings_snapshot(settings, wrap_errors=self._extra_checks)
        except Exception as error:
            # Raised by the stream, as every failure of a TTS call is; nothing is recorded.
            return fail(error)
        call = TTSCall(text, snapshot)
        self._calls.append(call)
        try:
            held = self._take(call)
        except Exception as error:
            # Raised by the stream, as every failure of a TTS call: no result left, every
            # matcher rejecting the text, or a matcher's own error (the result stays pending).
            return fail(error)
        result = held.result
        if isinstance(result, TTSResult):
            if result._delays:
                return delayed_replay(result.chunks, dict(result._delays))
            return replay(result.chunks)
        return fail(result)

    # -- the script ----------------------------------------------------------------------

    def _spec(self, held: _Held) -> TTSResult | ScriptedError:
        return held.result

    def _unconsumed(self, pending: tuple[_Held, ...]) -> BaseException:
        left = unconsumed("TTS result", ("tts", len(pending)))
        assert left is not None  # the script calls this only with steps left
        return left

    def _unexpected(
        self, call: TTSCall, candidates: tuple[_Held, ...], grouped: bool
    ) -> BaseException:
        return unexpected_call("tts", self._public(call), len(self._calls) - 1)

    def _rejected(self, call: TTSCall, same: tuple[_Held, ...], grouped: bool) -> BaseException:
        rejected = len(same) if grouped else 0
        return matcher_rejected("tts", self._public(call), len(self._calls) - 1, rejected)

    def _invalid_callable(
        self, step: _Held, role: Literal["match", "responder"], problem: CallableProblem
    ) -> BaseException:
        if problem == "awaitable":
            detail = "match returned an awaitable; a matcher must answer at once"
        else:
            detail = "match could not be called with the text to speak"
        return invalid_step("invalid_matcher", 0, detail, "match")

    def _handed(self, call: TTSCall) -> str:
        return call.text

    @staticmethod
    def _public(call: TTSCall) -> TTSCall:
        # Errors get their own copy, so nothing reached through them changes the history.
        return TTSCall(call.text, settings_snapshot(call.settings))


def _entry(item: object, index: int) -> _Held | GroupEntry[_Held]:
    return build_entry(
        item,
        lambda value: _Held(index, _result(value, index)),
        lambda error, detail: invalid_step(group_reason(error), index, detail, "results"),
    )


def _result(item: object, index: int) -> TTSResult | ScriptedError:
    failure = scripted_error(item, "invalid_tts_result", index, "results")
    if failure is not None:
        return failure
    if isinstance(item, TTSResult):
        return item
    if isinstance(item, (bytes, bytearray, memoryview, str)):
        raise invalid_step(
            "invalid_tts_result",
            index,
            f"a TTS result must be a TTSResult, a sequence of byte chunks or an exception, "
            f"got {type(item).__name__}; wrap a single chunk as TTSResult([chunk])",
            "results",
        )
    if isinstance(item, Sequence):
        try:
            return TTSResult(item)
        except InvalidVoiceStep as error:
            raise invalid_step(
                "invalid_tts_result",
                index,
                f"result {index + 1}, chunk {ordinal(error.input_index)}: {error.detail}",
                "results",
            ) from error
    raise invalid_step(
        "invalid_tts_result",
        index,
        "a TTS result must be a TTSResult, a sequence of byte chunks or an exception, "
        "got " + describe(item),
        "results",
    )


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
