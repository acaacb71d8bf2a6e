"""Read-only views of a double's private state, for its inspection attributes."""

from __future__ import annotations

from typing import Any, Generic, TypeVar, overload

__all__ = ["ReadOnly"]

T = TypeVar("T")


class ReadOnly(Generic[T]):
    """An attribute showing a private one read-only, as a property returning it would:
    ``closed = ReadOnly[bool]("_closed", "Whether close() has been called.")``."""

    def __init__(self, attribute: str, doc: str | None = None) -> None:
        self._attribute = attribute
        self._name = attribute.lstrip("_")
        self.__doc__ = doc

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> ReadOnly[T]: ...
    @overload
    def __get__(self, instance: object, owner: type | None = None) -> T: ...
    def __get__(self, instance: object, owner: type | None = None) -> Any:
        if instance is None:
            return self
        return getattr(instance, self._attribute)

    def __set__(self, instance: object, value: object) -> None:
        raise AttributeError(
            f"property {self._name!r} of {type(instance).__name__!r} object has no setter"
        )


# Public names show agents_testing.core, however this module was first imported.
from .lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
