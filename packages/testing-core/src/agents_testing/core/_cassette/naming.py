"""Where a test's cassette lives: one file per test, named the way pytest-recording names them.

``cassettes/<test module>/<Class>.<test name>[<parameters>].json`` beside the test
file: the module keeps same-named tests of two files apart, the class (every enclosing
class, outermost first) same-named methods of two classes, the parameter id each case
of a parametrized test. A boundary other than the model adds its name before the
extension (``.sandbox.json``), so the cassettes of one test sit side by side.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

__all__ = ["cassette_file_name", "cassette_path"]

# Characters that some file systems refuse in a name, as pytest-recording replaces them.
_FORBIDDEN = str.maketrans({character: "-" for character in "<>?%*:|\"'/\\"})


def cassette_file_name(test_name: str, classes: Sequence[str] = (), boundary: str = "model") -> str:
    """The file name of a cassette: ``Class.test_name[param].json`` (``.<boundary>.json``)."""
    name = ".".join([*classes, test_name]).translate(_FORBIDDEN)
    suffix = "" if boundary == "model" else f".{boundary}"
    return f"{name}{suffix}.json"


def cassette_path(
    test_file: str | os.PathLike[str],
    test_name: str,
    classes: Sequence[str] = (),
    boundary: str = "model",
) -> Path:
    """``cassettes/<module>/<file name>`` beside ``test_file`` (see :func:`cassette_file_name`)."""
    source = Path(test_file)
    return (
        source.parent / "cassettes" / source.stem / cassette_file_name(test_name, classes, boundary)
    )
