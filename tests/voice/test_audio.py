"""pcm16_samples: integer samples to little-endian PCM16 bytes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from agents.voice.testing import pcm16_samples


@pytest.mark.parametrize(
    "samples",
    [[], [0], [0, 100, -100, 0], [32767, -32768, 1, -1], list(range(-300, 300, 7))],
)
def test_round_trips_with_numpy_int16(samples: list[int]) -> None:
    encoded = pcm16_samples(samples)

    assert len(encoded) == 2 * len(samples)
    assert np.frombuffer(encoded, dtype=np.int16).tolist() == samples
    assert encoded == np.array(samples, dtype="<i2").tobytes()


def test_accepts_numpy_integer_arrays_and_scalars() -> None:
    array = np.array([[1, -2], [3, -4]], dtype=np.int32)

    assert np.frombuffer(pcm16_samples(array), dtype=np.int16).tolist() == [1, -2, 3, -4]
    assert pcm16_samples(np.int16(5) for _ in range(2)) == pcm16_samples([5, 5])
    int16 = np.array([7, -7], dtype=np.int16)
    assert np.array_equal(np.frombuffer(pcm16_samples(int16), dtype=np.int16), int16)


@pytest.mark.parametrize(
    ("samples", "bad"),
    [([0, 32768], "32768"), ([-32769], "-32769"), (np.array([0, 0, 40000]), "40000")],
)
def test_values_outside_the_int16_range_are_a_value_error(samples: Any, bad: str) -> None:
    with pytest.raises(ValueError, match=rf"sample \d+ is {bad}, outside the int16 range"):
        pcm16_samples(samples)


def test_the_error_names_the_offending_sample_counting_from_one() -> None:
    with pytest.raises(ValueError, match="sample 3 is 99999"):
        pcm16_samples([0, 1, 99999])
    with pytest.raises(ValueError, match="sample 2 is -40000"):
        pcm16_samples(np.array([5, -40000, 7]))


@pytest.mark.parametrize(
    "samples",
    [[0.5], [1.0], [True], ["1"], [None], np.array([0.0, 1.0]), np.array([True])],
)
def test_non_integer_samples_are_a_type_error(samples: Any) -> None:
    with pytest.raises(TypeError, match="integer"):
        pcm16_samples(samples)


@pytest.mark.parametrize("samples", [b"\x00\x01", "0101"])
def test_bytes_and_strings_are_not_sample_sequences(samples: Any) -> None:
    with pytest.raises(TypeError, match="iterable of integer samples"):
        pcm16_samples(samples)
