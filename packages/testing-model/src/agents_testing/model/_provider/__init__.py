"""A scripted model provider: one script per agent or model name, for apps naming models."""
