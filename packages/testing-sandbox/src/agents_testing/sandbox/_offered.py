"""Session methods that exist only on the sessions that offer them.

A scripted session offers exactly the methods its steps script. The SDK's session base
class defines every method, so each optional one is replaced by a descriptor that raises
``SandboxMethodUnavailable`` (an ``AttributeError``) on a session that does not offer
it: ``hasattr`` is false, and the SDK's own code meets a missing method, not a stub.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any, TypeVar, cast

from ._errors import method_unavailable

__all__ = ["Offered", "needs", "never", "scripted"]

F = TypeVar("F", bound=Callable[..., Any])


class Offered:
    """A session method that exists on an instance only when that session offers it.

    Attribute lookup raises ``SandboxMethodUnavailable`` (an ``AttributeError``) otherwise,
    so ``hasattr`` is false and the SDK's own code meets a missing method, not a stub.
    """

    def __init__(self, function: Callable[..., Any], requires: str | None) -> None:
        self._function = function
        self._requires = requires
        self._name = function.__name__
        self.__doc__ = function.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        if instance is None:
            return self._function
        offered: frozenset[str] = getattr(instance, "_offered", frozenset())
        if self._requires is None or self._requires not in offered:
            raise method_unavailable(self._name, self._requires)
        return types.MethodType(self._function, instance)

    def offered_by(self, offered: frozenset[str]) -> bool:
        """Whether a session offering the step methods ``offered`` has this method."""
        return self._requires is not None and self._requires in offered


def scripted(function: F) -> F:
    """Offer the method only when a step scripts it."""
    return cast(F, Offered(function, function.__name__))


def needs(method: str) -> Callable[[F], F]:
    """Offer an SDK operation built on ``method`` only when ``method`` is offered."""

    def decorate(function: F) -> F:
        return cast(F, Offered(function, method))

    return decorate


def never(function: F) -> F:
    """An operation the script cannot serve: the session never offers it."""
    return cast(F, Offered(function, None))
