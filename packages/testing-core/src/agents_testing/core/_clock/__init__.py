"""The virtual clock: asyncio time that passes at once, and the waits begun on it."""
