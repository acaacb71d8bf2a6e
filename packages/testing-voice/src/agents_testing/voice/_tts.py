"""A text-to-speech model that streams scripted audio chunks."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass

from agents.voice import TTSModel, TTSModelSettings

from agents_testing.core import StepScript, ordinal, safe_repr

from ._errors import InvalidVoiceStep, UnconsumedVoiceSteps, UnexpectedVoiceCall, steps_of
from ._settings import settings_snapshot
from ._steps import (
    ScriptedError,
    as_sequence,
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
    naming the ``chunks`` argument.
    """

    __slots__ = ("_chunks",)

    def __init__(self, chunks: Iterable[bytes | bytearray | memoryview] = ()) -> None:
        if isinstance(chunks, (bytes, bytearray, memoryview, str)):
            raise InvalidVoiceStep(
                "invalid_chunk",
                0,
                "TTSResult takes a sequence of byte chunks; wrap a single chunk in a list",
                "chunks",
            )
        if not isinstance(chunks, Iterable) or isinstance(chunks, (Mapping, Set)):
            raise InvalidVoiceStep(
                "invalid_chunk",
                0,
                f"TTSResult chunks must be a sequence of byte chunks, got {describe(chunks)}",
                "chunks",
            )
        try:
            items = list(chunks)
        except Exception as error:
            raise InvalidVoiceStep(
                "invalid_chunk",
                0,
                f"reading the TTSResult chunks failed with {type(error).__name__}; pass a list",
                "chunks",
            ) from error
        self._chunks = tuple(_chunk(chunk, index) for index, chunk in enumerate(items))

    @property
    def chunks(self) -> tuple[bytes, ...]:
        """The scripted chunks (copied when the result was built)."""
        return self._chunks

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TTSResult) and other._chunks == self._chunks

    def __hash__(self) -> int:
        return hash(self._chunks)

    def __repr__(self) -> str:
        return f"TTSResult({safe_repr(list(self._chunks), 200)})"


def _chunk(chunk: object, index: int) -> bytes:
    if not isinstance(chunk, (bytes, bytearray, memoryview)):
        raise InvalidVoiceStep(
            "invalid_chunk",
            index,
            f"an audio chunk must be bytes, got {describe(chunk)}",
            "chunks",
        )
    try:
        # Through memoryview, so a bytes subclass cannot substitute its own __bytes__.
        return memoryview(chunk).tobytes()
    except ValueError as error:  # a released memoryview
        raise InvalidVoiceStep(
            "invalid_chunk",
            index,
            f"an audio chunk cannot be read ({safe_repr(str(error), 80)})",
            "chunks",
        ) from error


TTSResultSpec = TTSResult | Sequence[bytes] | Exception | type[Exception]
"""One scripted TTS call: a ``TTSResult``, a sequence of byte chunks, or an exception."""


@dataclass(frozen=True)
class TTSCall:
    """One ``TTSModel.run`` call: the text to speak and a snapshot of the settings."""

    text: str
    settings: TTSModelSettings


class ScriptedTTSModel(TTSModel):
    """A ``TTSModel`` that streams one scripted result per call, in order.

    A scripted exception is raised while the audio is streamed, as a failing provider
    would. Apart from the constructor, :meth:`assert_complete` and ``calls``, every
    method is the ``TTSModel`` interface.
    """

    def __init__(
        self,
        results: Iterable[TTSResultSpec] | TTSResult | Exception | type[Exception] = (),
        *,
        model_name: str = "scripted-tts",
    ) -> None:
        items = as_sequence(results, (TTSResult, str), "results")
        steps = [_result(item, index) for index, item in enumerate(items)]
        self._model_name = check_name(model_name, "model_name")
        self._results: StepScript[TTSResult | ScriptedError] = StepScript(steps)
        self._calls: list[TTSCall] = []

    @property
    def model_name(self) -> str:
        return self._model_name

    @property
    def calls(self) -> tuple[TTSCall, ...]:
        """Every ``run`` call so far, as detached snapshots."""
        return tuple(TTSCall(call.text, settings_snapshot(call.settings)) for call in self._calls)

    def run(self, text: str, settings: TTSModelSettings) -> AsyncIterator[bytes]:
        # Recorded and consumed at call time, so history holds the settings as they
        # were when the pipeline asked, even if the stream is never iterated.
        call = TTSCall(text, settings_snapshot(settings))
        self._calls.append(call)
        step = self._results.take()
        if isinstance(step, TTSResult):
            return replay(step.chunks)
        if step is None:
            public = TTSCall(text, settings_snapshot(call.settings))
            step = UnexpectedVoiceCall("tts", public, len(self._calls) - 1)
        return fail(step)

    def assert_complete(self) -> None:
        """Raise ``UnconsumedVoiceSteps`` when scripted results were never streamed."""
        if self._results:
            raise UnconsumedVoiceSteps(steps_of("tts", len(self._results)))


def _result(item: object, index: int) -> TTSResult | ScriptedError:
    if isinstance(item, TTSResult):
        return item
    if is_scripted_error(item):
        return scripted_error(item, "invalid_tts_result", index, "results")
    if isinstance(item, (bytes, bytearray, memoryview, str)):
        raise InvalidVoiceStep(
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
            raise InvalidVoiceStep(
                "invalid_tts_result",
                index,
                f"result {index + 1}, chunk {ordinal(error.input_index)}: {error.detail}",
                "results",
            ) from error
    raise InvalidVoiceStep(
        "invalid_tts_result",
        index,
        "a TTS result must be a TTSResult, a sequence of byte chunks or an exception, "
        "got " + describe(item),
        "results",
    )
