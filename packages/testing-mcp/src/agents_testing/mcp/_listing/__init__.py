"""What the server lists: tools, prompts and resources, and the SDK tool filters."""
