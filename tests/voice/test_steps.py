"""Scripted exceptions and hostile values: refused when built, raised faithfully when run."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from agents.voice import StreamedAudioInput
from agents.voice.testing import (
    InvalidVoiceStep,
    ScriptedSTTModel,
    ScriptedTranscriptionSession,
    ScriptedTTSModel,
    ScriptedVoiceWorkflow,
    TTSResult,
)

# (where the value is scripted, the reason it is refused with, the argument named)
PLACES = [
    ("transcription", "invalid_transcription", "transcriptions"),
    ("session", "invalid_session", "sessions"),
    ("session_turn", "invalid_session", "sessions"),
    ("tts", "invalid_tts_result", "results"),
    ("workflow_turn", "invalid_workflow_result", "turns"),
    ("start", "invalid_workflow_result", "start"),
]


class HangUp(BaseException):
    """A BaseException that is not an Exception, as a test might script by mistake."""


class NeedsArguments(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(code)


class Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text")


class HostileRepr:
    def __repr__(self) -> str:
        raise RuntimeError("repr refused")


class InterruptingRepr:
    def __repr__(self) -> str:
        raise KeyboardInterrupt


class InterruptedIterable:
    def __iter__(self) -> Iterator[str]:
        raise KeyboardInterrupt


class BrokenIterable:
    def __iter__(self) -> Iterator[str]:
        raise OSError("device gone")


NOT_EXCEPTIONS = [
    HangUp("bye"),
    HangUp,
    KeyboardInterrupt(),
    SystemExit(1),
    asyncio.CancelledError(),
    GeneratorExit,
]


@pytest.mark.parametrize(("location", "reason", "argument"), PLACES)
@pytest.mark.parametrize("value", NOT_EXCEPTIONS, ids=repr)
def test_a_base_exception_that_is_not_an_exception_is_refused_when_scripted(
    voice_runs: Any, location: str, reason: str, argument: str, value: object
) -> None:
    # The pipeline's task handles only Exception: anything else would end it silently
    # and leave result.stream() waiting forever.
    (streamed, *_) = voice_runs.streamed_for(location)
    with pytest.raises(InvalidVoiceStep, match="not an Exception") as caught:
        voice_runs.build(location, value, streamed=streamed)

    assert (caught.value.reason, caught.value.argument) == (reason, argument)


@pytest.mark.parametrize(("location", "reason", "argument"), PLACES)
@pytest.mark.parametrize(
    ("value", "problem"),
    [
        (NeedsArguments, "cannot be created without arguments"),
        (UnicodeDecodeError, "cannot be created without arguments"),
        (Unprintable("x"), "str() of the scripted Unprintable fails"),
    ],
    ids=["needs-arguments", "builtin-needs-arguments", "unprintable"],
)
def test_an_exception_the_pipeline_could_not_raise_or_report_is_refused_when_scripted(
    voice_runs: Any, location: str, reason: str, argument: str, value: object, problem: str
) -> None:
    (streamed, *_) = voice_runs.streamed_for(location)
    with pytest.raises(InvalidVoiceStep) as caught:
        voice_runs.build(location, value, streamed=streamed)

    assert (caught.value.reason, caught.value.argument) == (reason, argument)
    assert problem in str(caught.value)


@pytest.mark.parametrize("value", [HangUp(), KeyboardInterrupt, NeedsArguments, "gone", 7])
def test_close_error_is_checked_like_every_other_scripted_exception(value: Any) -> None:
    with pytest.raises(InvalidVoiceStep) as caught:
        ScriptedTranscriptionSession(["hi"], close_error=value)

    assert (caught.value.reason, caught.value.argument) == ("invalid_close_error", "close_error")


@pytest.mark.parametrize(
    "location", ["transcription", "session", "session_turn", "tts", "workflow_turn"]
)
@pytest.mark.asyncio
async def test_an_exception_class_fails_the_stream_with_a_fresh_instance(
    voice_runs: Any, location: str
) -> None:
    for streamed in voice_runs.streamed_for(location):
        doubles = voice_runs.build(location, ConnectionResetError, streamed=streamed)

        outcome, hung = await voice_runs.run(doubles, streamed=streamed)

        assert not hung
        assert type(outcome.error) is ConnectionResetError


@pytest.mark.asyncio
async def test_an_exception_class_as_start_is_raised_by_on_start_and_the_pipeline_carries_on(
    voice_runs: Any,
) -> None:
    stt, workflow, tts = voice_runs.build("start", LookupError, streamed=True)

    with pytest.raises(LookupError):
        [text async for text in workflow.on_start()]
    stt, workflow, tts = voice_runs.build("start", LookupError, streamed=True)
    # The pipeline logs a failing on_start() and goes on without a greeting.
    outcome, hung = await voice_runs.run((stt, workflow, tts), streamed=True)

    assert not hung
    assert outcome.error is None
    assert workflow.transcriptions == ("heard",)
    workflow.assert_complete()


@pytest.mark.asyncio
async def test_the_same_exception_class_gives_each_call_its_own_instance() -> None:
    tts = ScriptedTTSModel([TimeoutError, TimeoutError])
    from agents.voice import TTSModelSettings

    errors = []
    for _ in range(2):
        with pytest.raises(TimeoutError) as caught:
            [chunk async for chunk in tts.run("hi", TTSModelSettings())]
        errors.append(caught.value)

    assert errors[0] is not errors[1]


@pytest.mark.parametrize(
    "build",
    [
        lambda bad: ScriptedSTTModel([bad]),
        lambda bad: ScriptedSTTModel(sessions=[bad]),
        lambda bad: ScriptedSTTModel(sessions=[["ok", bad]]),
        lambda bad: ScriptedTranscriptionSession([bad]),
        lambda bad: ScriptedTranscriptionSession(close_error=bad),
        lambda bad: ScriptedTTSModel([bad]),
        lambda bad: ScriptedTTSModel([[bad]]),
        lambda bad: TTSResult([bad]),
        lambda bad: TTSResult(bad),
        lambda bad: ScriptedVoiceWorkflow([bad]),
        lambda bad: ScriptedVoiceWorkflow([["ok", bad]]),
        lambda bad: ScriptedVoiceWorkflow(start=bad),
        lambda bad: ScriptedSTTModel(model_name=bad),
        lambda bad: ScriptedTTSModel(model_name=bad),
    ],
    ids=[
        "transcription",
        "session",
        "session-turn",
        "turn",
        "close-error",
        "tts-result",
        "chunk-in-result",
        "chunk",
        "chunks",
        "workflow-turn",
        "fragment",
        "start",
        "stt-model-name",
        "tts-model-name",
    ],
)
@pytest.mark.parametrize(
    "bad",
    [HostileRepr(), 10**5000, [0] * 100_000],
    ids=["raising-repr", "int-too-long-to-print", "huge-list"],
)
def test_error_messages_survive_any_value_and_stay_short(build: Any, bad: object) -> None:
    with pytest.raises(InvalidVoiceStep) as caught:
        build(bad)

    assert len(str(caught.value)) < 600


def test_a_keyboard_interrupt_from_a_repr_is_not_swallowed() -> None:
    with pytest.raises(KeyboardInterrupt):
        ScriptedSTTModel([InterruptingRepr()])  # type: ignore[list-item]


def test_a_keyboard_interrupt_while_reading_the_script_propagates() -> None:
    with pytest.raises(KeyboardInterrupt):
        ScriptedSTTModel(InterruptedIterable())


def test_an_iterable_that_fails_while_read_is_an_invalid_argument() -> None:
    with pytest.raises(InvalidVoiceStep) as caught:
        ScriptedTTSModel(BrokenIterable())  # type: ignore[arg-type]

    assert (caught.value.reason, caught.value.argument) == ("invalid_argument", "results")
    assert isinstance(caught.value.__cause__, OSError)


@pytest.mark.parametrize(
    "build",
    [
        lambda: ScriptedSTTModel(model_name=5),  # type: ignore[arg-type]
        lambda: ScriptedTTSModel(model_name=None),  # type: ignore[arg-type]
    ],
)
def test_a_model_name_that_is_not_a_string_names_the_argument_and_the_type(build: Any) -> None:
    with pytest.raises(InvalidVoiceStep, match="model_name must be a str") as caught:
        build()

    assert (caught.value.reason, caught.value.argument) == ("invalid_argument", "model_name")


@pytest.mark.parametrize(
    "build",
    [
        lambda: ScriptedSTTModel({"hello": "there"}),
        lambda: ScriptedSTTModel(sessions={"one", "two"}),
        lambda: ScriptedVoiceWorkflow({"Hello.": 1}),
        lambda: ScriptedTranscriptionSession(frozenset({"hi"})),  # type: ignore[arg-type]
    ],
)
def test_mappings_and_sets_are_not_taken_as_scripts(build: Any) -> None:
    # Their iteration order is not a script order, and a dict's values would be dropped.
    with pytest.raises(InvalidVoiceStep):
        build()


@pytest.mark.asyncio
async def test_a_scripted_exception_instance_reaches_the_consumer_itself(voice_runs: Any) -> None:
    failure = PermissionError("microphone blocked")
    doubles = voice_runs.build("session", failure, streamed=True)

    outcome, hung = await voice_runs.run(doubles, streamed=True)

    assert not hung
    assert outcome.error is failure
    assert isinstance(doubles[0].session_calls[0].input, StreamedAudioInput)
