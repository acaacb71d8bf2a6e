"""Production failures of a model provider, scripted as steps or on a schedule of calls."""
