"""agents-testing realtime boundary."""

from __future__ import annotations

__all__: list[str] = []
