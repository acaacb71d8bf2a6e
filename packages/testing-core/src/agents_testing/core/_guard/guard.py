"""What the plugin's guards share: attributes replaced for one test, put back after it.

A guard replaces what it watches when the test starts (``__enter__`` calls
:meth:`Guard._install`), keeps every refused attempt in ``attempts`` (a test whose code
caught the error is failed afterwards all the same), and on exit first hands what the
test queued for the SDK's trace exporter to that (still replaced) exporter, then puts
every attribute back in reverse order, so that nested guards (pytester runs inside a
guarded test) unwind to exactly what was there before.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..compat import flush_default_trace_processor

__all__ = ["Guard"]

_MISSING = object()


class Guard:
    """Attributes replaced for one test, and the attempts refused meanwhile."""

    #: What it blocks, for the plugin that reports its attempts.
    kind: ClassVar[str]

    def __init__(self, test: str) -> None:
        self.test = test
        self.attempts: list[Any] = []
        self._saved: list[tuple[object, str, object]] = []

    def _install(self) -> None:
        """Replace what the guard watches (with :meth:`_replace`)."""
        raise NotImplementedError

    def _replace(self, owner: object, name: str, replacement: object) -> None:
        # The owner's own attribute: one it inherits is deleted again on exit.
        self._saved.append((owner, name, vars(owner).get(name, _MISSING)))
        setattr(owner, name, replacement)

    def __enter__(self) -> Any:
        self._install()
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            flush_default_trace_processor()
        finally:
            while self._saved:
                owner, name, original = self._saved.pop()
                if original is _MISSING:
                    delattr(owner, name)
                else:
                    setattr(owner, name, original)
