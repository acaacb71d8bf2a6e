"""Voice faults: a transcription session whose connection drops, a TTS stream that stalls.

A streamed transcription session talks to the provider over a WebSocket. When it drops
mid-turn, the SDK's own session (``OpenAISTTTranscriptionSession``) ends
``transcribe_turns()`` with ``STTWebsocketConnectionError("Error parsing events")``
caused by the ``websockets`` ``ConnectionClosedError`` (openai-agents 0.19.3 and later),
or with that ``ConnectionClosedError`` itself (earlier releases); checked against a real
socket dropped mid-turn. A stalled TTS stream simply sends nothing for a while: the SDK
applies no timeout of its own to it, so the pipeline waits, on the event loop's clock.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence

from agents_testing.core import compat, delay_problem, safe_repr, scripted_wait

from ._errors import InvalidVoiceStepReason, invalid_step

__all__ = ["check_delays", "check_drop_after", "delayed_replay", "transcription_drop"]


def transcription_drop() -> Exception:
    """A fresh error of the installed SDK's streamed transcription session whose
    WebSocket dropped without a close frame."""
    from websockets.exceptions import ConnectionClosedError

    closed = ConnectionClosedError(None, None)
    if not compat.sdk_at_least(0, 19, 3):
        return closed
    from agents.voice.exceptions import STTWebsocketConnectionError

    error = STTWebsocketConnectionError("Error parsing events")
    error.__cause__ = closed
    return error


def check_drop_after(value: object, turns: int) -> int | None:
    """``drop_after`` of a transcription session, checked against its ``turns``."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise invalid_step(
            "invalid_fault",
            0,
            f"drop_after is the number of turns transcribed before the connection drops "
            f"(an int >= 0), got {type(value).__name__} {safe_repr(value, 40)}",
            "drop_after",
        )
    if value > turns:
        raise invalid_step(
            "invalid_fault",
            0,
            f"drop_after={value} is after more turns than the session has ({turns}); the "
            "session would end before the connection drops",
            "drop_after",
        )
    return value


def check_delays(
    value: object, chunks: int, reason: InvalidVoiceStepReason = "invalid_fault"
) -> tuple[tuple[int, float], ...]:
    """``delays`` of a TTS result (chunk position -> seconds before it), checked against
    its ``chunks``; position ``chunks`` is the end of the stream."""
    if value is None:
        return ()
    if not isinstance(value, Mapping):
        raise invalid_step(
            reason,
            0,
            f"delays maps chunk positions to seconds, got {type(value).__name__}",
            "delays",
        )
    kept: dict[int, float] = {}
    for position, seconds in value.items():
        if isinstance(position, bool) or not isinstance(position, int) or position < 0:
            raise invalid_step(
                reason,
                0,
                f"a delays key is a chunk position (an int >= 0), got {safe_repr(position, 40)}",
                "delays",
            )
        if position > chunks:
            raise invalid_step(
                reason,
                0,
                f"delays names chunk position {position} (0-based), but the result has "
                f"{chunks} chunk(s) (position {chunks} is the end of the stream)",
                "delays",
            )
        problem = delay_problem(seconds)
        if problem is not None:
            raise invalid_step(reason, 0, f"delays[{position}]: {problem}", "delays")
        if seconds:
            kept[position] = float(seconds)
    return tuple(sorted(kept.items()))


async def delayed_replay(
    chunks: Sequence[bytes], delays: Mapping[int, float]
) -> AsyncIterator[bytes]:
    """Yield ``chunks``, waiting on the loop's clock before each position in ``delays``."""
    for position, chunk in enumerate(chunks):
        seconds = delays.get(position)
        if seconds:
            await scripted_wait(seconds)
        yield chunk
    seconds = delays.get(len(chunks))
    if seconds:
        await scripted_wait(seconds)


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
