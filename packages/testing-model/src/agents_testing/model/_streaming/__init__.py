"""The automatic streaming lifecycle that serves an ordinary step to a streamed run."""
