"""From a scripted step to a call's outcome: validation when queued, resolution when called."""
