"""The travel desk chat: one conversation, remembered in SQLite, with streamed replies."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from pathlib import Path

from agents import (
    Agent,
    RawResponsesStreamEvent,
    RunConfig,
    Runner,
    RunResult,
    SQLiteSession,
    TResponseInputItem,
)
from agents.mcp import MCPServer
from openai.types.responses import ResponseTextDeltaEvent

from .domain import TravelDeskContext
from .team import ModelChoice, triage_agent


class TravelDesk:
    """A customer conversation with the desk's agents.

    Each conversation id is one SQLite session, so a later turn sees the earlier ones.
    The agent that answered last keeps the conversation until it hands off again.
    """

    def __init__(
        self,
        conversation_id: str,
        *,
        db_path: str | Path = ":memory:",
        model: ModelChoice = None,
        context: TravelDeskContext | None = None,
        run_config: RunConfig | None = None,
        mcp_servers: Sequence[MCPServer] = (),
    ) -> None:
        self.context = context if context is not None else TravelDeskContext()
        self.session = SQLiteSession(conversation_id, db_path)
        # The MCP servers (the exchange-rate service) are connected by the caller.
        self.agent: Agent[TravelDeskContext] = triage_agent(model, mcp_servers)
        self._run_config = run_config if run_config is not None else RunConfig()

    async def ask(self, message: str) -> RunResult:
        """Run one customer turn to completion."""
        result = await Runner.run(
            self.agent,
            message,
            context=self.context,
            session=self.session,
            run_config=self._run_config,
        )
        self.agent = result.last_agent
        return result

    async def stream(self, message: str) -> AsyncIterator[str]:
        """Run one customer turn, yielding the reply text as the model writes it."""
        result = Runner.run_streamed(
            self.agent,
            message,
            context=self.context,
            session=self.session,
            run_config=self._run_config,
        )
        async for event in result.stream_events():
            if isinstance(event, RawResponsesStreamEvent) and isinstance(
                event.data, ResponseTextDeltaEvent
            ):
                yield event.data.delta
        self.agent = result.last_agent

    async def history(self) -> list[TResponseInputItem]:
        """Everything said so far in this conversation, oldest first."""
        return await self.session.get_items()

    def close(self) -> None:
        """Release the SQLite connection."""
        self.session.close()
