"""A text-to-speech model that streams scripted audio chunks."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Any

from agents.voice import TTSModel, TTSModelSettings

from agents_testing.core import (
    AnyOrder,
    GroupEntry,
    StepScript,
    build_group,
    member_problem,
    ordinal,
    safe_repr,
)

from ._errors import (
    InvalidVoiceStep,
    invalid_step,
    matcher_rejected,
    steps_of,
    unconsumed,
    unexpected_call,
)
from ._faults import check_delays, delayed_replay
from ._settings import settings_snapshot
from ._steps import (
    ScriptedError,
    as_sequence,
    check_cycles,
    check_name,
    describe,
    fail,
    is_scripted_error,
    replay,
    scripted_error,
)

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
            close = getattr(verdict, "close", None)
            if callable(close):
                close()  # never awaited: closing it avoids a "never awaited" warning
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


class ScriptedTTSModel(TTSModel):
    """A ``TTSModel`` that streams one scripted result per call, in order.

    An ``any_order(...)`` group of results is one position whose members answer calls in
    any order, each picked by its ``TTSResult(match=...)`` on the text to speak.
    A scripted exception is raised while the audio is streamed, as a failing provider
    would. Apart from the constructor, :meth:`assert_complete` and ``calls``, every
    method is the ``TTSModel`` interface.

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
        items = as_sequence(results, (TTSResult, str, AnyOrder), "results")
        if extra_checks:
            check_cycles(items, "invalid_tts_result", "result", "results")
        steps = [_entry(item, index) for index, item in enumerate(items)]
        self._model_name = check_name(model_name, "model_name")
        self._results: StepScript[TTSResult | ScriptedError] = StepScript(steps)
        self._calls: list[TTSCall] = []
        self._extra_checks = extra_checks

    @property
    def model_name(self) -> str:
        return self._model_name

    @property
    def extra_checks(self) -> bool:
        """Whether a failed copy is reported as ``UncopyableValue`` instead of as it is."""
        return self._extra_checks

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
        step = self._take(call)
        if isinstance(step, TTSResult):
            if step._delays:
                return delayed_replay(step.chunks, dict(step._delays))
            return replay(step.chunks)
        return fail(step)

    def _take(self, call: TTSCall) -> TTSResult | ScriptedError:
        results = self._results
        if not results.in_group():
            # One result answers the call unless its matcher refuses the text.
            head = results.peek()
            if head is None:
                return unexpected_call("tts", self._public(call), len(self._calls) - 1)
            if type(head) is TTSResult and head.match is None:
                results.take()
                return head
        candidates = results.candidates()
        index = len(self._calls) - 1
        # The first pending result whose matcher accepts the text answers the call; in a
        # group, results without a matcher accept any text, in the order given.
        for step in candidates:
            try:
                accepted = not isinstance(step, TTSResult) or step.accepts(call.text)
            except Exception as error:
                return error  # the matcher's own failure, raised by the stream; still pending
            if accepted:
                self._results.take_candidate(step)
                return step
        rejected = len(candidates) if self._results.in_group() else 0
        return matcher_rejected("tts", self._public(call), index, rejected)

    @staticmethod
    def _public(call: TTSCall) -> TTSCall:
        # Errors get their own copy, so nothing reached through them changes the history.
        return TTSCall(call.text, settings_snapshot(call.settings))

    def assert_complete(self) -> None:
        """Raise ``UnconsumedVoiceSteps`` when scripted results were never streamed."""
        if self._results:
            raise unconsumed("TTS result", steps_of("tts", len(self._results)))


def _entry(item: object, index: int) -> TTSResult | ScriptedError | GroupEntry[Any]:
    if not isinstance(item, AnyOrder):
        return _result(item, index)

    def member(position: int, value: object) -> TTSResult | ScriptedError:
        try:
            return _result(value, index)
        except InvalidVoiceStep as error:
            raise invalid_step(
                error.reason, index, member_problem(position, error.detail), "results"
            ) from error

    entry = build_group(item, member)
    if isinstance(entry, str):
        raise invalid_step("invalid_group", index, entry, "results")
    return entry


def _result(item: object, index: int) -> TTSResult | ScriptedError:
    if isinstance(item, TTSResult):
        return item
    if is_scripted_error(item):
        return scripted_error(item, "invalid_tts_result", index, "results")
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
