"""The cassette file shared by the model and sandbox boundaries: format, diffs and secrets."""
