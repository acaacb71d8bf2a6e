"""What a boundary's errors module is built from (public API for the boundary packages).

A boundary's error base derives from :class:`BoundaryError`; each concrete error also
derives from one of the kinds ``agents_testing.core`` exports (``InvalidStepError``,
``UnexpectedCallError``, ``UnconsumedStepsError``) and declares its fields under
:func:`error_fields`. Messages count calls and steps from 1 (:func:`ordinal`), show user
values only through :func:`safe_repr`, and put an explanation after the SDK double's own
sentence with :func:`as_sentence`.
"""

from __future__ import annotations

from ._errors import BoundaryError, error_fields, ordinal
from ._values import as_sentence, safe_repr

__all__ = ["BoundaryError", "as_sentence", "error_fields", "ordinal", "safe_repr"]
