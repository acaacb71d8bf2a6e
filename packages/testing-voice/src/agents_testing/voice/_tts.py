"""A text-to-speech model that streams scripted audio chunks."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass

from agents.voice import TTSModel, TTSModelSettings

from agents_testing.core import StepScript, ordinal

from ._errors import InvalidVoiceStep, UnconsumedVoiceSteps, UnexpectedVoiceCall, steps_of
from ._settings import settings_snapshot
from ._steps import as_sequence, fail, replay

__all__ = ["TTSCall", "TTSResult", "TTSResultSpec", "ScriptedTTSModel"]


class TTSResult:
    """The audio of one TTS call: the byte chunks ``TTSModel.run`` streams, in order."""

    __slots__ = ("_chunks",)

    def __init__(self, chunks: Iterable[bytes | bytearray | memoryview] = ()) -> None:
        if isinstance(chunks, (bytes, bytearray, memoryview, str)):
            raise InvalidVoiceStep(
                "invalid_chunk",
                0,
                "TTSResult takes a sequence of byte chunks; wrap a single chunk in a list",
            )
        snapshot: list[bytes] = []
        for index, chunk in enumerate(chunks):
            if not isinstance(chunk, (bytes, bytearray, memoryview)):
                raise InvalidVoiceStep(
                    "invalid_chunk",
                    index,
                    f"an audio chunk must be bytes, got {type(chunk).__name__} {chunk!r}",
                )
            snapshot.append(bytes(chunk))
        self._chunks = tuple(snapshot)

    @property
    def chunks(self) -> tuple[bytes, ...]:
        """The scripted chunks (copied when the result was built)."""
        return self._chunks

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TTSResult) and other._chunks == self._chunks

    def __hash__(self) -> int:
        return hash(self._chunks)

    def __repr__(self) -> str:
        return f"TTSResult({list(self._chunks)!r})"


TTSResultSpec = TTSResult | Sequence[bytes] | BaseException
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
        results: Iterable[TTSResultSpec] | TTSResult | BaseException = (),
        *,
        model_name: str = "scripted-tts",
    ) -> None:
        items = as_sequence(results, (TTSResult, str))
        steps = [_result(item, index) for index, item in enumerate(items)]
        self._model_name = model_name
        self._results: StepScript[TTSResult | BaseException] = StepScript(steps)
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


def _result(item: object, index: int) -> TTSResult | BaseException:
    if isinstance(item, (TTSResult, BaseException)):
        return item
    if isinstance(item, (bytes, bytearray, memoryview, str)):
        raise InvalidVoiceStep(
            "invalid_tts_result",
            index,
            f"a TTS result must be a TTSResult, a sequence of byte chunks or an exception, "
            f"got {type(item).__name__}; wrap a single chunk as TTSResult([chunk])",
        )
    if isinstance(item, Sequence):
        try:
            return TTSResult(item)
        except InvalidVoiceStep as error:
            raise InvalidVoiceStep(
                "invalid_tts_result",
                index,
                f"result {index + 1}, chunk {ordinal(error.input_index)}: {error.detail}",
            ) from error
    raise InvalidVoiceStep(
        "invalid_tts_result",
        index,
        "a TTS result must be a TTSResult, a sequence of byte chunks or an exception, "
        f"got {type(item).__name__} {item!r}",
    )
