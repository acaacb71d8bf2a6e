"""Chat with the travel desk in a terminal: ``python -m travel_desk`` (needs ``OPENAI_API_KEY``)."""

from __future__ import annotations

import asyncio

from agents import InputGuardrailTripwireTriggered

from .desk import TravelDesk
from .rates import rates_server
from .team import BookingReply


async def chat(conversation_id: str = "terminal", db_path: str = "travel_desk.sqlite3") -> None:
    """Read customer lines from stdin until end of input; the conversation survives restarts."""
    async with rates_server() as rates:
        await _chat(TravelDesk(conversation_id, db_path=db_path, mcp_servers=[rates]))


async def _chat(desk: TravelDesk) -> None:
    try:
        while True:
            try:
                line = (await asyncio.to_thread(input, "you> ")).strip()
            except EOFError:
                return
            if not line:
                continue
            try:
                result = await desk.ask(line)
            except InputGuardrailTripwireTriggered:
                print("desk> Please never type a card number into the chat.")
                continue
            reply = result.final_output
            print(f"desk> {reply.message if isinstance(reply, BookingReply) else reply}")
    finally:
        desk.close()


if __name__ == "__main__":
    asyncio.run(chat())
