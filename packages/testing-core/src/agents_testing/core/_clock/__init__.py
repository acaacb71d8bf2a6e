"""Virtual time for asyncio: the clock behind the virtual_clock fixture."""
