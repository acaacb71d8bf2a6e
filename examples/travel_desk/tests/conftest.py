"""Shared set-up for the travel desk tests: a tracing-free run config and an open desk."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from agents import Model, RunConfig
from agents.mcp import MCPServer
from travel_desk import TravelDesk, TravelDeskContext


@pytest.fixture
def run_config() -> RunConfig:
    """How the tests run agents: as in production, minus uploading traces."""
    return RunConfig(tracing_disabled=True)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """The SQLite file holding this test's conversations."""
    return tmp_path / "conversations.sqlite3"


@pytest.fixture
def open_desk(run_config: RunConfig, db_path: Path) -> Iterator[Callable[..., TravelDesk]]:
    """Open a desk conversation on the given model; every desk is closed after the test."""
    opened: list[TravelDesk] = []

    def open_(
        model: Model,
        *,
        conversation_id: str = "customer-1",
        context: TravelDeskContext | None = None,
        mcp_servers: Sequence[MCPServer] = (),
    ) -> TravelDesk:
        desk = TravelDesk(
            conversation_id,
            db_path=db_path,
            model=model,
            context=context,
            run_config=run_config,
            mcp_servers=mcp_servers,
        )
        opened.append(desk)
        return desk

    yield open_
    for desk in opened:
        desk.close()
