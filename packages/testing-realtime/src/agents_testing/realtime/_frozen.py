"""Immutable value objects of the realtime package (steps and faults)."""

from __future__ import annotations

from typing import Any

__all__ = ["Frozen"]


class Frozen:
    """A value set once, in ``__init__`` (with ``object.__setattr__``), and compared by
    :meth:`_value`; a subclass writes a ``__hash__`` consistent with it."""

    __slots__ = ()

    def _value(self) -> tuple[Any, ...]:
        raise NotImplementedError

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot set {name!r}")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Frozen)
        return self._value() == other._value()
