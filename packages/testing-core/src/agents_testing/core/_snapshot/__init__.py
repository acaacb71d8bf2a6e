"""Plain, stable snapshot data of runs, calls and traces, for snapshot tests."""
