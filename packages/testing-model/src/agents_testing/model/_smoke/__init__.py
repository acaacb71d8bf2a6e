"""The smoke model: every tool of an agent called with arguments from its schema."""
