"""PCM16 audio helpers for scripting TTS output."""

from __future__ import annotations

import numbers
from collections.abc import Iterable

import numpy as np

__all__ = ["pcm16_samples"]

_MIN = -32768
_MAX = 32767


def pcm16_samples(samples: Iterable[int]) -> bytes:
    """Encode integer samples as little-endian 16-bit PCM, the format TTS models stream.

    ``np.frombuffer(pcm16_samples(xs), dtype=np.int16)`` gives ``xs`` back. Samples
    outside the int16 range raise ``ValueError``; non-integer samples (floats, bools,
    strings) raise ``TypeError``.
    """
    if isinstance(samples, (str, bytes, bytearray, memoryview)):
        raise TypeError(
            f"pcm16_samples() takes an iterable of integer samples, not {type(samples).__name__}"
        )
    if isinstance(samples, np.ndarray):
        return _from_array(samples)
    values = list(samples)
    for index, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(
                f"sample {index + 1} is {value!r} ({type(value).__name__}); "
                "PCM16 samples must be integers"
            )
        if not _MIN <= value <= _MAX:
            raise ValueError(
                f"sample {index + 1} is {value}, outside the int16 range [{_MIN}, {_MAX}]"
            )
    return np.asarray(values, dtype="<i2").tobytes()


def _from_array(samples: np.ndarray[tuple[int, ...], np.dtype[np.generic]]) -> bytes:
    if samples.dtype == np.bool_ or not np.issubdtype(samples.dtype, np.integer):
        raise TypeError(f"PCM16 samples must be integers, got an array of dtype {samples.dtype}")
    flat = samples.reshape(-1)
    if flat.size:
        low, high = int(flat.min()), int(flat.max())
        if low < _MIN or high > _MAX:
            bad = low if low < _MIN else high
            index = int(np.flatnonzero(flat == bad)[0])
            raise ValueError(
                f"sample {index + 1} is {bad}, outside the int16 range [{_MIN}, {_MAX}]"
            )
    return flat.astype("<i2").tobytes()


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
