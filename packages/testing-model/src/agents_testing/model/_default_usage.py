"""The SDK ``Usage`` values the model double makes itself, each made when first needed.

Made lazily so that importing the package validates nothing; and made through
:func:`new_usage`, so that an openai client too new for the installed SDK release
fails with a message saying what to pin rather than with pydantic's text.
"""

from __future__ import annotations

import functools

from agents.usage import Usage
from pydantic import ValidationError

__all__ = ["new_usage", "one_request", "zero_usage"]


def new_usage(requests: int = 0) -> Usage:
    """``Usage(requests=requests)`` (no tokens), or :class:`IncompatibleOpenAIClient` where
    the openai client is too new for the installed SDK release."""
    try:
        return Usage(requests=requests)
    except ValidationError as error:
        incompatible = _incompatible_client()
        if incompatible is None:
            raise
        raise incompatible from error


@functools.cache
def zero_usage() -> Usage:
    """The all-zero ``Usage()``: a step with it leaves usage to the model. Never change it."""
    return new_usage()


@functools.cache
def one_request() -> Usage:
    """The usage of a call whose step leaves it to the model: one request, no tokens."""
    return new_usage(requests=1)


def _incompatible_client() -> Exception | None:
    import agents
    import openai

    from agents_testing.core import IncompatibleOpenAIClient

    agents_version = str(getattr(agents, "__version__", "0"))
    openai_version = str(getattr(openai, "__version__", "0"))
    if _release(agents_version) < (0, 18) and _release(openai_version) >= (2, 45):
        return IncompatibleOpenAIClient(openai_version, agents_version)
    return None


def _release(version: str) -> tuple[int, ...]:
    numbers: list[int] = []
    for part in version.split(".")[:2]:
        digits = "".join(c for c in part if c.isdigit())
        numbers.append(int(digits) if digits else 0)
    return tuple(numbers)
