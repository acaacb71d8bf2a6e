"""Virtual time for asyncio, and the scripted waits the doubles make on it."""
