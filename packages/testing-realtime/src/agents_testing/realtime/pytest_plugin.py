"""pytest plugin of the realtime boundary, loaded by pytest through the pytest11 entry point."""

from __future__ import annotations
